public import CockpitCore
import CockpitIO
import CockpitWire

public struct RelayConfiguration: Sendable, Equatable {
    public var radiusNauticalMiles = 30.0
    public var altitudeWindowFeet = 10_000.0
    /// Aircraft not heard for this long leave the picture.
    public var expirySeconds = 30.0
    /// A report whose time is further than this behind the relay's UTC is stale.
    public var freshnessSeconds = 30.0
    /// A report may be dated at most this far ahead of the relay's UTC: delays make reports late, never early, and a
    /// report dated ahead holds back the aircraft's later ones in the picture until its own time has come.
    public var futureToleranceSeconds = 5.0
    /// Per source address and port (one aircraft behind NAT).
    public var sourceRatePerSecond = 10.0
    public var sourceBurst = 20.0
    /// Per address, all ports (carrier-grade NAT shares one address among many aircraft).
    public var addressRatePerSecond = 2_000.0
    public var addressBurst = 4_000.0
    /// Per identifier: reports come at most every 0.2 s.
    public var identifierRatePerSecond = 5.0
    public var identifierBurst = 10.0
    /// Key trials (HMACs) per source address for identifiers not bound yet: a datagram does not say which key made
    /// its tag, so a new identifier may cost one trial per key.
    public var keyTrialRatePerSecond = 2_000.0
    public var keyTrialBurst = 4_000.0
    /// Key trials for the whole relay (a flood from many forged addresses shares this one).
    public var totalKeyTrialRatePerSecond = 100_000.0
    public var totalKeyTrialBurst = 200_000.0
    /// An identifier stays bound to the key that first used it until it has been silent this long.
    public var identifierBindingSeconds = 3_600.0
    /// Identifiers bound to one key at once (a group key serves many aircraft); the key's newest replaces its oldest.
    public var identifiersPerKey = 100_000
    /// Aircraft one source address holds in the picture; its newest report of a new aircraft replaces its oldest.
    public var aircraftPerAddress = 500
    /// Aircraft one grid cell holds (15 nm by 15 nm or less): bounds the work of a query in a crowd.
    public var aircraftPerCell = 1_000
    /// Bound on each rate table (spoofed sources cannot grow memory without end) and on the identifier bindings.
    public var rateTableCapacity = 1_000_000
    /// Datagrams dropped by a rate limit before their tag was checked, remembered so they cannot be sent again from
    /// another source (`RateDroppedTags`): about 10 MiB, reserved at start.
    public var rateDroppedCapacity = 262_144
    public init() {}
}

/// What the relay does with one datagram: the reply to send back (if any) and the report to keep (never a ground
/// query). Pure: the caller passes the monotonic time and the relay's UTC.
public struct RelayOutcome: Sendable {
    public var reply: [UInt8]?
    public var report: TrafficPacket.Report?
    public var dropReason: String?
    /// The key that authenticated the report (stored with it, so other relays respect the identifier's binding).
    public var keyFingerprint: UInt64?
}

/// The relay's own drop reasons, next to the daemon's (docs/relay.md).
public enum RelayDrop {
    public static let rateLimitedAddress = "rate-limited-address"
    public static let rateLimitedSource = "rate-limited-source"
    public static let rateLimitedIdentifier = "rate-limited-identifier"
    public static let rateLimitedKeyTrials = "rate-limited-key-trials"
    public static let boundToOtherKey = "identifier-bound-to-other-key"
    public static let tableFull = "table-full"
    /// The very bytes (the same tag) of a datagram a rate limit dropped lately, sent again.
    public static let replayOfDropped = "replay-of-dropped"
}

public struct RelayEngine: Sendable {
    public var configuration: RelayConfiguration
    public var picture = RelayPicture()
    public var keyring = RelayKeyring()
    public var bindings: IdentifierBindings
    /// Set at start when the relay has any key: it stays a keyed relay even if every key is later revoked in the
    /// registry (an empty keyring would otherwise turn it into an open relay).
    public var keysRequired = false
    public private(set) var received = 0
    public private(set) var answered = 0
    public private(set) var bytesIn = 0
    public private(set) var bytesOut = 0
    /// Replies cut down to the request's size because the sender is not authenticated (amplification defence).
    public private(set) var limitedReplies = 0
    /// Requests that welcomed a dense reply and got version 1, because a dense reply could not code one of the nearest
    /// aircraft (across a pole).
    public private(set) var denseFallbacks = 0
    public private(set) var reports = 0
    public private(set) var groundQueries = 0
    public private(set) var dropped: [String: Int] = [:]
    var sources: TokenBuckets<RelaySource>
    var addresses: TokenBuckets<RelaySource>
    var identifiers: TokenBuckets<UInt32>
    var keyTrials: TokenBuckets<RelaySource>
    var totalKeyTrials: TokenBuckets<UInt8>
    /// Per identifier, the last sequence number used up and when (shifted ahead for a report dated ahead, so the record
    /// outlives the moment its datagram would become current).
    var lastSequence: [UInt32: (sequence: UInt16, seconds: Double)] = [:]
    /// One-time identifiers of the ground queries used up lately: a ground query carries sequence 0, so without this a
    /// captured signed query could be replayed from forged addresses for a full reply each time.
    var answeredQueries: [UInt32: Double] = [:]
    /// Datagrams the address, source or key-trial rates dropped, by tag: they spent no HMAC and used up nothing.
    public internal(set) var rateDropped: RateDroppedTags
    /// Bindings last an hour: swept once a minute, not every second (a pass over every binding).
    private var lastBindingSweepSeconds = -Double.infinity

