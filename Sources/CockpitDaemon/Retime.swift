public import CockpitCore

/// `cockpitd replay --retime now`: moves every GPS time of the replayed flight by one offset, so that its first fix
/// is at a given instant (the wall clock's now, read once by the shell as the replay starts). A relay checks report
/// times against its own clock, so two recorded flights flown against each other through it must both be of today.
/// The offset is whole seconds: the fixes keep their place within the second.
public final class RetimeEnricher: EventEnricher {
    /// When the first fix is to be.
    public let firstFixAt: UTCInstant
    /// The offset applied, set by the first fix with a time (nil until then).
    public private(set) var offsetSeconds: Double?

    public init(firstFixAt: UTCInstant) { self.firstFixAt = firstFixAt }

    public func enrich(_ event: inout Event, emit: (Event) -> Void) {
        guard case .gps(.fix(var fix)) = event, let utc = fix.utc else { return }
        let offset = offsetSeconds ?? firstFixAt.seconds(since: utc).rounded()
        offsetSeconds = offset
        fix.utc = utc.adding(seconds: offset)
        event = .gps(.fix(fix))
    }
}

extension RetimeEnricher {
    /// The `--retime` value: "now" (the instant the shell read as the replay started), or an ISO 8601 UTC time.
    public static func target(_ text: String, now: UTCInstant) -> UTCInstant? {
        text == "now" ? now : UTCInstant.parseISO8601(text)
    }
}
