public import CockpitCore
public import CockpitWire

/// The cockpitd recording format (docs/recording-format.md): JSON lines, a header first, then one
/// raw input per line in arrival order.
public enum RecordingFormat {
    public static let formatName = "cockpitd-recording"
    /// 2: the header keeps every `recorded` setting as its text (`settings`). A version-1 header's `core.hypoxia`
    /// block is read as the four hypoxia settings it held; its profile was not kept (it replays as the replay's).
    public static let formatVersion: Int64 = 2

    public struct Header: Sendable, Equatable {
        public var softwareVersion: String
        /// Free-form device descriptions, e.g. {"gps": {"source": "gpsd", ...}, "baro": {...}}, with each source's
        /// recorded decoder state in its member (`InputDecoder.recordedState(addedTo:)`: the barometer's calibration).
        public var devices: JSONObject
        /// The core's timing (staleness, tick interval); what the settings decide is in `settings`.
        public var core: CoreConfiguration
        /// Every setting that changes the core's decisions, key and text, as each settings group declares it.
        public var settings: JSONObject
        /// The header's format version (1 for a recording made before `settings`).
        public var formatVersion: Int64
        /// The seed of the run's traffic identifiers (nil in a version-1 header): a replay draws the same identifiers,
        /// so its traffic reports are the flight's own, byte for byte.
        public var trafficIdentifierSeed: UInt64?

        public init(softwareVersion: String, devices: JSONObject, core: CoreConfiguration, settings: JSONObject = JSONObject()) {
            self.softwareVersion = softwareVersion
            self.devices = devices
            self.core = core
            self.settings = settings
            formatVersion = RecordingFormat.formatVersion
            trafficIdentifierSeed = core.traffic.identifierSeed
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notARecording
        case unsupportedVersion(Int64)
        case badLine(line: Int, reason: String)
        public var description: String {
            switch self {
            case .notARecording: "not a cockpitd recording (first line is not its header)"
            case .unsupportedVersion(let v): "recording format version \(v) is newer than this cockpitd understands (\(formatVersion))"
            case .badLine(let line, let reason): "recording line \(line): \(reason)"
            }
        }
    }

    // MARK: header

    public static func encodeHeader(_ header: Header) -> String {
        let object: JSONObject = [
            "format": .string(formatName),
            "formatVersion": .integer(formatVersion),
            "software": .string(header.softwareVersion),
            "timeUnit": .string("monotonic nanoseconds"),
            "devices": .object(header.devices),
            "core": .object([
                "gpsStaleAfterSeconds": .number(header.core.gpsStaleAfterSeconds),
                "baroStaleAfterSeconds": .number(header.core.baroStaleAfterSeconds),
                "tickIntervalSeconds": .number(header.core.tickIntervalSeconds),
                "trafficIdentifierSeed": header.trafficIdentifierSeed.map { .string(String($0, radix: 16)) } ?? .null,
            ]),
            "settings": .object(header.settings),
        ]
        return JSONWriter.string(.object(object))
    }

    public static func decodeHeader(_ line: String) throws(Failure) -> Header {
        guard let value = try? JSONParser.parse(line), value["format"]?.stringValue == formatName else {
            throw .notARecording
        }
        guard let version = value["formatVersion"]?.int64Value else { throw .badLine(line: 1, reason: "no formatVersion") }
        guard version <= formatVersion else { throw .unsupportedVersion(version) }
        var core = CoreConfiguration()
        var seed: UInt64?
        var settings = value["settings"]?.objectValue ?? JSONObject()
        if let object = value["core"] {
            if let v = object["gpsStaleAfterSeconds"]?.doubleValue, PlausibleRange.staleAfterSeconds.contains(v) { core.gpsStaleAfterSeconds = v }
            if let v = object["baroStaleAfterSeconds"]?.doubleValue, PlausibleRange.staleAfterSeconds.contains(v) { core.baroStaleAfterSeconds = v }
            if let v = object["tickIntervalSeconds"]?.doubleValue, PlausibleRange.tickIntervalSeconds.contains(v) { core.tickIntervalSeconds = v }
            if version < 2, let hypoxia = object["hypoxia"] { settings = versionOneHypoxia(hypoxia) }
            seed = object["trafficIdentifierSeed"]?.stringValue.flatMap { UInt64($0, radix: 16) }
        }
        let devices = value["devices"]?.objectValue ?? JSONObject()
        // Every source's recorded state must be readable by its decoder (the replay takes it back: `makeDecoder`).
        do { _ = try InputDecoder(recordedState: devices) } catch { throw .badLine(line: 1, reason: error.reason) }
        var header = Header(softwareVersion: value["software"]?.stringValue ?? "unknown", devices: devices,
                            core: core, settings: settings)
        header.formatVersion = version
        header.trafficIdentifierSeed = seed
        return header
    }

