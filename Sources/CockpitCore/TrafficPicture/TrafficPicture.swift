/// One aircraft of the fused traffic picture, whatever told us of it: another cockpitd box through the relay or
/// directly, dump1090's ADS-B, a FLARM device, an OGN receiver. Every output (status, radar, GDL 90, FLARM, alerts,
/// flight log) reads these and nothing else.
public struct PictureTarget: Sendable, Equatable {
    /// Where the target comes from: its key in its own table.
    public enum Origin: Sendable, Equatable, Hashable {
        case relay(UInt32)
        case radio(RadioAddress)
    }

    public var origin: Origin
    /// The 24-bit address or identifier the outputs write (six hex digits).
    public var identifier: UInt32
    /// `icao`, `flarm`, `ogn`, `random`, `non-icao` (radio address types) or `cockpitd` (another cockpitd box's
    /// per-flight random identifier, heard on the traffic port directly or through the relay).
    public var addressType: String
    /// Every source that heard it (`adsb-sbs`, `flarm`, `ogn`, then `cockpitd`: the traffic port).
    public var sources: [String]
    /// A cockpitd box's target found to be this radio target (`TrafficPicture.sameAircraft`): shown once, as this one.
    public var mergedCockpitdIdentifier: UInt32?
    public var callsign: String?
    public var squawk: String?
    /// ADS-B emitter category (GDL 90 §3.5.1.10), nil when no source says.
    public var emitterCategory: UInt8?
    /// Where it is now relative to the own fix (dead-reckoned); nil without an own position.
    public var relative: RelativeTraffic?
    /// Where it was last heard, and how long ago.
    public var heardLatitudeDegrees: Double
    public var heardLongitudeDegrees: Double
    public var positionAgeSeconds: Double
    /// Above mean sea level (a relay report's GPS altitude, OGN's GNSS altitude).
    public var altitudeMSLFeet: Double?
    /// Its own pressure altitude (1013.25 hPa): ADS-B's barometric altitude.
    public var pressureAltitudeFeet: Double?
    /// Above the WGS-84 ellipsoid: ADS-B's geometric altitude.
    public var geometricAltitudeHAEFeet: Double?
    public var groundSpeedKnots: Double?
    public var trackTrueDegrees: Double?
    public var verticalRateFeetPerMinute: Double?
    /// Nil when no source says.
    public var airborne: Bool?
    public var emergency = false
    /// A FLARM device's own alarm level for it (0–3), when heard within `TrafficPicture.deviceAlarmFreshSeconds`.
    public var deviceAlarmLevel: Int?
    /// Asked not to be tracked (OGN): shown, never logged, never forwarded.
    public var noTrack = false
    public var stealth = false
    /// Within the proximity limits, in flight, and not a target on the ground.
    public var proximate = false
    /// The relay target itself, for the relay's own fields in the status (nil for a radio target).
    public var relayTarget: TrafficTarget?
    /// A UAT target's address qualifier: its own ADS-B, or a ground station's TIS-B or ADS-R (GDL 90's address type).
    public var addressQualifier: RadioAddressQualifier?
    /// Navigation Integrity Category as the aircraft sent it (UAT), nil when no source says.
    public var navigationIntegrityCategory: UInt8?
    /// Emergency/priority status as the aircraft sent it (UAT's mode-status element; GDL 90's `p`), nil when no
    /// source says; a squawk of 7500, 7600 or 7700 sets `emergency` without a code.
    public var emergencyPriority: UInt8?

    /// Six hex digits, as on the radar, in the log and on the tablet.
    public var identifierText: String { TrafficIdentifier.text(identifier) }
    /// "icao 4D2023", "cockpitd 0ABCDE": unique across the picture (the alerts' and encounters' key).
    public var key: String { addressType + " " + identifierText }
    /// On the ground by its own say-so (ADS-B's ground bit, a relay report without the airborne flag).
    public var isOnGround: Bool { airborne == false }
}

/// The fused picture: every relay and radio target placed relative to the own fix, one entry per aircraft. Pure.
public struct TrafficPicture: Sendable {
    public var targets: [PictureTarget]

    /// A FLARM device's alarm level older than this is not its current word on the target.
    public static let deviceAlarmFreshSeconds = 3.0
    /// A relay target and a radio target are one aircraft when they are within this distance of each other …
    public static let sameAircraftMeters = 300.0
    /// … within this height (their heights against ours, each on its own datum) …
    public static let sameAircraftFeet = 300.0
    /// … and, both moving at `sameAircraftMovingKnots` or more, on tracks this close.
    public static let sameAircraftTrackDegrees = 30.0
    public static let sameAircraftMovingKnots = 20.0

    /// A stealth aircraft is shown only as close as a FLARM device in stealth mode shows one (FLARM's data port ICD,
    /// FTD-012: with no alarm, a stealth target beyond about 2 km horizontally or 300 m vertically is not given at all),
    /// or while the FLARM device alarms for it.
    public static let stealthVisibleMeters = 2_000.0
    public static let stealthVisibleVerticalMeters = 300.0

