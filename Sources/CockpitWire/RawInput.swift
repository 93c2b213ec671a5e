public import CockpitCore

/// An input exactly as it reached the daemon, before any interpretation. This is what a recording
/// stores, so that replay runs every decoding and compensation step again through the same code.
public enum RawInput: Sendable, Equatable {
    /// One line of a line-oriented source, verbatim as it arrived (its terminator stripped): gpsd's JSON reports
    /// (`source` "gpsd"), and every line source of `WireSources.all`, decoded by that source's decoder.
    case line(source: String, text: String)
    /// A line source's connection came or went (its adapter says so; the decoder turns it into the core's event).
    case lineSourceLink(source: String, LineSourceLink)
    /// A fix from a source that is not gpsd (an IGC B record), already in core units.
    case gpsFix(GPSFix)
    /// A raw record of a source whose input is not lines of text (the barometer's `BaroRecord`, the traffic port's
    /// `TrafficDatagram`), decoded by that source's decoder (`WireSources.all`).
    case record(SourceRecord)
    case command(Command)
    /// Traffic callouts silenced for this long (`cockpitctl alerts mute traffic 5m`, the button held); 0 lifts it.
    case muteTraffic(seconds: Double)
    /// The MacCready value set in flight (`cockpitctl glide mc 1.5`), m/s.
    case glideMacCready(metersPerSecond: Double)
}

/// A line source's connection to its server or device.
public enum LineSourceLink: Sendable, Equatable {
    case connected(endpoint: String)
    case disconnected(reason: String)
}

extension RawInput {
    /// One gpsd report line.
    public static func gpsdLine(_ text: String) -> RawInput { .line(source: GPSDWireDecoder.source, text: text) }

    /// One source's record.
    public static func record(_ record: some WireRecord) -> RawInput { .record(SourceRecord(record)) }

    /// The input source whose read this is, if a registered source's (`WireSources`): a line's, a record's. A line
    /// source's connection change is its adapter's own event, not something it read: nil, as for the inputs that are
    /// no source's.
    public var sourceName: String? {
        switch self {
        case .line(let source, _): source
        case .record(let wrapped): type(of: wrapped.record).source
        case .lineSourceLink, .gpsFix, .command, .muteTraffic, .glideMacCready: nil
        }
    }

    /// The record inside, if this is a record of type `type`.
    public func record<R: WireRecord>(_ type: R.Type) -> R? {
        guard case .record(let wrapped) = self else { return nil }
        return wrapped.record as? R
    }
}

/// A raw input with the monotonic time it arrived.
public struct TimedInput: Sendable, Equatable {
    public var time: MonotonicInstant
    public var input: RawInput
    public init(time: MonotonicInstant, input: RawInput) { self.time = time; self.input = input }
}
