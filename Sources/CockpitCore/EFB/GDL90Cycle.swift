/// Who we are to the EFB: the ownship identity the settings give.
public struct GDL90Ownship: Sendable, Equatable {
    /// 24-bit ICAO address (nil: none given — address 0, marked self-assigned).
    public var icaoAddress: UInt32?
    public var callsign: String
    /// ADS-B emitter category (§3.5.1.10), from the flight profile unless set.
    public var emitterCategory: UInt8
    public var shortName = "cockpitd"
    public var longName = "cockpitd"

    public init(icaoAddress: UInt32? = nil, callsign: String = "", emitterCategory: UInt8 = 1) {
        self.icaoAddress = icaoAddress
        self.callsign = callsign
        self.emitterCategory = emitterCategory
    }

    /// Emitter category of a flight profile: light aeroplane (1), glider (9), hang glider/paraglider (12).
    public static func emitterCategory(for kind: FlightProfile.Kind) -> UInt8 {
        switch kind {
        case .powered: 1
        case .glider: 9
        case .hangGlider, .paraglider: 12   // ultralight / hang glider / paraglider
        }
    }
}

/// One second of GDL 90, §2.3 order: heartbeat, ForeFlight ID, ownship, ownship geometric altitude, then one traffic
/// report per target (alerted targets first). Each element is one framed message (one datagram). Pure.
public enum GDL90Cycle {
    public static func messages(_ picture: EFBPicture, ownship: GDL90Ownship) -> [[UInt8]] {
        var out: [[UInt8]] = []
        out.reserveCapacity(4 + picture.targets.count)
        let secondsOfDay = picture.utc.map { utc -> Int in
            let whole = Int64(utc.secondsSinceEpoch.rounded(.down))
            return Int(((whole % 86_400) + 86_400) % 86_400)
        }
        out.append(GDL90Message.heartbeat(gpsPositionValid: picture.fix != nil, utcOK: picture.utc != nil,
                                          secondsSinceMidnight: secondsOfDay, uplinkCount: picture.uplinksLastSecond))
        out.append(GDL90Message.foreFlightID(serial: nil, shortName: ownship.shortName, longName: ownship.longName,
                                             geometricAltitudeIsMSL: false))
        out.append(GDL90Message.ownship(ownshipReport(picture, ownship: ownship)))
        if let fix = picture.fix, let hae = fix.altitudeHAEMeters, hae.isFinite {
            out.append(GDL90Message.geometricAltitude(heightAboveEllipsoidFeet: UnitConversions.feet(fromMeters: hae),
                                                      verticalFigureOfMeritMeters: fix.verticalErrorMeters))
        }
        for target in picture.targets {
            guard let report = trafficReport(target, picture: picture) else { continue }
            out.append(GDL90Message.traffic(report))
        }
        return out.map(GDL90Frame.frame)
    }

