/// Settings of the radio-traffic picture the core needs.
public struct RadioTrafficConfiguration: Sendable, Equatable {
    /// The sources this run reads (configured, or found in the recording being replayed).
    public var sources: Set<RadioSourceKind> = []
    /// The own aircraft's addresses (ICAO or FLARM ID, 24 bits): a pilot may fly several aircraft. A target with one
    /// of them is the ownship, whatever kind of address its source says it is.
    public var ownshipAddresses: Set<UInt32> = []
    /// At most this many targets; a new one beyond it replaces the one heard longest ago (counted).
    public var maximumTargets = 500
    public init() {}
}

/// One aircraft of the radio picture: the latest value of each quantity with the time it was heard.
public struct RadioTarget: Sendable, Equatable {
    public struct Timed<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var at: MonotonicInstant
        public var source: RadioSourceKind
    }
    public struct Position: Sendable, Equatable {
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        /// Placed from a FLARM relative position and the own fix it was relative to.
        public var fromRelative: Bool
    }

    public let address: RadioAddress
    public var firstHeardAt: MonotonicInstant
    /// The last message of each source that heard it.
    public var heardAt: [RadioSourceKind: MonotonicInstant] = [:]
    public var position: Timed<Position>?
    public var pressureAltitudeFeet: Timed<Double>?
    public var geometricAltitudeHAEFeet: Timed<Double>?
    public var gnssAltitudeMSLFeet: Timed<Double>?
    public var relativeVerticalMeters: Timed<Double>?
    public var groundSpeedKnots: Timed<Double>?
    public var trackTrueDegrees: Timed<Double>?
    public var verticalRateFeetPerMinute: Timed<Double>?
    public var callsign: Timed<String>?
    public var squawk: Timed<String>?
    public var onGround: Timed<Bool>?
    public var alarmLevel: Timed<Int>?
    public var emitterCategory: Timed<UInt8>?
    /// The latest UAT address qualifier heard for it (its own ADS-B, or a ground station's TIS-B or ADS-R).
    public var addressQualifier: Timed<RadioAddressQualifier>?
    public var navigationIntegrityCategory: Timed<UInt8>?
    public var emergencyPriority: Timed<UInt8>?
    public var noTrack = false
    public var stealth = false
    /// Since when it has stayed where the own aircraft is (ownship learning), and where it was from us then; nil
    /// when it has not.
    var coLocatedSince: MonotonicInstant?
    var coLocatedOffset: Offset?

    struct Offset: Sendable, Equatable {
        var north: Double
        var east: Double
    }

    init(address: RadioAddress, at: MonotonicInstant) {
        self.address = address
        firstHeardAt = at
    }

    public var lastHeardAt: MonotonicInstant { heardAt.values.max() ?? firstHeardAt }
    /// Its sources, in name order.
    public var sources: [RadioSourceKind] { heardAt.keys.sorted() }
}

/// Geometric minus barometric altitude as one ADS-B aircraft reported them, and when.
public struct GeometricPressureDifference: Sendable, Equatable {
    /// Both altitudes heard this close together make a pair.
    public static let pairedWithinSeconds = 5.0
    /// Used for this long: the offset changes with the weather and the place, slowly.
    public static let usableForSeconds = 120.0
    public var feet: Double
    public var at: MonotonicInstant
    public var address: RadioAddress

    public func feet(at now: MonotonicInstant) -> Double? { now.seconds(since: at) <= Self.usableForSeconds ? feet : nil }
}

/// Why a target is the own aircraft.
public enum OwnshipReason: String, Sendable, Equatable {
    /// Its address is one of `ownship-address`.
    case configured
    /// It stayed where the own aircraft is while moving (`RadioTrafficState.ownshipLearning`).
    case learned
}

/// A UAT ground station's uplinks heard, and when the last was.
public struct GroundStationHeard: Sendable, Equatable {
    public var uplinks = 0
    public var lastHeardAt: MonotonicInstant
}

/// The radio sources' state, the targets they hear, and the own aircraft among them (kept apart, never a target).
public struct RadioTrafficState: Sendable, Equatable {
    public struct SourceStatus: Sendable, Equatable {
        public var connected = false
        public var endpoint: String?
        public var lastDisconnectReason: String?
        public var connections = 0
        /// Every line the decoder was handed lands in exactly one of these.
        public var observations = 0
        public var other = 0
        public var rejected: [String: Int] = [:]
        /// UAT uplinks (a ground station's frames), each handed on whole.
        public var uplinks = 0
        /// The UAT ground stations heard: their uplinks and when last heard, at most `groundStationLimit` (a
        /// station not heard for longest gives way to a new one).
        public var groundStations: [UATGroundStation: GroundStationHeard] = [:]
        public static let groundStationLimit = 64
        /// Lines used with a part left out that could not be read (a FLARM name), by reason; each is also one of
        /// `observations`.
        public var leftOut: [String: Int] = [:]
        public var lastLineAt: MonotonicInstant?
        public var connectedAt: MonotonicInstant?
        /// The device's last heartbeat and its last self-test result (FLARM), as it said them.
        public var heartbeat: RadioDeviceReport?
        public var selfTest: RadioDeviceReport?
        public var lines: Int { observations + other + uplinks + rejected.values.reduce(0, +) }
        /// Lines a second over the last whole `rateWindowSeconds` (nil until one has passed while connected).
        public var linesPerSecond: Double?
        var rateWindowStart: RateWindowStart?

