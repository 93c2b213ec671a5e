import Glibc
public import CockpitCore

/// The one place live mode reads CLOCK_MONOTONIC. The core never does; replay never does.
public enum MonotonicClock {
    public static func now() -> MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public static func nowSeconds() -> Double { now().seconds }
}