    public init(configuration: RelayConfiguration) {
        self.configuration = configuration
        sources = TokenBuckets(ratePerSecond: configuration.sourceRatePerSecond, burst: configuration.sourceBurst,
                               capacity: configuration.rateTableCapacity)
        addresses = TokenBuckets(ratePerSecond: configuration.addressRatePerSecond, burst: configuration.addressBurst,
                                 capacity: configuration.rateTableCapacity)
        identifiers = TokenBuckets(ratePerSecond: configuration.identifierRatePerSecond, burst: configuration.identifierBurst,
                                   capacity: configuration.rateTableCapacity)
        keyTrials = TokenBuckets(ratePerSecond: configuration.keyTrialRatePerSecond, burst: configuration.keyTrialBurst,
                                 capacity: configuration.rateTableCapacity)
        totalKeyTrials = TokenBuckets(ratePerSecond: configuration.totalKeyTrialRatePerSecond, burst: configuration.totalKeyTrialBurst,
                                      capacity: 1)
        bindings = IdentifierBindings(idleSeconds: configuration.identifierBindingSeconds, capacity: configuration.rateTableCapacity,
                                      perKeyCapacity: configuration.identifiersPerKey)
        rateDropped = RateDroppedTags(capacity: configuration.rateDroppedCapacity)
        picture.maximumPerAddress = configuration.aircraftPerAddress
        picture.maximumPerCell = configuration.aircraftPerCell
        picture.maximumAircraft = configuration.rateTableCapacity
    }

    mutating func drop(_ reason: String) -> RelayOutcome {
        dropped[reason, default: 0] += 1
        return RelayOutcome(reply: nil, report: nil, dropReason: reason)
    }