        struct RateWindowStart: Sendable, Equatable {
            var at: MonotonicInstant
            var lines: Int
        }

        mutating func heard(_ station: UATGroundStation, at: MonotonicInstant) {
            if groundStations[station] == nil, groundStations.count >= Self.groundStationLimit,
               let stalest = groundStations.min(by: { $0.value.lastHeardAt < $1.value.lastHeardAt })?.key {
                groundStations[stalest] = nil
            }
            groundStations[station, default: GroundStationHeard(lastHeardAt: at)].uplinks += 1
            groundStations[station]?.lastHeardAt = at
        }

        /// The window `linesPerSecond` is measured over.
        public static let rateWindowSeconds = 10.0

        mutating func measureRate(at: MonotonicInstant) {
            guard connected, let start = rateWindowStart else {
                rateWindowStart = connected ? RateWindowStart(at: at, lines: lines) : nil
                if !connected { linesPerSecond = nil }
                return
            }
            let seconds = at.seconds(since: start.at)
            guard seconds >= Self.rateWindowSeconds else { return }
            linesPerSecond = Double(lines - start.lines) / seconds
            rateWindowStart = RateWindowStart(at: at, lines: lines)
        }

        mutating func countObservation(at: MonotonicInstant) {
            observations += 1
            lastLineAt = at
        }
    }

    public private(set) var targets: [RadioAddress: RadioTarget] = [:]
    public private(set) var sources: [RadioSourceKind: SourceStatus] = [:]
    /// The own aircraft's addresses seen on the radio, and why each is ours.
    public private(set) var ownship: [RadioAddress: OwnshipReason] = [:]
    /// Messages about the own aircraft (used for nothing but this count).
    public private(set) var ownshipMessages = 0
    /// Targets dropped to make room for a new one (`maximumTargets`).
    public private(set) var droppedForSpace = 0
    /// Targets dropped because no source heard them within its `staleAfterSeconds`.
    public private(set) var agedOut = 0
    /// The latest geometric (WGS-84 ellipsoid) minus barometric (pressure) altitude an ADS-B aircraft reported with
    /// both within `GeometricPressureDifference.pairedWithinSeconds`: the local offset between the two datums
    /// (the weather's and the geoid's), which places another aircraft's pressure altitude on the own GPS's datum.
    public private(set) var geometricMinusPressure: GeometricPressureDifference?
    /// Connected sources that have sent nothing for their `silentAfterSeconds`.
    public private(set) var silent: Set<RadioSourceKind> = []

    public init() {}

    /// Co-location that makes a target the own aircraft: horizontally within the fix's error plus how far the own
    /// aircraft moves in `latencySeconds` (the receiver's and the decoder's delay) plus `marginMeters`, vertically
    /// within `verticalFeet`, continuously for `seconds`, while the own aircraft moves at `minimumSpeedKnots` or more
    /// (parked next to another aircraft, both would be co-located) — and staying put relative to us: the own
    /// transponder's report lags by a steady distance along the track, where another aircraft close by moves about
    /// us (two gliders in one thermal close to 15 m and part again). A target whose offset from us moves by more than
    /// the fix's error plus `marginMeters` starts the count again.
    public enum OwnshipLearning {
        public static let latencySeconds = 2.0
        public static let marginMeters = 30.0
        public static let verticalFeet = 300.0
        public static let seconds = 10.0
        public static let minimumSpeedKnots = 30.0
    }

