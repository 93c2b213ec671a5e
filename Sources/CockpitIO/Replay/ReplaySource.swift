public import CockpitCore
public import CockpitWire

/// Where replayed inputs come from. Every format yields raw inputs in time order; the runner feeds
/// them through the same decoder and core as live mode.
public protocol ReplaySource: AnyObject {
    /// "recording", "gpspipe" or "igc".
    var format: String { get }
    /// Core settings appropriate to the source (a recording's own, or ones fitted to an IGC fix interval).
    var coreConfiguration: CoreConfiguration { get }
    /// The sources' decoder state the file carries (a recording's header `devices`; none for other formats).
    var recordedSourceState: JSONObject { get }
    /// Lines that could not be read (counted, never fatal).
    var skippedLines: Int { get }
    var lastSkipReason: String? { get }
    /// When the recorded data ended, if the file says (a recording's end line), once `next()` has returned nil; a
    /// replay runs its clock to it. Nil: the data ended with its last input.
    var endTime: MonotonicInstant? { get }
    func next() throws(SystemError) -> TimedInput?
}

extension ReplaySource {
    public var endTime: MonotonicInstant? { nil }
    public var recordedSourceState: JSONObject { JSONObject() }

    /// The decoder a replay of this file starts with: every source's decoder with the state the file carries (checked
    /// when the header was read, so it is taken back whole here).
    public func makeDecoder() -> InputDecoder {
        (try? InputDecoder(recordedState: recordedSourceState)) ?? InputDecoder()
    }
}

public enum ReplaySourceError: Error, CustomStringConvertible {
    case unreadable(SystemError)
    case unrecognised(String)
    /// Raw NMEA sentences (a receiver capture, a gpsd test log): what gpsd reads, not what it reports.
    case rawNMEA(String)
    case invalid(String)
    public var description: String {
        switch self {
        case .unreadable(let error): "cannot read replay file: \(error)"
        case .unrecognised(let path): "\(path): not a cockpitd recording, gpspipe -w log or IGC file"
        case .rawNMEA(let path):
            "\(path): raw NMEA sentences (a receiver capture or a gpsd test log), not gpsd's reports. cockpitd replays what "
                + "gpsd reports, decoded by libgps as in the aircraft, so let gpsd read it first: "
                + "WRITE_PAD=0.005 gpsfake -1 -p -q -r '?WATCH={\"json\":true}' \(Self.shellWord(path)) > \(Self.shellWord(path + ".jsonl")) "
                + "(Debian package gpsd-clients), then replay the .jsonl"
        case .invalid(let reason): reason
        }
    }

    /// `path` as one word for a POSIX shell, so the printed command can be pasted as it is: plain when it holds only
    /// characters no shell treats specially, else in single quotes (a quote inside written as '\'').
    static func shellWord(_ path: String) -> String {
        let plain = !path.isEmpty && path.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return plain ? path : "'" + path.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}

public enum ReplaySources {
    /// Opens a replay file, detecting its format from its first bytes.
    public static func open(path: String) throws(ReplaySourceError) -> any ReplaySource {
        let reader: LineReader
        do { reader = try LineReader(path: path) } catch { throw .unreadable(error) }
        let first: LineReader.Line?
        do { first = try reader.next() } catch { throw .unreadable(error) }
        guard let first else { throw .unrecognised(path) }
        let firstText = first.text
        if firstText.contains("\"\(RecordingFormat.formatName)\"") {
            do {
                let header = try RecordingFormat.decodeHeader(firstText)
                return RecordingSource(reader: reader, header: header)
            } catch { throw .invalid(error.description) }
        }
        if firstText.first == "A" || firstText.hasPrefix("H") || firstText.hasPrefix("B") {
            let bytes: [UInt8]
            do { bytes = try LineReader.readAll(path: path) } catch { throw .unreadable(error) }
            guard IGCParser.looksLikeIGC(bytes) else { throw .unrecognised(path) }
            do { return IGCSource(flight: try IGCParser.parse(bytes)) } catch { throw .invalid(error.description) }
        }
        // gpspipe logs and gpsd's test logs may both open with comments: the first line with content decides.
        var content: String? = firstText
        var looked = 0
        while let text = content, text.isEmpty || text.hasPrefix("#"), looked < 1_000 {
            looked += 1
            do { content = try reader.next()?.text } catch { throw .unreadable(error) }
        }
        if let content, content.hasPrefix("$") || content.hasPrefix("!") { throw .rawNMEA(path) }
        if firstText.contains("{\"class\"") || firstText.hasPrefix("#") || firstText.isEmpty {
            do { return GpspipeSource(reader: try LineReader(path: path)) } catch { throw .unreadable(error) }
        }
        throw .unrecognised(path)
    }
}

/// An IGC flight, parsed whole (IGC files are small).
public final class IGCSource: ReplaySource {
    public let flight: IGCFlight
    private var index = 0
    public let format = "igc"
    public var skippedLines: Int { flight.skippedLines }
    public var lastSkipReason: String? { flight.skippedLines > 0 ? "malformed B record" : nil }

