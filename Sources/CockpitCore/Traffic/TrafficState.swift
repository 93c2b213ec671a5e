import RealModule

public struct TrafficConfiguration: Sendable, Equatable {
    /// Own reports while airborne, every this many seconds (0.2…5).
    public var intervalSeconds = 1.0
    /// Broadcast at all (a destination is configured).
    public var sendingEnabled = false
    /// On the ground, ask a relay for traffic with a coarse (0.1°) position and a one-time identifier every 10 s.
    public var groundQuery = false
    /// The shell listens for reports and relay replies.
    public var listening = false
    /// Datagrams carry an 8-byte HMAC-SHA-256 tag (a device key is configured).
    public var tagged = false
    /// Seed for the random identifiers (the shell draws it from /dev/urandom; replays fix it for determinism).
    public var identifierSeed: UInt64 = 0x5EED
    public var proximityNauticalMiles = 2.0
    public var proximityFeet = 500.0
    public var ageOutSeconds = 60.0
    /// Reports whose time differs from GPS UTC by more than this are stale (or replayed).
    public var freshnessSeconds = 30.0
    public init() {}

    /// Inside the proximity limits (docs/alerts.md): within `proximityNauticalMiles` and, when both altitudes are
    /// known, within `proximityFeet`. The one rule the alert board, the log line, the status and the EFB outputs share;
    /// each of them applies it in flight only (parked next to each other is no traffic alert).
    public func isProximate(_ relative: RelativeTraffic) -> Bool {
        relative.distanceNauticalMiles <= proximityNauticalMiles
            && (relative.relativeAltitudeFeet.map { abs($0) <= proximityFeet } ?? true)
    }

    /// Far enough out to alert again: beyond 1.5 times either limit.
    func isBeyondRearm(_ relative: RelativeTraffic) -> Bool {
        relative.distanceNauticalMiles > proximityNauticalMiles * 1.5
            || (relative.relativeAltitudeFeet.map { abs($0) > proximityFeet * 1.5 } ?? false)
    }
}

/// One aircraft heard on the traffic port.
public struct TrafficTarget: Sendable, Equatable {
    public var report: TrafficPacket.Report
    public var receivedAt: MonotonicInstant
    public var viaRelay: Bool
    /// False while the report came before we had GPS time to check it against (checked at the first tick with it).
    public var timeVerified = true
}

/// Own traffic reports and the table of others.
public struct TrafficState: Sendable, Equatable {
    public private(set) var targets: [UInt32: TrafficTarget] = [:]
    public private(set) var datagramsSent = 0
    public private(set) var groundQueriesSent = 0
    /// Every datagram received, by outcome; aircraft entries of replies separately.
    public private(set) var ledger = TrafficReceiveLedger()
    public private(set) var currentIdentifier: UInt32?
    private var ownIdentifiers: Set<UInt32> = []
    private var sequence: UInt16 = 0
    private var lastSentAt: MonotonicInstant?
    private var lastQueryAt: MonotonicInstant?
    private var randomState: UInt64 = 0
    private var seeded = false
    private var wasAirborne = false

    public init() {}

    /// SplitMix64: identifiers that neither repeat in practice nor reveal anything about the device.
    private mutating func random24(seed: UInt64) -> UInt32 {
        if !seeded { randomState = seed; seeded = true }
        var id: UInt32 = 0
        repeat {
            randomState &+= 0x9E37_79B9_7F4A_7C15
            var z = randomState
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            id = UInt32(truncatingIfNeeded: z) & 0xFF_FFFF
        } while id == 0 || ownIdentifiers.contains(id)
        ownIdentifiers.insert(id)
        return id
    }

    mutating func rejectedDatagram(_ reason: String) { ledger.refuse(reason) }