    /// Every datagram: a datagram a rate limit dropped lately is not taken again, then rate limits (cheapest first),
    /// the daemon's checks in the spec's order (length, version, type, tag, length by type, ranges), then freshness
    /// and sequence; then one reply listing the nearest others.
    public mutating func handle(_ datagram: [UInt8], from source: RelaySource, nowSeconds: Double, utc: UTCInstant) -> RelayOutcome {
        received += 1
        bytesIn += datagram.count
        let key = RateDroppedTags.key(of: datagram)
        guard !rateDropped.contains(key, nowSeconds: nowSeconds) else { return drop(RelayDrop.replayOfDropped) }
        guard addresses.take(source.address, nowSeconds: nowSeconds) else {
            return dropRateLimited(RelayDrop.rateLimitedAddress, key: key, datagram: datagram, nowSeconds: nowSeconds, utc: utc)
        }
        guard sources.take(source, nowSeconds: nowSeconds) else {
            return dropRateLimited(RelayDrop.rateLimitedSource, key: key, datagram: datagram, nowSeconds: nowSeconds, utc: utc)
        }
        // docs/traffic-packet.md: identifiers are 1…2^24−1. Identifier 0 is refused before any key is tried for it, so
        // it is never bound, stored or listed.
        if datagram.count >= TrafficPacket.reportLength, datagram[0] == TrafficPacket.magicVersion,
           datagram[1] == TrafficPacket.MessageType.report.rawValue || datagram[1] == TrafficPacket.MessageType.groundQuery.rawValue,
           datagram[3] == 0, datagram[4] == 0, datagram[5] == 0 {
            return drop(TrafficPacket.Rejection.outOfRange.rawValue)
        }
        var authenticator: TrafficAuthenticator?
        var fingerprint: UInt64?
        if keysRequired || !keyring.isEmpty, datagram.count >= TrafficPacket.reportLength, datagram[0] == TrafficPacket.magicVersion,
           TrafficPacket.MessageType(rawValue: datagram[1]) != nil {
            guard datagram[2] & TrafficPacket.Flags.tagged.rawValue != 0 else { return drop(TrafficPacket.Rejection.missingTag.rawValue) }
            switch authenticate(datagram, address: source.address, nowSeconds: nowSeconds) {
            case .key(let slot):
                authenticator = keyring.keys[slot].authenticator
                fingerprint = keyring.fingerprints[slot]
            case .refused(let reason) where reason == RelayDrop.rateLimitedKeyTrials:
                // No key was found for it, so it used up nothing either.
                return dropRateLimited(reason, key: key, datagram: datagram, nowSeconds: nowSeconds, utc: utc)
            case .refused(let reason):
                return drop(reason)
            }
        }
        let report: TrafficPacket.Report
        // The keyring has verified the tag already: the check only strips it (one HMAC per request, not two).
        switch TrafficDatagramCheck.check(datagram, authenticator: nil) {
        case .trafficReport(let decoded): report = decoded
        case .trafficRejected(let reason): return drop(reason)
        default: return drop(TrafficPacket.Rejection.unknownType.rawValue)   // a relay reply is not a request
        }
        let isQuery = report.type == .groundQuery
        let aheadSeconds = report.utc.seconds(since: utc)
        guard aheadSeconds >= -configuration.freshnessSeconds, aheadSeconds <= configuration.futureToleranceSeconds else {
            // Authenticated and dated ahead: it would become current later, so its sequence is used up now.
            if authenticator != nil, aheadSeconds > 0 { useUp(report, untilSeconds: nowSeconds + min(aheadSeconds, 3_600)) }
            return drop(TrafficPacket.Rejection.stale.rawValue)
        }
        // Replays are dropped before the identifier's rate is charged (replays from other addresses must not use up
        // a real aircraft's allowance).
        if isQuery {
            guard answeredQueries[report.identifier] == nil else { return drop(TrafficPacket.Rejection.replayed.rawValue) }
        } else if let last = lastSequence[report.identifier] {
            let ahead = report.sequence &- last.sequence
            guard ahead != 0 && ahead < 0x8000 else { return drop(TrafficPacket.Rejection.replayed.rawValue) }
        } else if lastSequence.count >= configuration.rateTableCapacity {
            return drop(RelayDrop.tableFull)   // its sequence could not be recorded, so a replay could not be told
        }
        guard identifiers.take(report.identifier, nowSeconds: nowSeconds) else {
            // An authenticated datagram dropped here would otherwise be a full reply waiting for a forged source.
            if authenticator != nil { useUp(report, untilSeconds: nowSeconds) }
            return drop(RelayDrop.rateLimitedIdentifier)
        }
        useUp(report, untilSeconds: nowSeconds)
        if isQuery {
            groundQueries += 1
        } else {
            var kept = report
            kept.flags = kept.flags.intersection([.airborne, .emergency, .selfAssignedID])
            kept.planPoints = []
            picture.update(kept, heardAtSeconds: nowSeconds, fromDatabase: false, holder: source.address)
            reports += 1
        }
        // Amplification: only an authenticated sender (a valid tag: it cannot have spoofed its address and replayed
        // nothing, since the sequence and time checks passed) gets more bytes back than it sent.
        let budget = authenticator == nil ? min(datagram.count, TrafficPacket.maximumPayload) : TrafficPacket.maximumPayload
        var datagramOut = makeReply(to: report, tagged: authenticator != nil, budget: budget, utc: utc)
        if let authenticator {
            let body = datagramOut
            authenticator.appendTag(of: body, to: &datagramOut)
        }
        if authenticator == nil, budget < TrafficPacket.maximumPayload { limitedReplies += 1 }
        answered += 1
        bytesOut += datagramOut.count
        return RelayOutcome(reply: datagramOut, report: isQuery ? nil : picture.entries[report.identifier]?.report, dropReason: nil,
                            keyFingerprint: fingerprint)
    }