    public init(flight: IGCFlight) { self.flight = flight }

    /// Loggers record every 1–8 s: a fix or pressure sample is stale only after 1.5 fix intervals
    /// (but never sooner than the live defaults).
    public var coreConfiguration: CoreConfiguration {
        var configuration = CoreConfiguration()
        let interval = flight.medianFixIntervalSeconds
        configuration.gpsStaleAfterSeconds = max(configuration.gpsStaleAfterSeconds, 1.5 * interval)
        configuration.baroStaleAfterSeconds = max(configuration.baroStaleAfterSeconds, 1.5 * interval)
        configuration.glide.gliderTypeFromFile = flight.gliderType
        return configuration
    }

    private var queued: [TimedInput] = []
    private var queuedIndex = 0

    /// Inputs are generated one B record at a time, so a long flight never sits in memory twice.
    public func next() -> TimedInput? {
        if queuedIndex < queued.count {
            defer { queuedIndex += 1 }
            return queued[queuedIndex]
        }
        guard index < flight.bRecords else { return nil }
        queued = flight.inputs(at: index)
        queuedIndex = 1
        index += 1
        return queued[0]
    }
}

/// A cockpitd recording, streamed line by line. A damaged or cut-off line is skipped and counted.
public final class RecordingSource: ReplaySource {
    private let reader: LineReader
    public let header: RecordingFormat.Header
    public let format = "recording"
    public private(set) var skippedLines = 0
    public private(set) var lastSkipReason: String?
    private var lastTime = MonotonicInstant.zero
    public private(set) var endTime: MonotonicInstant?

    init(reader: LineReader, header: RecordingFormat.Header) {
        self.reader = reader
        self.header = header
    }

    public var coreConfiguration: CoreConfiguration { header.core }
    public var recordedSourceState: JSONObject { header.devices }

    public func next() throws(SystemError) -> TimedInput? {
        while let line = try reader.next() {
            if line.bytes.isEmpty && !line.truncated { continue }
            if let end = RecordingFormat.decodeEnd(line.text) {
                endTime = max(end, lastTime)
                continue
            }
            do {
                var timed = try RecordingFormat.decode(line.text, lineNumber: line.number)
                if timed.time < lastTime { timed.time = lastTime }
                lastTime = timed.time
                return timed
            } catch {
                skippedLines += 1
                lastSkipReason = error.description
            }
        }
        return nil
    }
}

/// A plain `gpspipe -w` log (optionally with gpspipe's `-u`/`-uu` epoch prefix). Lines have no
/// arrival times, so time is taken from the TPV `time` field: steps backwards or of more than an hour
/// (receiver clock jumps, logs spliced together) count as one second.
public final class GpspipeSource: ReplaySource {
    private let reader: LineReader
    public let format = "gpspipe"
    public var coreConfiguration: CoreConfiguration { CoreConfiguration() }
    public private(set) var skippedLines = 0
    public private(set) var lastSkipReason: String?
    private var monotonic = MonotonicInstant.zero
    private var lastUTC: UTCInstant?

    init(reader: LineReader) { self.reader = reader }

    public func next() throws(SystemError) -> TimedInput? {
        while let line = try reader.next() {
            if line.truncated {
                skippedLines += 1
                lastSkipReason = "line \(line.number) longer than \(reader.maximumLineBytes) bytes"
                continue
            }
            var text = line.text
            if text.isEmpty || text.hasPrefix("#") { continue }
            var arrival: Double?
            if let brace = text.firstIndex(of: "{"), brace != text.startIndex {
                let prefix = text[text.startIndex..<brace].trimmingSuffix(while: { $0 == " " || $0 == ":" })
                arrival = Double(prefix)
                text = String(text[brace...])
            }
            if let arrival {
                let utc = UTCInstant(secondsSinceEpoch: arrival)
                advance(to: utc)
            } else if let utc = Self.tpvTime(text) {
                advance(to: utc)
            }
            return TimedInput(time: monotonic, input: .gpsdLine(text))
        }
        return nil
    }

    private func advance(to utc: UTCInstant) {
        if let last = lastUTC {
            let step = utc.seconds(since: last)
            monotonic = monotonic.adding(seconds: step >= 0 && step <= 3600 ? step : 1)
        }
        lastUTC = utc
    }

    /// The `"time":"…"` of a TPV line, found without a full parse.
    static func tpvTime(_ text: String) -> UTCInstant? {
        guard text.contains("\"class\":\"TPV\""), let range = text.firstRange(of: "\"time\":\"") else { return nil }
        let rest = text[range.upperBound...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return UTCInstant.parseISO8601(String(rest[..<close]))
    }
}

extension Substring {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }
}
