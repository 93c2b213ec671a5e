/// A point on the daemon's monotonic clock (CLOCK_MONOTONIC in live mode, the recording's own
/// timeline in replay). Only differences between instants mean anything; it is never wall time.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `seconds` later (earlier when negative), held at the ends of the 64-bit clock instead of wrapping or trapping
    /// (a corrupt time or interval must not turn into a trap or a clock that runs backwards).
    public func adding(seconds: Double) -> MonotonicInstant {
        let step = (seconds * 1e9).rounded()
        guard step.isFinite, abs(step) < 9.2e18 else {
            return MonotonicInstant(nanoseconds: seconds.isNaN ? nanoseconds : (seconds > 0 ? .max : .min))
        }
        let (sum, overflow) = nanoseconds.addingReportingOverflow(Int64(step))
        return MonotonicInstant(nanoseconds: overflow ? (step > 0 ? .max : .min) : sum)
    }

    /// Seconds from `earlier` to `self` (negative if `earlier` is later).
    public func seconds(since earlier: MonotonicInstant) -> Double {
        Double(nanoseconds &- earlier.nanoseconds) / 1e9
    }

    public var description: String { "\(seconds)s" }
}