    public init(targets: [PictureTarget]) { self.targets = targets }

    /// The stealth rule: a stealth target is in the picture only within `stealthVisibleMeters` and
    /// `stealthVisibleVerticalMeters` of the own aircraft, or while its FLARM device's alarm level is 1 or higher.
    /// Without an own position or a relative height the nearness is unknown, and a stealth target is not shown: the
    /// pilot asked others to see it only when it is close.
    static func stealthAllowsShowing(_ target: PictureTarget) -> Bool {
        guard target.stealth else { return true }
        if (target.deviceAlarmLevel ?? 0) >= 1 { return true }
        guard let relative = target.relative, let heightFeet = relative.relativeAltitudeFeet else { return false }
        return relative.distanceNauticalMiles * UnitConversions.metersPerNauticalMile <= stealthVisibleMeters
            && abs(UnitConversions.meters(fromFeet: heightFeet)) <= stealthVisibleVerticalMeters
    }

    public init(_ snapshot: StatusSnapshot) {
        let own = snapshot.currentFix.flatMap { $0.hasValidPosition ? $0 : nil }
        self.init(relay: snapshot.traffic, radio: snapshot.radioTraffic, own: own,
                  ownPressureAltitudeFeet: EFBPicture.honestPressureAltitudeFeet(snapshot), now: snapshot.monotonic,
                  utc: snapshot.utc, airborne: snapshot.flight.isAirborne, configuration: snapshot.configuration.traffic)
    }

    /// `own`: the current fix with a valid position (nil: nothing is placed); `ownPressureAltitudeFeet`: the cabin
    /// barometer's pressure altitude when fresh and unpressurised.
    public init(relay: TrafficState, radio: RadioTrafficState, own: GPSFix?, ownPressureAltitudeFeet: Double?, now: MonotonicInstant,
                utc: UTCInstant?, airborne: Bool, configuration: TrafficConfiguration) {
        // Most ticks of most flights have no traffic at all.
        if relay.targets.isEmpty && radio.targets.isEmpty {
            targets = []
            return
        }
        var radioTargets: [PictureTarget] = []
        radioTargets.reserveCapacity(radio.targets.count)
        for target in radio.targets.values {
            guard var entry = Self.radioTarget(target, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet,
                                               geometricMinusPressureFeet: radio.geometricMinusPressure?.feet(at: now), now: now) else { continue }
            guard Self.stealthAllowsShowing(entry) else { continue }
            entry.proximate = airborne && !entry.isOnGround && entry.relative.map(configuration.isProximate) == true
            radioTargets.append(entry)
        }
        var list: [PictureTarget] = []
        list.reserveCapacity(relay.targets.count + radioTargets.count)
        for (id, target) in relay.targets {
            var entry = Self.relayTarget(id, target, own: own, now: now, utc: utc)
            entry.proximate = airborne && entry.relative.map(configuration.isProximate) == true
            if let relative = entry.relative, let index = radioTargets.firstIndex(where: { Self.sameAircraft(relay: entry, relative, radio: $0) }) {
                radioTargets[index].mergedCockpitdIdentifier = id
                radioTargets[index].sources.append("cockpitd")
                radioTargets[index].proximate = radioTargets[index].proximate || entry.proximate
                continue
            }
            list.append(entry)
        }
        list += radioTargets
        targets = Self.nearestFirst(list)
    }

    /// The targets nearest first (unplaced ones last), then by `key`. The keys are compared without being written: a
    /// tick sorts every target (twice: the core's picture and the FLARM output's), and writing two keys cost ≈ 4,000
    /// instructions a comparison — ≈ 30 M a tick with 350 targets and no own fix, ≈ 70 % of the daemon's instructions.
    /// The sort keys are taken out first and the indices sorted: the same comparisons give the same order as sorting
    /// the targets, and each target is copied once, not at every step of the sort.
    static func nearestFirst(_ list: [PictureTarget]) -> [PictureTarget] {
        let distances = list.map { $0.relative?.distanceNauticalMiles ?? .infinity }
        let types = list.map(\.addressType), identifiers = list.map { $0.identifier & 0xFF_FFFF }
        let order = list.indices.sorted { i, j in
            if distances[i] != distances[j] { return distances[i] < distances[j] }
            return keyPrecedes(types[i], identifiers[i], types[j], identifiers[j])
        }
        return order.map { list[$0] }
    }

    /// Whether the key of (`typeA`, `identifierA`) sorts before that of B. The key is the address type, a space and
    /// the identifier's six uppercase hex digits, so between two of the same type the digits decide, in the order of
    /// the 24-bit numbers; between two types neither of which begins the other, the types decide.
    static func keyPrecedes(_ typeA: String, _ identifierA: UInt32, _ typeB: String, _ identifierB: UInt32) -> Bool {
        if typeA == typeB { return identifierA < identifierB }
        if typeA.hasPrefix(typeB) || typeB.hasPrefix(typeA) {
            return typeA + " " + TrafficIdentifier.text(identifierA) < typeB + " " + TrafficIdentifier.text(identifierB)
        }
        return typeA < typeB
    }

