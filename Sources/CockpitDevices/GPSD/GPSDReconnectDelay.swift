/// How long `GPSDSource` waits before its next attempt to connect to gpsd. Pure: the source's thread keeps one and
/// tells it what happened.
///
/// To a gpsd on this machine the wait is always `GPSDSource.localRetrySeconds`. To another host it starts at
/// `GPSDSource.initialBackoffSeconds` and doubles up to `GPSDSource.maximumBackoffSeconds` while attempts fail. A
/// connection that ends within `provenSeconds` does not start it over: a server that accepts and closes at once
/// (a gpsd that cannot take another client, a proxy whose far end is down) is not asked again every 250 ms for ever.
public struct GPSDReconnectDelay: Sendable, Equatable {
    public let firstSeconds: Double
    public let longestSeconds: Double
    /// What the next wait will be.
    public private(set) var nextSeconds: Double

    /// A connection that lasted at least this long showed the server works; when it ends, the wait starts over. Short:
    /// a remote gpsd over a link that drops now and then should be back at once, and one that refuses a client closes
    /// within milliseconds.
    public static let provenSeconds = 2.0

    public init(local: Bool) {
        firstSeconds = local ? GPSDSource.localRetrySeconds : GPSDSource.initialBackoffSeconds
        longestSeconds = local ? GPSDSource.localRetrySeconds : GPSDSource.maximumBackoffSeconds
        nextSeconds = firstSeconds
    }

    /// An attempt failed (no connection, or gpsd refused the watch request): the wait before the next one.
    public mutating func afterFailedAttempt() -> Double {
        let wait = nextSeconds
        nextSeconds = min(nextSeconds * 2, longestSeconds)
        return wait
    }

    /// A connection ended after `seconds`: the wait before the next attempt.
    public mutating func afterConnection(lastingSeconds seconds: Double) -> Double {
        if seconds >= Self.provenSeconds { nextSeconds = firstSeconds }
        return afterFailedAttempt()
    }
}