    /// §3.4 / §3.5: always sent; without a valid fix latitude, longitude and NIC are 0.
    public static func ownshipReport(_ picture: EFBPicture, ownship: GDL90Ownship) -> GDL90Report {
        var report = GDL90Report()
        report.addressType = ownship.icaoAddress == nil ? .adsbSelfAssigned : .adsbICAO
        report.address = ownship.icaoAddress ?? 0
        report.pressureAltitudeFeet = picture.pressureAltitudeFeet
        report.airborne = picture.airborne
        report.emitterCategory = ownship.emitterCategory
        report.callsign = ownship.callsign
        if let fix = picture.fix {
            report.latitudeDegrees = fix.latitudeDegrees
            report.longitudeDegrees = fix.longitudeDegrees
            report.nic = navigationIntegrityCategory(horizontalErrorMeters: fix.horizontalErrorMeters)
            report.nacp = navigationAccuracyCategory(horizontalErrorMeters: fix.horizontalErrorMeters)
            report.horizontalSpeedKnots = fix.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:))
            report.verticalSpeedFeetPerMinute = fix.climbMetersPerSecond.map(UnitConversions.feetPerMinute(fromMetersPerSecond:))
            if let track = fix.trackTrueDegrees {
                report.trackKind = .trueTrack
                report.trackDegrees = track
            }
        }
        return report
    }

    /// One 0x14 per target with a position relative to ours (nil without an own fix: there is nothing to relate to).
    /// Address type (§3.5.1.2): a UAT target's own (its address qualifier: ADS-B, TIS-B ICAO or track file, surface
    /// vehicle, beacon; `RadioAddressQualifier.gdl90AddressType`); else ICAO for an ICAO-addressed aircraft,
    /// self-assigned for every other identifier (a FLARM or OGN device's own, a random one, a relay box's per-flight
    /// one): an EFB must not look those up as registrations. NIC as the aircraft sent it (UAT), else 0 (unknown);
    /// the emergency code the aircraft's own (UAT), else 1 (general) for an emergency squawk. Call sign: the
    /// aircraft's own when a source gave one, else the six hex digits shown on the radar.
    public static func trafficReport(_ target: EFBPicture.Target, picture: EFBPicture) -> GDL90Report? {
        guard let relative = target.relative else { return nil }
        let source = target.target
        var report = GDL90Report()
        report.trafficAlert = EFBPicture.alarmLevel(target) > 0   // the threat assessment's, or the FLARM device's
        report.addressType = source.addressQualifier.flatMap { GDL90Report.AddressType(rawValue: $0.gdl90AddressType) }
            ?? (source.addressType == RadioAddressType.icao.rawValue ? .adsbICAO : .adsbSelfAssigned)
        report.nic = source.navigationIntegrityCategory.map { min($0, 11) } ?? 0
        report.address = target.identifier
        report.latitudeDegrees = relative.latitudeDegrees
        report.longitudeDegrees = relative.longitudeDegrees
        report.pressureAltitudeFeet = picture.targetPressureAltitudeFeet(target)
        report.airborne = source.airborne ?? true
        report.extrapolated = relative.deadReckoned
        if let track = source.trackTrueDegrees {
            report.trackKind = .trueTrack
            report.trackDegrees = track
        }
        report.horizontalSpeedKnots = source.groundSpeedKnots
        report.verticalSpeedFeetPerMinute = source.verticalRateFeetPerMinute
        report.callsign = callsignField(source.callsign) ?? source.identifierText
        report.emergencyCode = source.emergencyPriority.flatMap { $0 <= 6 ? $0 : nil } ?? (source.emergency ? 1 : 0)
        report.emitterCategory = source.emitterCategory ?? 0   // 0: no emitter category information
        return report
    }

    /// The 0x14 call sign field holds eight characters of `0`–`9`, `A`–`Z` and space (GDL 90 ICD §3.5.1, call sign).
    /// A call sign or registration is written as a flight plan writes a registration as aircraft identification (ICAO
    /// Doc 4444, Appendix 2, item 7: `EIAKO`, `N2567GA`): letters upper-cased, every other character (the hyphen of
    /// `D-EAAA`, SoftRF's `_`) left out. Nil when that leaves nothing, or more than eight characters: cut short, a
    /// name could be another aircraft's, and the six hex digits are sent instead.
    public static func callsignField(_ callsign: String?) -> String? {
        guard let callsign else { return nil }
        var field = ""
        for scalar in callsign.unicodeScalars {
            let value = scalar.value
            if value >= 0x30 && value <= 0x39 || value >= 0x41 && value <= 0x5A {
                field.unicodeScalars.append(scalar)
            } else if value >= 0x61 && value <= 0x7A, let upper = Unicode.Scalar(value - 0x20) {
                field.unicodeScalars.append(upper)
            }
        }
        return field.isEmpty || field.unicodeScalars.count > 8 ? nil : field
    }

    /// NACp (§3.5.1.6 / DO-260B) from the receiver's estimated horizontal error (95 %): 11 < 3 m … 1 < 10 nm, 0 unknown.
    public static func navigationAccuracyCategory(horizontalErrorMeters: Double?) -> UInt8 {
        guard let error = horizontalErrorMeters, error.isFinite, error >= 0 else { return 0 }
        let limits: [(Double, UInt8)] = [(3, 11), (10, 10), (30, 9), (92.6, 8), (185.2, 7), (555.6, 6), (926, 5),
                                         (1_852, 4), (3_704, 3), (7_408, 2), (18_520, 1)]
        return limits.first { error < $0.0 }?.1 ?? 0
    }

    /// NIC from the same estimate used as a containment radius: 11 < 7.5 m, 10 < 25 m, 9 < 75 m, 8 < 0.1 nm, 7 < 0.2 nm,
    /// 6 < 0.6 nm, 5 < 1 nm, 4 < 2 nm, 3 < 4 nm, 2 < 8 nm, 1 < 20 nm, 0 unknown. (A GPS receiver without RAIM reports no
    /// protection level; docs/efb.md says so.)
    public static func navigationIntegrityCategory(horizontalErrorMeters: Double?) -> UInt8 {
        guard let error = horizontalErrorMeters, error.isFinite, error >= 0 else { return 0 }
        let limits: [(Double, UInt8)] = [(7.5, 11), (25, 10), (75, 9), (185.2, 8), (370.4, 7), (1_111.2, 6), (1_852, 5),
                                         (3_704, 4), (7_408, 3), (14_816, 2), (37_040, 1)]
        return limits.first { error < $0.0 }?.1 ?? 0
    }
}