    /// A relay target (random per-flight identifier) is the radio target it flies with: positions within
    /// `sameAircraftMeters`, heights against ours within `sameAircraftFeet` (both known: an unknown height agrees
    /// with nothing), and tracks within `sameAircraftTrackDegrees` when both move.
    static func sameAircraft(relay: PictureTarget, _ relayRelative: RelativeTraffic, radio: PictureTarget) -> Bool {
        guard let radioRelative = radio.relative, radio.mergedCockpitdIdentifier == nil,
              let relayHeight = relayRelative.relativeAltitudeFeet, let radioHeight = radioRelative.relativeAltitudeFeet,
              abs(relayHeight - radioHeight) <= sameAircraftFeet else { return false }
        let apart = GreatCircle.distanceMeters(latitude1: relayRelative.latitudeDegrees, longitude1: relayRelative.longitudeDegrees,
                                               latitude2: radioRelative.latitudeDegrees, longitude2: radioRelative.longitudeDegrees)
        guard apart <= sameAircraftMeters else { return false }
        let moving = { (speed: Double?) in (speed ?? 0) >= sameAircraftMovingKnots }
        if moving(relay.groundSpeedKnots) || moving(radio.groundSpeedKnots) {
            guard moving(relay.groundSpeedKnots), moving(radio.groundSpeedKnots),
                  let a = relay.trackTrueDegrees, let b = radio.trackTrueDegrees else { return false }
            let difference = abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180)
            return difference <= sameAircraftTrackDegrees
        }
        return true
    }

    static func relayTarget(_ id: UInt32, _ target: TrafficTarget, own: GPSFix?, now: MonotonicInstant, utc: UTCInstant?) -> PictureTarget {
        let report = target.report
        let relative = own.flatMap { TrafficGeometry.relative(target: target, own: $0, now: now, ourUTC: utc) }
        return PictureTarget(
            origin: .relay(id), identifier: id, addressType: "cockpitd", sources: ["cockpitd"], relative: relative,
            heardLatitudeDegrees: report.latitudeDegrees, heardLongitudeDegrees: report.longitudeDegrees,
            positionAgeSeconds: relative?.ageSeconds ?? now.seconds(since: target.receivedAt), altitudeMSLFeet: report.altitudeFeet,
            groundSpeedKnots: report.groundSpeedKnots, trackTrueDegrees: report.trackTrueDegrees,
            verticalRateFeetPerMinute: report.verticalSpeedFeetPerMinute, airborne: report.flags.contains(.airborne),
            emergency: report.flags.contains(.emergency), relayTarget: target)
    }

    /// Nil for a target without a position (an ADS-B aircraft heard only with its altitude): the radio section lists it.
    static func radioTarget(_ target: RadioTarget, own: GPSFix?, ownPressureAltitudeFeet: Double?, geometricMinusPressureFeet: Double?,
                            now: MonotonicInstant) -> PictureTarget? {
        guard let position = target.position else { return nil }
        let relative = own.flatMap {
            RadioGeometry.relativeTraffic(target, now: now, own: $0, ownPressureAltitudeFeet: ownPressureAltitudeFeet,
                                          geometricMinusPressureFeet: geometricMinusPressureFeet)
        }
        let alarm = target.alarmLevel.flatMap { now.seconds(since: $0.at) <= deviceAlarmFreshSeconds ? $0.value : nil }
        return PictureTarget(
            origin: .radio(target.address), identifier: target.address.value, addressType: target.address.type.rawValue,
            sources: target.sources.map(\.rawValue), callsign: target.callsign?.value, squawk: target.squawk?.value,
            emitterCategory: target.emitterCategory?.value, relative: relative,
            heardLatitudeDegrees: position.value.latitudeDegrees, heardLongitudeDegrees: position.value.longitudeDegrees,
            positionAgeSeconds: max(0, now.seconds(since: position.at)), altitudeMSLFeet: target.gnssAltitudeMSLFeet?.value,
            pressureAltitudeFeet: target.pressureAltitudeFeet?.value, geometricAltitudeHAEFeet: target.geometricAltitudeHAEFeet?.value,
            groundSpeedKnots: target.groundSpeedKnots?.value, trackTrueDegrees: target.trackTrueDegrees?.value,
            verticalRateFeetPerMinute: target.verticalRateFeetPerMinute?.value, airborne: target.onGround.map { !$0.value },
            emergency: target.squawk.map { ["7500", "7600", "7700"].contains($0.value) } ?? false
                || (1...6).contains(target.emergencyPriority?.value ?? 0),
            deviceAlarmLevel: alarm, noTrack: target.noTrack, stealth: target.stealth,
            addressQualifier: target.addressQualifier?.value, navigationIntegrityCategory: target.navigationIntegrityCategory?.value,
            emergencyPriority: target.emergencyPriority?.value)
    }
}
