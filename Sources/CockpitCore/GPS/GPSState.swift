/// Everything the core knows about the GPS: the source connection, the last fix, counters, and the
/// anchor that maps monotonic time to GPS UTC.
public struct GPSState: Sendable, Equatable {
    public enum Validity: String, Sendable { case valid, stale, absent }

    public var sourceConnected: Bool?
    public var sourceEndpoint: String?
    public var sourceStateSince: MonotonicInstant?
    public var lastDisconnectReason: String?
    /// The most recent failure (the disconnect, or a failed reconnect attempt since).
    public var lastConnectError: String?
    public var reconnects = 0

    public var lastFix: GPSFix?
    public var lastFixAt: MonotonicInstant?
    /// The last report with a usable position (a later no-fix TPV does not erase it, it only ages).
    public var lastPositionFix: GPSFix?
    public var lastPositionFixAt: MonotonicInstant?
    public var satellites: SatelliteCounts?
    /// The receivers gpsd has active, as it last said (DEVICES, DEVICE); nil until it says, and again from a
    /// reconnect until it says again.
    public var activeReceivers: Set<String>?
    /// When gpsd last wrote a report of a receiver's, activated one, or connected: how long its receivers have been
    /// silent is counted from here (`GPSState+Silence.swift`); nil while not connected.
    public var receiverLastHeardAt: MonotonicInstant?
    var receiverSilenceSaid = false

    public var reports = 0
    public var malformedReports = 0
    public var fixes = 0
    public var lastMalformedReason: String?

    /// The receiver whose positions are in use (gpsd's `device`), once one has reported a position with a name.
    public var device: String?
    /// Reports from another receiver through the same gpsd, ignored while the one in use has a fresh position.
    public var otherDeviceReports = 0
    var ignoredDevices: Set<String> = []
    /// Position reports with the same time as the last one (a frozen receiver, or an epoch reported twice).
    public var repeatedFixTimes = 0
    /// Position reports older than the last one, not used.
    public var fixTimeStepsBack = 0
    var backwardsRun = 0
    var lastRefusedUTC: UTCInstant?
    /// Positions the receiver did not measure (dead reckoning, time only, simulated): shown, never used as a fix.
    public var notMeasuredFixes = 0

    /// GPS UTC at a monotonic instant, taken only from reports with a 2D/3D fix.
    public var utcAnchor: (monotonic: MonotonicInstant, utc: UTCInstant)?

    public init() {}

    public static func == (lhs: GPSState, rhs: GPSState) -> Bool {
        lhs.sourceConnected == rhs.sourceConnected && lhs.lastFix == rhs.lastFix && lhs.reports == rhs.reports
            && lhs.malformedReports == rhs.malformedReports && lhs.reconnects == rhs.reconnects
            && lhs.utcAnchor?.monotonic == rhs.utcAnchor?.monotonic && lhs.utcAnchor?.utc == rhs.utcAnchor?.utc
    }

    // These three are always inlined: the core calls them many times a second, and a call not inlined is handed a
    // copy of the whole state.
    @inline(__always)
    public func validity(at now: MonotonicInstant, staleAfterSeconds: Double) -> Validity {
        guard let at = lastPositionFixAt else { return .absent }
        return now.seconds(since: at) <= staleAfterSeconds ? .valid : .stale
    }

    /// The current fix when it is valid (fresh and with a position); nil otherwise.
    @inline(__always)
    public func currentFix(at now: MonotonicInstant, staleAfterSeconds: Double) -> GPSFix? {
        validity(at: now, staleAfterSeconds: staleAfterSeconds) == .valid ? lastPositionFix : nil
    }

    /// UTC now, extrapolated from the last fix's time on the monotonic clock.
    @inline(__always)
    public func utc(at now: MonotonicInstant) -> UTCInstant? {
        guard let anchor = utcAnchor else { return nil }
        return anchor.utc.adding(seconds: now.seconds(since: anchor.monotonic))
    }