    /// After each GPS fix: send our report when airborne and due; on the ground send nothing (or a coarse query).
    mutating func afterFix(at now: MonotonicInstant, fix: GPSFix, airborne: Bool, configuration: TrafficConfiguration,
                           effects: inout [Effect]) {
        guard configuration.sendingEnabled, let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees,
              let utc = fix.utc else { return }
        if airborne {
            if !wasAirborne || currentIdentifier == nil {
                currentIdentifier = random24(seed: configuration.identifierSeed)   // a new flight, a new identity
                sequence = 0
            }
            wasAirborne = true
            let interval = max(0.2, min(5, configuration.intervalSeconds))
            if let last = lastSentAt, now.seconds(since: last) < interval - 0.01 { return }
            lastSentAt = now
            sequence &+= 1
            var flags: TrafficPacket.Flags = [.airborne, .denseRepliesWelcome]
            if configuration.tagged { flags.insert(.tagged) }
            let report = TrafficPacket.Report(flags: flags, identifier: currentIdentifier!, sequence: sequence, utc: utc,
                                              latitudeDegrees: latitude, longitudeDegrees: longitude,
                                              altitudeFeet: fix.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:)),
                                              groundSpeedKnots: fix.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:)),
                                              trackTrueDegrees: fix.trackTrueDegrees,
                                              verticalSpeedFeetPerMinute: fix.climbMetersPerSecond.map(UnitConversions.feetPerMinute(fromMetersPerSecond:)))
            datagramsSent += 1
            effects.append(.sendDatagram(TrafficPacket.encode(report)))
            return
        }
        // On the ground: the flight identifier is retired; never a fine position, never that identifier.
        wasAirborne = false
        currentIdentifier = nil
        guard configuration.groundQuery else { return }
        if let last = lastQueryAt, now.seconds(since: last) < 10 { return }
        lastQueryAt = now
        var flags: TrafficPacket.Flags = [.denseRepliesWelcome]
        if configuration.tagged { flags.insert(.tagged) }
        let coarse = { (degrees: Double) in (degrees * 10).rounded() / 10 }
        let query = TrafficPacket.Report(type: .groundQuery, flags: flags, identifier: random24(seed: configuration.identifierSeed),
                                         sequence: 0, utc: UTCInstant(secondsSinceEpoch: utc.secondsSinceEpoch.rounded(.down)),
                                         latitudeDegrees: coarse(latitude), longitudeDegrees: coarse(longitude), altitudeFeet: nil,
                                         groundSpeedKnots: nil, trackTrueDegrees: nil, verticalSpeedFeetPerMinute: nil)
        groundQueriesSent += 1
        datagramsSent += 1
        effects.append(.sendDatagram(TrafficPacket.encode(query)))
    }

    /// A checked and decoded report heard directly (docs/traffic-packet.md, "Receiving").
    mutating func receive(_ report: TrafficPacket.Report, at now: MonotonicInstant, ourUTC: UTCInstant?,
                          configuration: TrafficConfiguration) {
        guard !ownIdentifiers.contains(report.identifier) else { ledger.refuse(TrafficPacket.Rejection.own.rawValue); return }
        // Someone's ground query (a relay's business) is no aircraft in the air: counted, never a target.
        guard report.type == .report else { ledger.refuse("ground-query"); return }
        if let reason = ledger.freshness(of: report.utc, ourUTC: ourUTC, at: now, window: configuration.freshnessSeconds)
            ?? ledger.admitDirect(report, at: now) {
            ledger.refuse(reason)
            return
        }
        ledger.accept("report")
        _ = update(with: report, at: now, viaRelay: false, timeVerified: ourUTC != nil)
    }

    /// A checked and decoded relay reply: refused whole when stale or a repeat, else each aircraft entry updates its
    /// target only when it is newer than what we hold (a reply repeated verbatim changes nothing).
    mutating func receive(_ reply: TrafficPacket.Reply, at now: MonotonicInstant, ourUTC: UTCInstant?,
                          configuration: TrafficConfiguration) {
        let window = configuration.freshnessSeconds
        if let reason = ledger.freshness(of: reply.utc, ourUTC: ourUTC, at: now, window: window) ?? ledger.admitReply(reply, at: now) {
            ledger.refuse(reason)
            return
        }
        ledger.accept("reply")
        if reply.aircraft.isEmpty { ledger.emptyReplies += 1 }
        for entry in reply.aircraft {
            if ownIdentifiers.contains(entry.identifier) {
                ledger.countEntry(TrafficPacket.Rejection.own.rawValue)
            } else if ledger.freshness(of: entry.utc, ourUTC: ourUTC, at: now, window: window) != nil {
                ledger.countEntry(TrafficPacket.Rejection.stale.rawValue)
            } else {
                ledger.countEntry(update(with: entry, at: now, viaRelay: true, timeVerified: ourUTC != nil) ? "applied" : "duplicate")
            }
        }
    }

    /// Replaces the target when this report is newer than the one held; false when it is not (changes nothing).
    private mutating func update(with report: TrafficPacket.Report, at now: MonotonicInstant, viaRelay: Bool, timeVerified: Bool) -> Bool {
        if let existing = targets[report.identifier], existing.report.utc >= report.utc { return false }
        var target = TrafficTarget(report: report, receivedAt: now, viaRelay: viaRelay)
        target.timeVerified = timeVerified
        targets[report.identifier] = target
        return true
    }

    /// Targets taken in without our GPS time are checked once we have it: a report that was stale when it came
    /// (its time more than the window from our time at its arrival) leaves the table and is counted.
    private mutating func verifyTimes(at now: MonotonicInstant, ourUTC: UTCInstant, window: Double) {
        for (id, target) in targets where !target.timeVerified {
            let ourUTCOnArrival = ourUTC.adding(seconds: -now.seconds(since: target.receivedAt))
            if abs(target.report.utc.seconds(since: ourUTCOnArrival)) > window {
                targets[id] = nil
                ledger.countUnverifiedDropped()
            } else {
                targets[id]?.timeVerified = true
            }
        }
    }

    /// Ages out silent targets and checks the times of those taken in before GPS time. Proximity is the picture's
    /// (`TrafficEncounters`): every source's targets alike.
    mutating func tick(at now: MonotonicInstant, ourUTC: UTCInstant?, configuration: TrafficConfiguration) {
        if !targets.isEmpty {   // most flights hear no other box: no table to filter every second
            targets = targets.filter { now.seconds(since: $0.value.receivedAt) <= configuration.ageOutSeconds }
            if targets.count > 2_000 { targets = targets.filter { now.seconds(since: $0.value.receivedAt) <= 10 } }
            if let ourUTC { verifyTimes(at: now, ourUTC: ourUTC, window: configuration.freshnessSeconds) }
        }
        ledger.forget(ourUTC: ourUTC, at: now, window: configuration.freshnessSeconds)
    }
}