    /// `own`: the current fix; `ownPressureAltitudeFeet`: the cabin barometer's pressure altitude when fresh and the
    /// cabin is not pressurised (the only own altitude on ADS-B's barometric datum).
    public mutating func apply(_ event: RadioInputEvent, at: MonotonicInstant, own: GPSFix?, ownPressureAltitudeFeet: Double?,
                               configuration: RadioTrafficConfiguration) {
        switch event {
        case .connected(let source, let endpoint):
            sources[source, default: SourceStatus()].connected = true
            sources[source, default: SourceStatus()].endpoint = endpoint
            sources[source, default: SourceStatus()].connections += 1
            sources[source, default: SourceStatus()].connectedAt = at
        case .disconnected(let source, let reason):
            sources[source, default: SourceStatus()].connected = false
            sources[source, default: SourceStatus()].lastDisconnectReason = reason
        case .rejected(let source, let reason):
            sources[source, default: SourceStatus()].rejected[reason, default: 0] += 1
            sources[source, default: SourceStatus()].lastLineAt = at
        case .other(let source):
            sources[source, default: SourceStatus()].other += 1
            sources[source, default: SourceStatus()].lastLineAt = at
        case .device(let source, let report):
            sources[source, default: SourceStatus()].other += 1
            sources[source, default: SourceStatus()].lastLineAt = at
            if report.errorSeverity != nil {
                sources[source, default: SourceStatus()].selfTest = report
            } else {
                sources[source, default: SourceStatus()].heartbeat = report
            }
        case .uplink(let source, let uplink):
            sources[source, default: SourceStatus()].uplinks += 1
            sources[source, default: SourceStatus()].lastLineAt = at
            if let station = uplink.groundStation { sources[source, default: SourceStatus()].heard(station, at: at) }
        case .observation(let observation):
            if let reason = Self.outOfRange(observation, own: own) {
                sources[observation.source, default: SourceStatus()].rejected[reason, default: 0] += 1
                sources[observation.source, default: SourceStatus()].lastLineAt = at
                return
            }
            sources[observation.source, default: SourceStatus()].countObservation(at: at)
            for reason in observation.leftOut { sources[observation.source, default: SourceStatus()].leftOut[reason, default: 0] += 1 }
            merge(observation, at: at, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet, configuration: configuration)
        }
    }

    /// The refusal of a position its receiver cannot have heard (`RadioSourceKind.maximumRangeNauticalMiles` from the
    /// own fix); nil when it is within range, or there is no limit or no own position to measure from.
    public static func outOfRange(_ observation: RadioObservation, own: GPSFix?) -> String? {
        guard let limit = observation.source.maximumRangeNauticalMiles, let latitude = observation.latitudeDegrees,
              let longitude = observation.longitudeDegrees, let own, own.hasValidPosition,
              let ownLatitude = own.latitudeDegrees, let ownLongitude = own.longitudeDegrees else { return nil }
        let meters = GreatCircle.distanceMeters(latitude1: ownLatitude, longitude1: ownLongitude, latitude2: latitude, longitude2: longitude)
        return meters > limit * UnitConversions.metersPerNauticalMile ? "position beyond radio range" : nil
    }

    private mutating func merge(_ observation: RadioObservation, at: MonotonicInstant, own: GPSFix?, ownPressureAltitudeFeet: Double?,
                                configuration: RadioTrafficConfiguration) {
        let address = observation.address
        if configuration.ownshipAddresses.contains(address.value) {
            ownship[address] = .configured
        }
        if ownship[address] != nil {
            ownshipMessages += 1
            targets[address] = nil
            return
        }
        guard observation.saysAnything else { return }
        var index = targets.index(forKey: address)
        if index == nil {
            if targets.count >= configuration.maximumTargets, let oldest = targets.values.min(by: { $0.lastHeardAt < $1.lastHeardAt }) {
                targets[oldest.address] = nil
                droppedForSpace += 1
            }
            targets[address] = RadioTarget(address: address, at: at)
            index = targets.index(forKey: address)
        }
        guard let index else { return }
        // The target is changed in place through its index: one hash lookup a message, no copy of the target (a
        // lookup per step and a copy to read it back cost ≈ 5,000 instructions per ADS-B line).
        let merged = targets.values[index].merge(observation, at: at, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet)
        if let feet = merged.geometricMinusPressureFeet {
            geometricMinusPressure = GeometricPressureDifference(feet: feet, at: at, address: address)
        }
        if merged.isOwnship {
            ownship[address] = .learned
            targets[address] = nil
        }
    }

    /// Drops every target no source has heard within that source's `staleAfterSeconds`, and says when a connected
    /// source falls silent or speaks again.
    public mutating func tick(at: MonotonicInstant, effects: inout [Effect]) {
        for source in sources.keys { sources[source]?.measureRate(at: at) }
        for (source, status) in sources {
            let lastHeard = [status.lastLineAt, status.connectedAt].compactMap { $0 }.max()
            let quiet = status.connected && lastHeard.map { at.seconds(since: $0) >= source.silentAfterSeconds } == true
            if quiet && !silent.contains(source) {
                silent.insert(source)
                effects.append(.log(LogLine(.warning, "\(source.rawValue): connected, but nothing received for \(Int(source.silentAfterSeconds)) s")))
            } else if !quiet && silent.contains(source) {
                silent.remove(source)
                if status.connected { effects.append(.log(LogLine(.notice, "\(source.rawValue): receiving again"))) }
            }
        }
        let before = targets.count
        targets = targets.filter { _, target in
            target.heardAt.contains { source, heard in at.seconds(since: heard) <= source.staleAfterSeconds }
        }
        agedOut += before - targets.count
    }
}