    /// A version-1 header's hypoxia block as the settings it held (`rules`, `hypoxia-alert-percent`, …).
    static func versionOneHypoxia(_ hypoxia: JSONValue) -> JSONObject {
        var settings = JSONObject()
        if let v = hypoxia["ruleSet"]?.stringValue { settings["rules"] = .string(v) }
        if let v = hypoxia["alertFraction"]?.doubleValue, v.isFinite, abs(v) < 1_000 {
            let percent = (v * 100 * 1_000).rounded() / 1_000
            settings["hypoxia-alert-percent"] = .string(percent == percent.rounded() ? String(Int(percent)) : String(percent))
        }
        if let v = hypoxia["useGPSAltitudeWhenCabinUnknown"]?.boolValue { settings["hypoxia-gps-fallback"] = .string(v ? "yes" : "no") }
        if let v = hypoxia["alertsEnabled"]?.boolValue { settings["no-hypoxia-alerts"] = .string(v ? "no" : "yes") }
        return settings
    }

    // MARK: events

    public static func encode(_ timed: TimedInput) -> String {
        var object: JSONObject = ["t": .integer(timed.time.nanoseconds)]
        switch timed.input {
        case .line(let source, let text):
            object["k"] = .string(source)
            object["line"] = .string(text)
        case .lineSourceLink(let source, .connected(let endpoint)):
            object["k"] = .string(linkKind(source) + ".connected")
            object["endpoint"] = .string(endpoint)
        case .lineSourceLink(let source, .disconnected(let reason)):
            object["k"] = .string(linkKind(source) + ".disconnected")
            object["reason"] = .string(reason)
        case .gpsFix(let fix):
            object["k"] = .string("fix")
            object["fix"] = .object(encode(fix))
        case .record(let wrapped):
            object["k"] = .string(wrapped.record.kind)
            for (key, value) in wrapped.record.fields.members { object[key] = value }
        case .command(let command):
            object["k"] = .string("command")
            object["command"] = .string(command.rawValue)
        case .muteTraffic(let seconds):
            object["k"] = .string("mute.traffic")
            object["seconds"] = .number(seconds)
        case .glideMacCready(let metersPerSecond):
            object["k"] = .string("glide.mc")
            object["metersPerSecond"] = .number(metersPerSecond)
        }
        return JSONWriter.string(.object(object))
    }

    /// The kind of the last line of a recording closed in order: when the recording ended (the daemon stopped, or the
    /// replay that recorded it reached its end). A replay runs its clock to it, so the seconds after the last input
    /// (ticks, GDL 90, a target ageing out) are replayed too.
    public static let endKind = "end"

    public static func encodeEnd(at time: MonotonicInstant) -> String {
        JSONWriter.string(.object(["t": .integer(time.nanoseconds), "k": .string(endKind)]))
    }

    /// The time of an end line, or nil for any other line.
    public static func decodeEnd(_ line: String) -> MonotonicInstant? {
        guard line.contains("\"k\":\"\(endKind)\""), let value = try? JSONParser.parse(line),
              value["k"]?.stringValue == endKind, let t = value["t"]?.int64Value, (0...maximumTimeNanoseconds).contains(t) else { return nil }
        return MonotonicInstant(nanoseconds: t)
    }

    /// The latest time an event may carry: 2⁶² ns, 146 years of a monotonic clock counted from boot. Beyond it the
    /// replay's clock and tick grid would approach 2⁶³ ns, where adding one interval wraps.
    public static let maximumTimeNanoseconds: Int64 = 1 << 62