extension TrafficState {
    /// "TRAFFIC 0ABCDE 1.5 nm, 330° relative, 300 ft": the log line and the recent alert. Distance to 0.1 nm (whole
    /// miles would read 0.8 nm as "0 nm"), bearing rounded (not truncated); `name`: `PictureTarget.logName`.
    static func proximityMessage(_ name: String, _ relative: RelativeTraffic) -> String {
        let tenths = Int((relative.distanceNauticalMiles * 10).rounded())
        let bearing = Int((relative.relativeBearingDegrees ?? relative.bearingTrueDegrees).rounded()) % 360
        // The measured difference (the callout rounds it to 100 ft), in the callout's words.
        let height = relative.relativeAltitudeFeet.map { feet -> String in
            let whole = Int(feet.rounded())
            return whole == 0 ? "same altitude" : "\(abs(whole)) ft \(whole > 0 ? "above" : "below")"
        } ?? "altitude unknown"
        return "TRAFFIC \(name) \(tenths / 10).\(tenths % 10) nm, \(bearing)°"
            + "\(relative.relativeBearingDegrees == nil ? "T" : " relative"), \(height)"
    }
}

/// How a traffic identifier is written everywhere (status, alerts, log, FLARM `$PFLAA`/`$PFLAU`): six hexadecimal
/// digits, leading zeros kept, so that 0x0ABCDE is the same "0ABCDE" on the radar, in the log and on the tablet.
public enum TrafficIdentifier {
    public static func text(_ value: UInt32) -> String {
        let text = String(value & 0xFF_FFFF, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }
}

/// Where another aircraft is relative to us, dead-reckoned to now.
public struct RelativeTraffic: Sendable, Equatable {
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    public var distanceNauticalMiles: Double
    public var bearingTrueDegrees: Double
    /// Bearing relative to our track (0 = ahead, 90 = right), nil when our track is unknown.
    public var relativeBearingDegrees: Double?
    /// Target altitude − ours (feet, MSL), nil when either is unknown.
    public var relativeAltitudeFeet: Double?
    /// Rate at which the distance shrinks (knots; negative = opening).
    public var closureKnots: Double?
    public var ageSeconds: Double
    public var deadReckoned: Bool
    /// The datum both heights were compared on (a relay report: GPS MSL against our GPS MSL).
    public var altitudeDatum: RadioRelative.AltitudeDatum? = nil
}

public enum TrafficGeometry {
    /// Great-circle destination from a start point, distance (m) and true course.
    static func destination(latitude: Double, longitude: Double, meters: Double, courseDegrees: Double) -> (Double, Double) {
        let r = GreatCircle.meanEarthRadiusMeters, d = meters / r, c = courseDegrees * .pi / 180
        let phi1 = latitude * .pi / 180, lambda1 = longitude * .pi / 180
        let phi2 = Double.asin(Double.sin(phi1) * Double.cos(d) + Double.cos(phi1) * Double.sin(d) * Double.cos(c))
        let lambda2 = lambda1 + Double.atan2(y: Double.sin(c) * Double.sin(d) * Double.cos(phi1), x: Double.cos(d) - Double.sin(phi1) * Double.sin(phi2))
        var lon = lambda2 * 180 / .pi
        lon = (lon + 540).truncatingRemainder(dividingBy: 360) - 180
        return (phi2 * 180 / .pi, lon)
    }

