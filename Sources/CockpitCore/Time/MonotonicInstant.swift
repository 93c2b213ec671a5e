/// A point on the daemon's monotonic clock (CLOCK_MONOTONIC in live mode, the recording's own
/// timeline in replay). Only differences between instants mean anything; it is never wall time.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public func adding(seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds &+ Int64((seconds * 1e9).rounded()))
    }

    /// Seconds from `earlier` to `self` (negative if `earlier` is later).
    public func seconds(since earlier: MonotonicInstant) -> Double {
        Double(nanoseconds &- earlier.nanoseconds) / 1e9
    }

    public var description: String { "\(seconds)s" }
}