    /// The reply in the version the request asked for, with as many of the nearest aircraft as `budget` bytes hold.
    /// A dense reply codes each aircraft as north and east offsets from the requester (east = R·cos φ₀·Δλ), which
    /// near a pole cannot reach an aircraft across it (at 89.5° an aircraft 111 km away on the far side is 174 km
    /// "east"): when one of the nearest cannot be coded, the reply is version 1, which every receiver reads.
    mutating func makeReply(to request: TrafficPacket.Report, tagged: Bool, budget: Int, utc: UTCInstant) -> [UInt8] {
        let flags: TrafficPacket.Flags = tagged ? [.tagged] : []
        let tagBytes = tagged ? TrafficPacket.tagLength : 0
        let radius = configuration.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
        if request.flags.contains(.denseRepliesWelcome) {
            let room = max(0, (budget - tagBytes - TrafficPacket.denseReplyHeaderLength) / TrafficPacket.denseReplyEntryLength)
            let others = nearestOthers(to: request, radiusMeters: min(radius, TrafficPacket.denseOffsetLimitMeters),
                                       limit: min(room, TrafficPacket.maximumDenseReplyEntries),
                                       // docs/traffic-packet.md: an aircraft older than 31.875 s is not listed in a dense reply.
                                       reportedSinceEpochSeconds: utc.secondsSinceEpoch - TrafficPacket.denseMaximumAgeSeconds)
            let referenceLatitude = TrafficPacket.latitude(code: TrafficPacket.latitudeCode(request.latitudeDegrees))
            let referenceLongitude = TrafficPacket.longitude(code: TrafficPacket.longitudeCode(request.longitudeDegrees))
            if others.allSatisfy({ Self.denseCodable($0, referenceLatitude: referenceLatitude, referenceLongitude: referenceLongitude) }) {
                return TrafficPacket.encodeDenseReply(requestIdentifier: request.identifier, requestSequence: request.sequence, utc: utc,
                                                      flags: flags, referenceLatitude: request.latitudeDegrees,
                                                      referenceLongitude: request.longitudeDegrees, aircraft: others)
            }
            denseFallbacks += 1
        }
        let room = max(0, (budget - tagBytes - TrafficPacket.replyHeaderLength) / TrafficPacket.replyEntryLength)
        let others = nearestOthers(to: request, radiusMeters: radius, limit: min(room, TrafficPacket.maximumReplyEntries),
                                   reportedSinceEpochSeconds: -.infinity)
        return TrafficPacket.encodeReply(requestIdentifier: request.identifier, requestSequence: request.sequence, utc: utc,
                                         flags: flags, aircraft: others)
    }

    private func nearestOthers(to request: TrafficPacket.Report, radiusMeters: Double, limit: Int,
                               reportedSinceEpochSeconds: Double) -> [TrafficPacket.Report] {
        guard limit > 0 else { return [] }
        return picture.nearest(latitude: request.latitudeDegrees, longitude: request.longitudeDegrees, altitudeFeet: request.altitudeFeet,
                               radiusMeters: radiusMeters, altitudeWindowFeet: configuration.altitudeWindowFeet,
                               excluding: request.identifier, limit: limit, reportedSinceEpochSeconds: reportedSinceEpochSeconds)
    }

    /// Whether a dense reply can code the aircraft: its offsets from the reference (the request's position as its
    /// codes decode), in 4 m steps, within ±32,767 (as `TrafficPacket.encodeDenseReply` computes them).
    static func denseCodable(_ report: TrafficPacket.Report, referenceLatitude: Double, referenceLongitude: Double) -> Bool {
        let offsets = TrafficPacket.denseOffsets(referenceLatitude: referenceLatitude, referenceLongitude: referenceLongitude,
                                                 latitude: report.latitudeDegrees, longitude: report.longitudeDegrees)
        return abs((offsets.northMeters / TrafficPacket.denseOffsetStepMeters).rounded()) <= 32_767
            && abs((offsets.eastMeters / TrafficPacket.denseOffsetStepMeters).rounded()) <= 32_767
    }

    /// Once a second: aircraft silent for 30 s leave; idle rate buckets, old sequence numbers and bindings of
    /// identifiers silent for `identifierBindingSeconds` are forgotten.
    public mutating func tick(nowSeconds: Double) {
        picture.expire(nowSeconds: nowSeconds, expirySeconds: configuration.expirySeconds)
        sources.sweep(nowSeconds: nowSeconds)
        addresses.sweep(nowSeconds: nowSeconds)
        identifiers.sweep(nowSeconds: nowSeconds)
        keyTrials.sweep(nowSeconds: nowSeconds)
        if nowSeconds - lastBindingSweepSeconds >= 60 {
            bindings.sweep(nowSeconds: nowSeconds)
            lastBindingSweepSeconds = nowSeconds
        }
        // Sequence numbers outlive the picture: a replayed datagram older than this is stale anyway.
        // Removed in place (a new table of every aircraft each second would stall the loop for milliseconds).
        let keep = configuration.expirySeconds + 2 * configuration.freshnessSeconds
        var old: [UInt32] = []
        for (identifier, last) in lastSequence where nowSeconds - last.seconds > keep { old.append(identifier) }
        for identifier in old { lastSequence[identifier] = nil }
        lastSequence.shrinkIfSparse()
        // A replayed query older than twice the freshness window is stale anyway.
        var queries: [UInt32] = []
        for (identifier, seconds) in answeredQueries where nowSeconds - seconds > 2 * configuration.freshnessSeconds { queries.append(identifier) }
        for identifier in queries { answeredQueries[identifier] = nil }
        answeredQueries.shrinkIfSparse()
    }
}