    public static func decode(_ line: String, lineNumber: Int) throws(Failure) -> TimedInput {
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch { throw .badLine(line: lineNumber, reason: error.description) }
        guard let t = value["t"]?.int64Value else { throw .badLine(line: lineNumber, reason: "no integer \"t\"") }
        guard (0...maximumTimeNanoseconds).contains(t) else {
            throw .badLine(line: lineNumber, reason: "\"t\" \(t) outside 0…2⁶² ns (the monotonic clock since boot)")
        }
        guard let kind = value["k"]?.stringValue else { throw .badLine(line: lineNumber, reason: "no \"k\"") }
        func string(_ key: String) throws(Failure) -> String {
            guard let s = value[key]?.stringValue else { throw .badLine(line: lineNumber, reason: "\(kind) without \(key)") }
            return s
        }
        let input: RawInput
        switch kind {
        case let source where WireSources.isLineSource(source): input = .line(source: source, text: try string("line"))
        case let link where link.hasSuffix(".connected") && WireSources.lineSource(forLinkKind: String(link.dropLast(".connected".count))) != nil:
            let source = WireSources.lineSource(forLinkKind: String(link.dropLast(".connected".count)))?.source ?? ""
            input = .lineSourceLink(source: source, .connected(endpoint: try string("endpoint")))
        case let link where link.hasSuffix(".disconnected") && WireSources.lineSource(forLinkKind: String(link.dropLast(".disconnected".count))) != nil:
            let source = WireSources.lineSource(forLinkKind: String(link.dropLast(".disconnected".count)))?.source ?? ""
            input = .lineSourceLink(source: source, .disconnected(reason: try string("reason")))
        case "fix":
            guard let object = value["fix"]?.objectValue, let fix = decodeFix(object) else {
                throw .badLine(line: lineNumber, reason: "bad fix")
            }
            input = .gpsFix(fix)
        case "command":
            guard let command = Command(rawValue: try string("command")) else {
                throw .badLine(line: lineNumber, reason: "unknown command")
            }
            input = .command(command)
        case "mute.traffic":
            guard let seconds = value["seconds"]?.doubleValue, seconds.isFinite, (0...86_400).contains(seconds) else {
                throw .badLine(line: lineNumber, reason: "bad mute.traffic seconds")
            }
            input = .muteTraffic(seconds: seconds)
        case "glide.mc":
            guard let value = value["metersPerSecond"]?.doubleValue, value.isFinite, (0...GlideConfiguration.maximumMacCready).contains(value) else {
                throw .badLine(line: lineNumber, reason: "bad glide.mc metersPerSecond")
            }
            input = .glideMacCready(metersPerSecond: value)
        default:
            // A record source's kind (`WireSources.all`): the source reads its own fields.
            guard let type = WireSources.recordType(forKind: kind) else {
                throw .badLine(line: lineNumber, reason: "unknown kind \"\(kind)\"")
            }
            var fields = value.objectValue ?? JSONObject()
            fields["t"] = nil
            fields["k"] = nil
            do {
                input = .record(SourceRecord(try type.init(kind: kind, fields: fields)))
            } catch {
                throw .badLine(line: lineNumber, reason: error.reason)
            }
        }
        return TimedInput(time: MonotonicInstant(nanoseconds: t), input: input)
    }

    /// The kind of a line source's connection changes (`WireLineDecoder.linkKind`: gpsd's are `gps.connected`, …).
    static func linkKind(_ source: String) -> String {
        WireSources.lineSources.first { $0.source == source }?.linkKind ?? source
    }

    static func encode(_ fix: GPSFix) -> JSONObject {
        func num(_ v: Double?) -> JSONValue { v.map(JSONValue.number) ?? .null }
        return [
            "utc": fix.utc.map { .number($0.secondsSinceEpoch) } ?? .null,
            "mode": .integer(Int64(fix.mode.rawValue)),
            "lat": num(fix.latitudeDegrees), "lon": num(fix.longitudeDegrees),
            "altMSL": num(fix.altitudeMSLMeters), "altHAE": num(fix.altitudeHAEMeters),
            "speed": num(fix.groundSpeedMetersPerSecond), "track": num(fix.trackTrueDegrees),
            "climb": num(fix.climbMetersPerSecond), "eph": num(fix.horizontalErrorMeters),
            "epv": num(fix.verticalErrorMeters),
        ]
    }

    static func decodeFix(_ object: JSONObject) -> GPSFix? {
        guard let modeValue = object["mode"]?.int64Value, let mode = GPSFixMode(rawValue: Int(modeValue)) else { return nil }
        func num(_ key: String) -> Double? { object[key]?.doubleValue }
        return GPSFix(utc: num("utc").map(UTCInstant.init(secondsSinceEpoch:)), mode: mode,
                      latitudeDegrees: num("lat"), longitudeDegrees: num("lon"),
                      altitudeMSLMeters: num("altMSL"), altitudeHAEMeters: num("altHAE"),
                      groundSpeedMetersPerSecond: num("speed"), trackTrueDegrees: num("track"),
                      climbMetersPerSecond: num("climb"), horizontalErrorMeters: num("eph"),
                      verticalErrorMeters: num("epv"))
    }
}
