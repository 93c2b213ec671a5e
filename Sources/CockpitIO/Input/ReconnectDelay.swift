/// How long a live input (gpsd, a traffic receiver) waits before its next attempt to connect. Pure: the source's
/// thread keeps one and tells it what happened.
///
/// The wait starts at `firstSeconds` and doubles up to `longestSeconds` while attempts fail (equal for a server on
/// this machine: a refused loopback connect costs microseconds). A connection that ends within `provenSeconds` does
/// not start it over: a server that accepts and closes at once (a gpsd that cannot take another client, a proxy whose
/// far end is down) is not asked again every 250 ms for ever.
public struct ReconnectDelay: Sendable, Equatable {
    public let firstSeconds: Double
    public let longestSeconds: Double
    /// What the next wait will be.
    public private(set) var nextSeconds: Double

    /// A connection that lasted at least this long showed the server works; when it ends, the wait starts over. Short:
    /// a remote gpsd over a link that drops now and then should be back at once, and one that refuses a client closes
    /// within milliseconds.
    public static let provenSeconds = 2.0

    public init(firstSeconds: Double, longestSeconds: Double) {
        self.firstSeconds = firstSeconds
        self.longestSeconds = longestSeconds
        nextSeconds = firstSeconds
    }

    /// Every 100 ms to a server on this machine; from 250 ms doubling to 10 s to another host.
    public static func network(local: Bool) -> ReconnectDelay {
        local ? ReconnectDelay(firstSeconds: 0.1, longestSeconds: 0.1) : ReconnectDelay(firstSeconds: 0.25, longestSeconds: 10)
    }

    /// An attempt failed (no connection, or the server refused the request): the wait before the next one.
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
