public import CockpitCore
import CockpitIO

public struct RelayConfiguration: Sendable, Equatable {
    public var radiusNauticalMiles = 30.0
    public var altitudeWindowFeet = 10_000.0
    /// Aircraft not heard for this long leave the picture.
    public var expirySeconds = 30.0
    /// A report whose time is further than this from the relay's UTC is stale.
    public var freshnessSeconds = 30.0
    /// Per source address and port (one aircraft behind NAT).
    public var sourceRatePerSecond = 10.0
    public var sourceBurst = 20.0
    /// Per address, all ports (carrier-grade NAT shares one address among many aircraft).
    public var addressRatePerSecond = 2_000.0
    public var addressBurst = 4_000.0
    /// Per identifier: reports come at most every 0.2 s.
    public var identifierRatePerSecond = 5.0
    public var identifierBurst = 10.0
    /// Bound on each rate table (spoofed sources cannot grow memory without end).
    public var rateTableCapacity = 1_000_000
    public init() {}
}

/// What the relay does with one datagram: the reply to send back (if any) and the report to keep (never a ground
/// query). Pure: the caller passes the monotonic time and the relay's UTC.
public struct RelayOutcome: Sendable {
    public var reply: [UInt8]?
    public var report: TrafficPacket.Report?
    public var dropReason: String?
}

public struct RelayEngine: Sendable {
    public var configuration: RelayConfiguration
    public var picture = RelayPicture()
    public var keyring = RelayKeyring()
    /// Set at start when the relay has any key: it stays a keyed relay even if every key is later revoked in the
    /// registry (an empty keyring would otherwise turn it into an open relay).
    public var keysRequired = false
    public private(set) var received = 0
    public private(set) var answered = 0
    public private(set) var bytesIn = 0
    public private(set) var bytesOut = 0
    /// Replies cut down to the request's size because the sender is not authenticated (amplification defence).
    public private(set) var limitedReplies = 0
    public private(set) var reports = 0
    public private(set) var groundQueries = 0
    public private(set) var dropped: [String: Int] = [:]
    private var sources: TokenBuckets<RelaySource>
    private var addresses: TokenBuckets<RelaySource>
    private var identifiers: TokenBuckets<UInt32>
    private var lastSequence: [UInt32: (sequence: UInt16, seconds: Double)] = [:]
    /// One-time identifiers of the ground queries answered lately: a ground query carries sequence 0, so a captured
    /// signed one replayed with a forged source got a full reply each time (12.9× amplification in the review).
    private var answeredQueries: [UInt32: Double] = [:]

    public init(configuration: RelayConfiguration) {
        self.configuration = configuration
        sources = TokenBuckets(ratePerSecond: configuration.sourceRatePerSecond, burst: configuration.sourceBurst,
                               capacity: configuration.rateTableCapacity)
        addresses = TokenBuckets(ratePerSecond: configuration.addressRatePerSecond, burst: configuration.addressBurst,
                                 capacity: configuration.rateTableCapacity)
        identifiers = TokenBuckets(ratePerSecond: configuration.identifierRatePerSecond, burst: configuration.identifierBurst,
                                   capacity: configuration.rateTableCapacity)
    }

    private mutating func drop(_ reason: String) -> RelayOutcome {
        dropped[reason, default: 0] += 1
        return RelayOutcome(reply: nil, report: nil, dropReason: reason)
    }