extension RadioTarget {
    /// Takes the observation's values, then answers the geometric minus pressure altitude when the target now has
    /// both heard within `GeometricPressureDifference.pairedWithinSeconds`, and whether it has now stayed co-located
    /// with the own fix for `RadioTrafficState.OwnshipLearning.seconds` (the own transponder).
    mutating func merge(_ o: RadioObservation, at: MonotonicInstant, own: GPSFix?, ownPressureAltitudeFeet: Double?)
        -> (geometricMinusPressureFeet: Double?, isOwnship: Bool) {
        absorb(o, at: at, own: own)
        var pairFeet: Double?
        if let geometric = geometricAltitudeHAEFeet, let pressure = pressureAltitudeFeet,
           abs(geometric.at.seconds(since: pressure.at)) <= GeometricPressureDifference.pairedWithinSeconds {
            pairFeet = geometric.value - pressure.value
        }
        return (pairFeet, staysCoLocated(at: at, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet))
    }

    /// Updates the co-location with the own fix; true once it has lasted `OwnshipLearning.seconds`.
    private mutating func staysCoLocated(at: MonotonicInstant, own: GPSFix?, ownPressureAltitudeFeet: Double?) -> Bool {
        typealias Rule = RadioTrafficState.OwnshipLearning
        guard let offset = RadioGeometry.coLocatedOffset(self, at: at, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet) else {
            coLocatedSince = nil
            coLocatedOffset = nil
            return false
        }
        let steadyMeters = (own?.horizontalErrorMeters ?? 10) + Rule.marginMeters
        if let since = coLocatedSince, let first = coLocatedOffset,
           ((offset.north - first.north) * (offset.north - first.north) + (offset.east - first.east) * (offset.east - first.east)).squareRoot()
            <= steadyMeters {
            return at.seconds(since: since) >= Rule.seconds
        }
        coLocatedSince = at
        coLocatedOffset = Offset(north: offset.north, east: offset.east)
        return false
    }

    mutating func absorb(_ o: RadioObservation, at arrived: MonotonicInstant, own: GPSFix?) {
        let s = o.source
        // Values heard before they arrived (a polled file) keep the time they were heard; a stream's arrive as heard.
        let at = o.heardSecondsAgo > 0 ? arrived.adding(seconds: -o.heardSecondsAgo) : arrived
        if heardAt[s].map({ $0 < at }) ?? true { heardAt[s] = at }
        if let latitude = o.latitudeDegrees, let longitude = o.longitudeDegrees {
            let positionAt = o.positionHeardSecondsAgo.map { arrived.adding(seconds: -$0) } ?? at
            if position.map({ $0.at <= positionAt }) ?? true {
                position = Timed(value: Position(latitudeDegrees: latitude, longitudeDegrees: longitude, fromRelative: false),
                                 at: positionAt, source: s)
            }
        } else if let north = o.relativeNorthMeters, let east = o.relativeEastMeters, let own, own.hasValidPosition,
                  let latitude = own.latitudeDegrees, let longitude = own.longitudeDegrees {
            let placed = RadioGeometry.offset(latitudeDegrees: latitude, longitudeDegrees: longitude, northMeters: north, eastMeters: east)
            position = Timed(value: Position(latitudeDegrees: placed.latitude, longitudeDegrees: placed.longitude, fromRelative: true),
                             at: at, source: s)
        }
        func set<V>(_ field: inout Timed<V>?, _ value: V?) {
            if let value, field.map({ $0.at <= at }) ?? true { field = Timed(value: value, at: at, source: s) }
        }
        set(&pressureAltitudeFeet, o.pressureAltitudeFeet)
        set(&geometricAltitudeHAEFeet, o.geometricAltitudeHAEFeet)
        set(&gnssAltitudeMSLFeet, o.gnssAltitudeMSLFeet)
        set(&relativeVerticalMeters, o.relativeVerticalMeters)
        set(&groundSpeedKnots, o.groundSpeedKnots)
        set(&trackTrueDegrees, o.trackTrueDegrees)
        set(&verticalRateFeetPerMinute, o.verticalRateFeetPerMinute)
        set(&callsign, o.callsign)
        set(&squawk, o.squawk)
        set(&onGround, o.onGround)
        set(&alarmLevel, o.alarmLevel)
        set(&emitterCategory, o.emitterCategory)
        set(&addressQualifier, o.addressQualifier)
        set(&navigationIntegrityCategory, o.navigationIntegrityCategory)
        set(&emergencyPriority, o.emergencyPriority)
        noTrack = noTrack || o.noTrack
        stealth = o.stealth
    }
}