    /// Applies one decoded report; true when it is a measured position the rest of the core should use.
    @discardableResult
    mutating func apply(_ report: GPSReport, at now: MonotonicInstant, effects: inout [Effect],
                        staleAfterSeconds: Double) -> Bool {
        reports += 1
        switch report {
        case .fix, .satellites: heardFromReceiver(at: now, effects: &effects)   // even one refused below: it talks
        default: break
        }
        switch report {
        case .fix(let fix):
            if let problem = PlausibleRange.problem(with: fix) {
                countMalformed(reason: problem, effects: &effects)
                return false
            }
            guard accepts(device: fix.device, at: now, staleAfterSeconds: staleAfterSeconds, effects: &effects) else { return false }
            let wasValid = validity(at: now, staleAfterSeconds: staleAfterSeconds) == .valid
            let previousStatus = lastFix?.receiverStatus
            lastFix = fix
            lastFixAt = now
            guard fix.hasValidPosition else { return false }
            if let status = fix.receiverStatus, !status.measuresPosition {
                notMeasuredFixes += 1
                if previousStatus != status {
                    effects.append(.log(LogLine(.warning, "GPS receiver reports a \(status.name) position: not used as a fix (the last measured position ages)")))
                }
                return false
            }
            guard usesTime(of: fix, effects: &effects) else { return false }
            if fix.utc != nil, fix.utc == lastPositionFix?.utc, fix.device == lastPositionFix?.device {
                // The same epoch again: it refreshes nothing; what it adds (gpsd may report an epoch in two parts) is used.
                repeatedFixTimes += 1
                guard fix != lastPositionFix else { return false }
                lastPositionFix = fix
                return true
            }
            fixes += 1
            lastPositionFix = fix
            lastPositionFixAt = now
            if let name = fix.device { device = name }
            if let utc = fix.utc { utcAnchor = (now, utc) }
            if !wasValid {
                effects.append(.log(LogLine(.notice, "GPS fix acquired (\(fix.mode.name))")))
            }
            return true
        case .satellites(let counts):
            guard accepts(device: counts.device, at: now, staleAfterSeconds: staleAfterSeconds, effects: &effects) else { return false }
            satellites = counts
        case .receiverList(let list):
            applyReceiverList(list, at: now, effects: &effects)
        case .receiverChange(let receiver):
            applyReceiverChange(receiver, at: now, effects: &effects)
        case .ignored:
            break
        case .malformed(let reason):
            countMalformed(reason: reason, effects: &effects)
        }
        return false
    }

    /// A report that cannot be used as it is: malformed, or a fix outside the plausible ranges (`PlausibleRange`).
    private mutating func countMalformed(reason: String, effects: inout [Effect]) {
        malformedReports += 1
        lastMalformedReason = reason
        effects.append(.log(LogLine(.warning, "malformed GPS report: \(reason)")))
    }

    mutating func apply(_ event: GPSSourceEvent, at now: MonotonicInstant, effects: inout [Effect]) {
        switch event {
        case .connected(let endpoint):
            if sourceConnected == false { reconnects += 1 }
            activeReceivers = nil
            receiverLastHeardAt = now
            receiverSilenceSaid = false
            sourceConnected = true
            sourceEndpoint = endpoint
            sourceStateSince = now
            effects.append(.log(LogLine(.notice, "gpsd connected at \(endpoint)")))
        case .disconnected(let reason):
            if sourceConnected != false {
                effects.append(.log(LogLine(.warning, "gpsd disconnected: \(reason)")))
                sourceStateSince = now
                lastDisconnectReason = reason   // why the connection ended (kept while reconnecting)
            }
            sourceConnected = false
            activeReceivers = nil
            receiverLastHeardAt = nil
            receiverSilenceSaid = false
            lastConnectError = reason           // the latest failed attempt
        }
    }

    /// Emits the "fix lost" transition once, on the tick where the fix turns stale.
    mutating func tick(at now: MonotonicInstant, previous: MonotonicInstant?, effects: inout [Effect],
                       staleAfterSeconds: Double) {
        tickReceiverSilence(at: now, effects: &effects)
        guard let previous, let at = lastPositionFixAt else { return }
        if previous.seconds(since: at) <= staleAfterSeconds && now.seconds(since: at) > staleAfterSeconds {
            effects.append(.log(LogLine(.warning, "GPS fix lost: no position for \(Int(staleAfterSeconds)) s")))
        }
    }
}