    /// Every datagram: rate limits (cheapest first), the daemon's checks in the spec's order (length, version, type,
    /// tag, length by type, ranges), then freshness and sequence; then one reply listing the nearest others.
    public mutating func handle(_ datagram: [UInt8], from source: RelaySource, nowSeconds: Double, utc: UTCInstant) -> RelayOutcome {
        received += 1
        bytesIn += datagram.count
        guard addresses.take(source.address, nowSeconds: nowSeconds) else { return drop("rate-limited-address") }
        guard sources.take(source, nowSeconds: nowSeconds) else { return drop("rate-limited-source") }
        var authenticator: TrafficAuthenticator?
        if keysRequired || !keyring.isEmpty, datagram.count >= TrafficPacket.reportLength, datagram[0] == TrafficPacket.magicVersion,
           TrafficPacket.MessageType(rawValue: datagram[1]) != nil {
            guard datagram[2] & TrafficPacket.Flags.tagged.rawValue != 0 else { return drop(TrafficPacket.Rejection.missingTag.rawValue) }
            let identifier = UInt32(datagram[3]) << 16 | UInt32(datagram[4]) << 8 | UInt32(datagram[5])
            guard let key = keyring.authenticator(for: datagram, identifier: identifier) else {
                return drop(TrafficPacket.Rejection.badTag.rawValue)
            }
            authenticator = key
        }
        let report: TrafficPacket.Report
        // The keyring has verified the tag already: the check only strips it (one HMAC per request, not two).
        switch TrafficDatagramCheck.check(datagram, authenticator: nil) {
        case .trafficReport(let decoded): report = decoded
        case .trafficRejected(let reason): return drop(reason)
        default: return drop(TrafficPacket.Rejection.unknownType.rawValue)   // a relay reply is not a request
        }
        guard abs(report.utc.seconds(since: utc)) <= configuration.freshnessSeconds else { return drop(TrafficPacket.Rejection.stale.rawValue) }
        let isQuery = report.type == .groundQuery
        // Replays are dropped before the identifier's rate is charged: replays from other addresses used up a real
        // aircraft's allowance, and half its reports went unanswered (found by the relay reviewer).
        if isQuery {
            guard answeredQueries[report.identifier] == nil else { return drop(TrafficPacket.Rejection.replayed.rawValue) }
        } else if let last = lastSequence[report.identifier] {
            let ahead = report.sequence &- last.sequence
            guard ahead != 0 && ahead < 0x8000 else { return drop(TrafficPacket.Rejection.replayed.rawValue) }
        }
        guard identifiers.take(report.identifier, nowSeconds: nowSeconds) else { return drop("rate-limited-identifier") }
        if isQuery {
            if answeredQueries.count >= configuration.rateTableCapacity { answeredQueries.removeAll(keepingCapacity: true) }
            answeredQueries[report.identifier] = nowSeconds
            groundQueries += 1
        } else {
            lastSequence[report.identifier] = (report.sequence, nowSeconds)
            var kept = report
            kept.flags = kept.flags.intersection([.airborne, .emergency, .selfAssignedID])
            kept.planPoints = []
            picture.update(kept, heardAtSeconds: nowSeconds, fromDatabase: false)
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
        return RelayOutcome(reply: datagramOut, report: isQuery ? nil : picture.entries[report.identifier]?.report, dropReason: nil)
    }

    /// The reply in the version the request asked for, with as many of the nearest aircraft as `budget` bytes hold.
    func makeReply(to request: TrafficPacket.Report, tagged: Bool, budget: Int, utc: UTCInstant) -> [UInt8] {
        let dense = request.flags.contains(.denseRepliesWelcome)
        let tagBytes = tagged ? TrafficPacket.tagLength : 0
        let header = dense ? TrafficPacket.denseReplyHeaderLength : TrafficPacket.replyHeaderLength
        let entry = dense ? TrafficPacket.denseReplyEntryLength : TrafficPacket.replyEntryLength
        let room = max(0, (budget - tagBytes - header) / entry)
        let limit = min(room, dense ? TrafficPacket.maximumDenseReplyEntries : TrafficPacket.maximumReplyEntries)
        let radius = configuration.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
        let others = limit == 0 ? [] : picture.nearest(
            latitude: request.latitudeDegrees, longitude: request.longitudeDegrees, altitudeFeet: request.altitudeFeet,
            radiusMeters: min(radius, dense ? TrafficPacket.denseOffsetLimitMeters : radius),
            altitudeWindowFeet: configuration.altitudeWindowFeet, excluding: request.identifier, limit: limit,
            // docs/traffic-packet.md: an aircraft older than 31.875 s is not listed in a dense reply.
            reportedSinceEpochSeconds: dense ? utc.secondsSinceEpoch - TrafficPacket.denseMaximumAgeSeconds : -.infinity)
        let flags: TrafficPacket.Flags = tagged ? [.tagged] : []
        if dense {
            return TrafficPacket.encodeDenseReply(requestIdentifier: request.identifier, requestSequence: request.sequence, utc: utc,
                                                  flags: flags, referenceLatitude: request.latitudeDegrees,
                                                  referenceLongitude: request.longitudeDegrees, aircraft: others)
        }
        return TrafficPacket.encodeReply(requestIdentifier: request.identifier, requestSequence: request.sequence, utc: utc,
                                         flags: flags, aircraft: others)
    }

    /// Once a second: aircraft silent for 30 s leave; idle rate buckets and old sequence numbers are forgotten.
    public mutating func tick(nowSeconds: Double) {
        picture.expire(nowSeconds: nowSeconds, expirySeconds: configuration.expirySeconds)
        sources.sweep(nowSeconds: nowSeconds)
        addresses.sweep(nowSeconds: nowSeconds)
        identifiers.sweep(nowSeconds: nowSeconds)
        // Sequence numbers outlive the picture: a replayed datagram older than this is stale anyway.
        // Removed in place (no new table of every aircraft each second: that stalled the loop for milliseconds).
        let keep = configuration.expirySeconds + 2 * configuration.freshnessSeconds
        var old: [UInt32] = []
        for (identifier, last) in lastSequence where nowSeconds - last.seconds > keep { old.append(identifier) }
        for identifier in old { lastSequence[identifier] = nil }
        // A replayed query older than twice the freshness window is stale anyway.
        var queries: [UInt32] = []
        for (identifier, seconds) in answeredQueries where nowSeconds - seconds > 2 * configuration.freshnessSeconds { queries.append(identifier) }
        for identifier in queries { answeredQueries[identifier] = nil }
    }

    /// A report another relay stored in the shared database.
    public mutating func merge(_ report: TrafficPacket.Report, ageSeconds: Double, nowSeconds: Double) {
        guard ageSeconds <= configuration.expirySeconds else { return }
        picture.update(report, heardAtSeconds: nowSeconds - max(0, ageSeconds), fromDatabase: true)
    }
}
