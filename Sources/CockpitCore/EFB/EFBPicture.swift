import RealModule

/// What the EFB outputs (GDL 90 and FLARM NMEA) send, derived once from a snapshot: the ownship with its honest
/// pressure altitude, and every traffic target placed relative to it. Pure.
public struct EFBPicture: Sendable {
    public struct Target: Sendable {
        public var identifier: UInt32
        public var target: PictureTarget
        /// Dead-reckoned to the snapshot's instant; nil without an own position.
        public var relative: RelativeTraffic?
        /// Within the traffic capability's proximity limits (the status's `proximity`), in flight.
        public var proximate: Bool
        /// Metres north and east of the ownship as FLARM's relative positions measure them (`RadioGeometry.offset`),
        /// nil without an own position.
        public var northMeters: Double?
        public var eastMeters: Double?
        /// The level of the one threat assessment (`TrafficThreat`, the callouts' too), in flight and for a target
        /// not on the ground; 0 otherwise.
        public var threatLevel = 0
    }

    public var utc: UTCInstant?
    /// The current fix when it has a valid position (fresh, 2D/3D); nil otherwise.
    public var fix: GPSFix?
    /// Pressure altitude (1013.25 hPa) from the cabin barometer — only when its reading is fresh and the cabin is not
    /// inferred pressurised. Never GPS altitude under another name.
    public var pressureAltitudeFeet: Double?
    public var airborne: Bool
    /// The highest alarm level first, then targets within the proximity limits, then by distance: the first is the
    /// one `$PFLAU` reports (the most dangerous, not the nearest: sorted by distance, a wingman 300 m abeam would hide
    /// a head-on aircraft's level-2 alarm until it reached level 3). GDL 90 sends the list in this
    /// order. Every source's targets (`TrafficPicture`): relay, ADS-B, FLARM, OGN.
    public var targets: [Target]
    /// UAT uplinks heard in the last second (GDL 90's heartbeat uplink count).
    public var uplinksLastSecond = 0

    public init(_ snapshot: StatusSnapshot) {
        self.init(snapshot, picture: TrafficPicture(snapshot))
    }

    public init(_ snapshot: StatusSnapshot, picture: TrafficPicture) {
        utc = snapshot.utc
        uplinksLastSecond = snapshot.weather.uplinksLastSecond
        let current = snapshot.currentFix
        fix = current?.hasValidPosition == true ? current : nil
        pressureAltitudeFeet = Self.honestPressureAltitudeFeet(snapshot)
        airborne = snapshot.flight.isAirborne
        var list: [Target] = []
        list.reserveCapacity(picture.targets.count)
        for target in picture.targets {
            var entry = Target(identifier: target.identifier, target: target, relative: target.relative, proximate: target.proximate)
            if airborne, !target.isOnGround { entry.threatLevel = snapshot.callouts.threats[target.key]?.level.rawValue ?? 0 }
            if let relative = target.relative, let fix = current, let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees {
                let offset = RadioGeometry.northEastMeters(fromLatitude: latitude, longitude: longitude,
                                                           toLatitude: relative.latitudeDegrees, longitude: relative.longitudeDegrees)
                entry.northMeters = offset.north
                entry.eastMeters = offset.east
            }
            list.append(entry)
        }
        list.sort {
            let level0 = Self.alarmLevel($0), level1 = Self.alarmLevel($1)
            if level0 != level1 { return level0 > level1 }
            if $0.proximate != $1.proximate { return $0.proximate }
            let d0 = $0.relative?.distanceNauticalMiles ?? .infinity, d1 = $1.relative?.distanceNauticalMiles ?? .infinity
            return d0 != d1 ? d0 < d1 : $0.target.key < $1.target.key
        }
        targets = list
    }

    /// The rule both outputs share (docs/efb.md): fresh cabin barometer, cabin not inferred pressurised.
    public static func honestPressureAltitudeFeet(_ snapshot: StatusSnapshot) -> Double? {
        guard snapshot.baroValidity == .valid, !snapshot.baro.pressurisedCabinInferred else { return nil }
        return snapshot.cabinAltitudeFeet
    }

    /// A target's pressure altitude: its own (ADS-B's barometric altitude), else ours plus the height difference
    /// worked out on another datum (a relay report's GPS MSL, FLARM's relative vertical). Nil when neither is known —
    /// never a GPS altitude as pressure altitude.
    public func targetPressureAltitudeFeet(_ target: Target) -> Double? {
        if let theirs = target.target.pressureAltitudeFeet { return theirs }
        guard let own = pressureAltitudeFeet, let difference = target.relative?.relativeAltitudeFeet else { return nil }
        return own + difference
    }

    /// Alarm level 0–3: the higher of the FLARM device's own level for the target (never downgraded) and the
    /// threat assessment's (`TrafficThreat`: FLARM's bands, 3 = 0–10 s, 2 = 10–15 s, 1 = 15–20 s to closest approach
    /// inside the protected volume).
    public static func alarmLevel(_ target: Target) -> Int {
        max(target.target.deviceAlarmLevel.map { max(0, min(3, $0)) } ?? 0, target.threatLevel)
    }
}