    public static func relative(target: TrafficTarget, own: GPSFix, now: MonotonicInstant, ourUTC: UTCInstant?) -> RelativeTraffic? {
        guard let ownLat = own.latitudeDegrees, let ownLon = own.longitudeDegrees else { return nil }
        let report = target.report
        // Age from GPS time when we have it (the report carries its own), else from when it arrived.
        let age = max(0, min(60, ourUTC.map { $0.seconds(since: report.utc) } ?? now.seconds(since: target.receivedAt)))
        var lat = report.latitudeDegrees, lon = report.longitudeDegrees
        var reckoned = false
        if let speed = report.groundSpeedKnots, let track = report.trackTrueDegrees, speed > 1, age > 0.05 {
            (lat, lon) = destination(latitude: lat, longitude: lon, meters: speed * UnitConversions.metersPerNauticalMile / 3600 * age,
                                     courseDegrees: track)
            reckoned = true
        }
        let distance = GreatCircle.distanceMeters(latitude1: ownLat, longitude1: ownLon, latitude2: lat, longitude2: lon)
        let bearing = GreatCircle.initialBearingDegrees(latitude1: ownLat, longitude1: ownLon, latitude2: lat, longitude2: lon)
        let bearingFromTrack = relativeBearing(bearing, ownTrack: own.trackTrueDegrees)
        let ownAltitude = own.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:))
        // Their altitude, dead-reckoned with their vertical speed like their position.
        let theirAltitude = report.altitudeFeet.map { $0 + (report.verticalSpeedFeetPerMinute ?? 0) * age / 60 }
        let relativeAltitude: Double? = if let ownAltitude, let theirAltitude { theirAltitude - ownAltitude } else { nil }
        let closure = closureKnots(own: own, bearingToTargetDegrees: bearing, theirSpeedKnots: report.groundSpeedKnots,
                                   theirTrackTrueDegrees: report.trackTrueDegrees)
        return RelativeTraffic(latitudeDegrees: lat, longitudeDegrees: lon, distanceNauticalMiles: distance / UnitConversions.metersPerNauticalMile,
                               bearingTrueDegrees: bearing, relativeBearingDegrees: bearingFromTrack, relativeAltitudeFeet: relativeAltitude,
                               closureKnots: closure, ageSeconds: age, deadReckoned: reckoned,
                               altitudeDatum: relativeAltitude == nil ? nil : .meanSeaLevel)
    }

    /// The rate the distance shrinks (knots; negative: opening): both velocities' components along the line of sight.
    /// A speed under 1 kt needs no track; nil when a moving aircraft's track or any speed is unknown.
    static func closureKnots(own: GPSFix, bearingToTargetDegrees: Double, theirSpeedKnots: Double?, theirTrackTrueDegrees: Double?) -> Double? {
        guard let ownSpeed = own.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:)),
              let ownTrack = own.trackTrueDegrees ?? (ownSpeed < 1 ? 0 : nil),
              let theirSpeed = theirSpeedKnots, let theirTrack = theirTrackTrueDegrees ?? (theirSpeed < 1 ? 0 : nil) else { return nil }
        let toTarget = bearingToTargetDegrees * .pi / 180
        return ownSpeed * Double.cos(ownTrack * .pi / 180 - toTarget) - theirSpeed * Double.cos(theirTrack * .pi / 180 - toTarget)
    }

    /// Bearing relative to the own track (0 = ahead, 90 = right), nil without a track.
    static func relativeBearing(_ bearingTrueDegrees: Double, ownTrack: Double?) -> Double? {
        ownTrack.map { ((bearingTrueDegrees - $0).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) }
    }
}
