import Glibc
public import CockpitCore

/// The system's UTC clock (CLOCK_REALTIME). The daemon's UTC comes from GPS; this is read only where a bench tool asks
/// for today's time (`cockpitd replay --retime now`), once, by the shell.
public enum WallClock {
    public static func now() -> UTCInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UTCInstant(secondsSinceEpoch: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }
}
