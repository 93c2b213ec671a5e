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
        /// Free-form device descriptions, e.g. {"gps": {"source": "gpsd", ...}, "baro": {...}}.
        public var devices: JSONObject
        public var baroCalibration: BMP280Calibration?
        /// The core's timing (staleness, tick interval); what the settings decide is in `settings`.
        public var core: CoreConfiguration
        /// Every setting that changes the core's decisions, key and text, as each settings group declares it.
        public var settings: JSONObject
        /// The header's format version (1 for a recording made before `settings`).
        public var formatVersion: Int64
        /// The seed of the run's traffic identifiers (nil in a version-1 header): a replay draws the same identifiers,
        /// so its traffic reports are the flight's own, byte for byte.
        public var trafficIdentifierSeed: UInt64?

        public init(softwareVersion: String, devices: JSONObject, baroCalibration: BMP280Calibration?,
                    core: CoreConfiguration, settings: JSONObject = JSONObject()) {
            self.softwareVersion = softwareVersion
            self.devices = devices
            self.baroCalibration = baroCalibration
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
        var baro = header.devices["baro"]?.objectValue ?? JSONObject()
        if let calibration = header.baroCalibration { baro["calibrationHex"] = .string(Hex.encode(calibration.registerBytes)) }
        var devices = header.devices
        if !baro.members.isEmpty { devices["baro"] = .object(baro) }
        let object: JSONObject = [
            "format": .string(formatName),
            "formatVersion": .integer(formatVersion),
            "software": .string(header.softwareVersion),
            "timeUnit": .string("monotonic nanoseconds"),
            "devices": .object(devices),
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
        var calibration: BMP280Calibration?
        if let hex = devices["baro"]?["calibrationHex"]?.stringValue {
            guard let bytes = Hex.decode(hex), let decoded = try? BMP280Calibration(registerBytes: bytes) else {
                throw .badLine(line: 1, reason: "bad baro calibrationHex")
            }
            calibration = decoded
        }
        var header = Header(softwareVersion: value["software"]?.stringValue ?? "unknown", devices: devices,
                            baroCalibration: calibration, core: core, settings: settings)
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
            object["k"] = .string(source + ".connected")
            object["endpoint"] = .string(endpoint)
        case .lineSourceLink(let source, .disconnected(let reason)):
            object["k"] = .string(source + ".disconnected")
            object["reason"] = .string(reason)
        case .gpsFix(let fix):
            object["k"] = .string("fix")
            object["fix"] = .object(encode(fix))
        case .gpsSource(.connected(let endpoint)):
            object["k"] = .string("gps.connected")
            object["endpoint"] = .string(endpoint)
        case .gpsSource(.disconnected(let reason)):
            object["k"] = .string("gps.disconnected")
            object["reason"] = .string(reason)
        case .baroADC(let adcT, let adcP):
            object["k"] = .string("baro.adc")
            object["adcT"] = .integer(Int64(adcT))
            object["adcP"] = .integer(Int64(adcP))
        case .baroCalibration(let bytes):
            object["k"] = .string("baro.calibration")
            object["hex"] = .string(Hex.encode(bytes))
        case .baroPressure(let pressure, let temperature):
            object["k"] = .string("baro.pressure")
            object["pressurePa"] = .number(pressure)
            object["temperatureC"] = temperature.map(JSONValue.number) ?? .null
        case .baroSource(.present(let description)):
            object["k"] = .string("baro.present")
            object["description"] = .string(description)
        case .baroSource(.absent(let reason)):
            object["k"] = .string("baro.absent")
            object["reason"] = .string(reason)
        case .baroSource(.readError(let reason)):
            object["k"] = .string("baro.error")
            object["reason"] = .string(reason)
        case .datagram(let bytes, let from):
            object["k"] = .string("datagram")
            object["from"] = .string(from)
            object["hex"] = .string(Hex.encode(bytes))
        case .command(let command):
            object["k"] = .string("command")
            object["command"] = .string(command.rawValue)
        case .muteTraffic(let seconds):
            object["k"] = .string("mute.traffic")
            object["seconds"] = .number(seconds)
        }
        return JSONWriter.string(.object(object))
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
        case let source where WireLineSources.isRegistered(source): input = .line(source: source, text: try string("line"))
        case let link where link.hasSuffix(".connected") && WireLineSources.isRegistered(String(link.dropLast(".connected".count))):
            input = .lineSourceLink(source: String(link.dropLast(".connected".count)), .connected(endpoint: try string("endpoint")))
        case let link where link.hasSuffix(".disconnected") && WireLineSources.isRegistered(String(link.dropLast(".disconnected".count))):
            input = .lineSourceLink(source: String(link.dropLast(".disconnected".count)), .disconnected(reason: try string("reason")))
        case "fix":
            guard let object = value["fix"]?.objectValue, let fix = decodeFix(object) else {
                throw .badLine(line: lineNumber, reason: "bad fix")
            }
            input = .gpsFix(fix)
        case "gps.connected": input = .gpsSource(.connected(endpoint: try string("endpoint")))
        case "gps.disconnected": input = .gpsSource(.disconnected(reason: try string("reason")))
        case "baro.adc":
            guard let adcT = value["adcT"]?.int64Value, let adcP = value["adcP"]?.int64Value,
                  let t32 = Int32(exactly: adcT), let p32 = Int32(exactly: adcP) else {
                throw .badLine(line: lineNumber, reason: "bad baro.adc")
            }
            input = .baroADC(adcT: t32, adcP: p32)
        case "baro.calibration":
            guard let bytes = Hex.decode(try string("hex")), bytes.count == BMP280Calibration.registerCount else {
                throw .badLine(line: lineNumber, reason: "bad baro.calibration")
            }
            input = .baroCalibration(registerBytes: bytes)
        case "baro.pressure":
            guard let pressure = value["pressurePa"]?.doubleValue else { throw .badLine(line: lineNumber, reason: "bad baro.pressure") }
            input = .baroPressure(pressurePascals: pressure, temperatureCelsius: value["temperatureC"]?.doubleValue)
        case "baro.present": input = .baroSource(.present(description: try string("description")))
        case "baro.absent": input = .baroSource(.absent(reason: try string("reason")))
        case "baro.error": input = .baroSource(.readError(reason: try string("reason")))
        case "datagram":
            guard let bytes = Hex.decode(try string("hex")) else { throw .badLine(line: lineNumber, reason: "bad hex") }
            input = .datagram(bytes: bytes, from: try string("from"))
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
        default:
            throw .badLine(line: lineNumber, reason: "unknown kind \"\(kind)\"")
        }
        return TimedInput(time: MonotonicInstant(nanoseconds: t), input: input)
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

/// Lower-case hexadecimal without separators.
public enum Hex {
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8).filter { $0 != 0x20 && $0 != 0x3A }
        guard chars.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
