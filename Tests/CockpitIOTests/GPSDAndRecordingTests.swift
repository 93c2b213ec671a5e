import Glibc
import Testing
import CockpitCore
@testable import CockpitIO
import CockpitTestSupport
@testable import CockpitWire

@Suite("gpsd reports through libgps gps_unpack")
struct GPSDReportDecoderTests {
    let decoder = GPSDReportDecoder()

    @Test func tpvFromRealGpsd() throws {
        // A TPV line as gpsd 3.22 wrote it (shared/reference/gpsd-and-libgps.md).
        let line = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2024-04-03T12:00:01.000Z","ept":0.005,"lat":46.209683333,"lon":12.828316667,"altHAE":1088.5472,"altMSL":1045.0000,"alt":1045.0000,"track":242.7000,"magtrack":246.2372,"magvar":3.5,"speed":10.083,"climb":-1.000,"geoidSep":43.547,"eph":19.000}"#
        guard case .fix(let fix) = decoder.decode(line) else { Issue.record("not a fix"); return }
        #expect(fix.mode == .threeDimensional)
        #expect(fix.utc?.iso8601 == "2024-04-03T12:00:01Z")
        #expect(fix.latitudeDegrees == 46.209683333)
        #expect(fix.longitudeDegrees == 12.828316667)
        #expect(fix.altitudeMSLMeters == 1045.0)
        #expect(fix.altitudeHAEMeters == 1088.5472)
        #expect(fix.groundSpeedMetersPerSecond == 10.083)
        #expect(fix.trackTrueDegrees == 242.7)
        #expect(fix.climbMetersPerSecond == -1.0)
        #expect(fix.horizontalErrorMeters == 19.0)
        #expect(fix.verticalErrorMeters == nil, "epv was not sent: it must stay unknown, not 0")
    }

    @Test func missingValuesStayUnknown() {
        guard case .fix(let fix) = decoder.decode(#"{"class":"TPV","mode":1}"#) else { Issue.record("not a fix"); return }
        #expect(fix.mode == .noFix)
        #expect(fix.latitudeDegrees == nil && fix.groundSpeedMetersPerSecond == nil && fix.altitudeMSLMeters == nil)
    }

    @Test func skyGivesSatelliteCounts() {
        let line = #"{"class":"SKY","device":"/dev/ttyACM0","nSat":3,"uSat":2,"satellites":[{"PRN":5,"el":40.0,"az":83.0,"ss":30.0,"used":true},{"PRN":7,"el":20.0,"az":150.0,"ss":25.0,"used":true},{"PRN":9,"el":10.0,"az":250.0,"ss":12.0,"used":false}]}"#
        #expect(decoder.decode(line) == .satellites(SatelliteCounts(used: 2, visible: 3, device: "/dev/ttyACM0")))
    }

    @Test func receiverStatusAndDeviceAreDecoded() {
        // What gpsd 3.22 sends for GGA fix quality 6 with RMC mode indicator E (an estimated, dead-reckoned fix):
        // "status":5, which gpsd_json(5) defines as "DR fix". The device names the receiver (a UDP feed here).
        let line = #"{"class":"TPV","device":"udp://127.0.0.1:29493","status":5,"mode":3,"time":"2024-04-03T12:00:01.000Z","lat":47.0,"lon":8.03,"altHAE":1548.5,"altMSL":1500.0,"alt":1500.0,"track":0.0,"speed":51.444}"#
        guard case .fix(let fix) = decoder.decode(line) else { Issue.record("not a fix"); return }
        #expect(fix.receiverStatus == .deadReckoning)
        #expect(fix.receiverStatus?.measuresPosition == false)
        #expect(fix.device == "udp://127.0.0.1:29493")
        guard case .fix(let plain) = decoder.decode(#"{"class":"TPV","mode":3,"status":2,"lat":47.0,"lon":8.0}"#) else { return }
        #expect(plain.receiverStatus == .dgps && plain.device == nil)
    }

    /// Values outside what a receiver can report are passed on as reported, for the core to refuse and count
    /// (PlausibleRange); the decoder must not turn latitude 91 into "no fix" or a negative speed into "unknown".
    @Test func valuesOutOfRangeArePassedOnAsReportedNotHidden() {
        let base = #"{"class":"TPV","mode":3,"time":"2024-04-03T12:00:01.000Z","lat":46.2,"lon":12.8,"speed":10.0,"track":240.0}"#
        func fix(_ from: String, _ to: String) -> GPSFix? {
            guard case .fix(let fix) = decoder.decode(base.replacing(from, with: to)) else { return nil }
            return fix
        }
        #expect(fix(#""lat":46.2"#, #""lat":91.0"#)?.latitudeDegrees == 91.0)
        #expect(fix(#""lat":46.2"#, #""lat":91.0"#)?.mode == .threeDimensional)
        #expect(fix(#""lon":12.8"#, #""lon":-200.5"#)?.longitudeDegrees == -200.5)
        #expect(fix(#""speed":10.0"#, #""speed":-5.0"#)?.groundSpeedMetersPerSecond == -5.0)
        #expect(fix(#""track":240.0"#, #""track":720.0"#)?.trackTrueDegrees == 720.0)
        // gpsd's modes are 0…3 (gps.h: MODE_NOT_SEEN 0 … MODE_3D 3).
        guard case .malformed(let reason) = decoder.decode(base.replacing(#""mode":3"#, with: #""mode":4"#)) else {
            Issue.record("mode 4 was not refused"); return
        }
        #expect(reason == "TPV with unknown mode 4")
    }

    @Test(arguments: ["garbage", "{\"class\":\"TPV\",\"mode\":", "[1,2]", "{\"lat\":1}", "", String(repeating: "x", count: 1_000_000)])
    func garbageIsMalformed(_ line: String) {
        guard case .malformed = decoder.decode(line) else { Issue.record("accepted \(line.prefix(40))"); return }
    }

    @Test func otherClassesAreIgnored() {
        #expect(decoder.decode(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)
                == .ignored(reportClass: "VERSION"))
    }

    @Test func gpspipeLogFromRealGpsd() throws {
        let source = try #require(try ReplaySources.open(path: Fixtures.path("flights/gpsd-3.22__bundg_zeus_9.gpspipe.jsonl")) as? GpspipeSource)
        var lines = 0, fixes = 0, malformed = 0
        var last = MonotonicInstant.zero
        var lastFix: GPSFix?
        while let timed = try source.next() {
            lines += 1
            #expect(timed.time >= last)
            last = timed.time
            guard case .line(source: "gpsd", let line) = timed.input else { continue }
            switch decoder.decode(line) {
            case .fix(let fix) where fix.hasValidPosition: fixes += 1; lastFix = fix
            case .malformed: malformed += 1
            default: break
            }
        }
        #expect(lines == 2633)
        #expect(fixes == 2484)
        #expect(malformed == 0)
        // Last TPV of the capture: 2018-08-20T09:50:04Z at 52.847881667 N 5.308456667 E, 2.692 m/s.
        #expect(lastFix?.utc?.iso8601 == "2018-08-20T09:50:04Z")
        #expect(lastFix?.latitudeDegrees == 52.847881667)
        #expect(lastFix?.groundSpeedMetersPerSecond == 2.692)
    }
}

@Suite("Recording format and recorder")
struct RecordingTests {
    static let allInputs: [RawInput] = [
        .gpsdLine(#"{"class":"TPV","mode":3,"lat":1.5}"#),
        .gpsFix(GPSFix(utc: UTCInstant(secondsSinceEpoch: 1_500_000_000.25), mode: .threeDimensional,
                       latitudeDegrees: -33.123456789, longitudeDegrees: 151.1, altitudeHAEMeters: 123.4,
                       groundSpeedMetersPerSecond: 0.1 + 0.2, trackTrueDegrees: 359.9)),
        .lineSourceLink(source: "gpsd", .connected(endpoint: "localhost:2947")),
        .lineSourceLink(source: "gpsd", .disconnected(reason: "connection refused")),
        .baroADC(adcT: 519_888, adcP: 415_148),
        .baroCalibration(registerBytes: Hex.decode("706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017")!),
        .baroPressure(pressurePascals: 100_653.2539, temperatureCelsius: nil),
        .baroSource(.present(description: "BMP280 at 0x76 on /dev/i2c-1")),
        .baroSource(.absent(reason: "ENXIO")),
        .baroSource(.readError(reason: "EIO")),
        .datagram(bytes: [0, 1, 0xFE, 0xFF], from: "127.0.0.1:4000"),
        .command(.acknowledgeHypoxia),
    ]

    @Test func everyInputKindRoundTripsExactly() throws {
        for (index, input) in Self.allInputs.enumerated() {
            let timed = TimedInput(time: MonotonicInstant(nanoseconds: 1_000_000_007 * Int64(index + 1)), input: input)
            let line = RecordingFormat.encode(timed)
            #expect(!line.contains("\n"))
            #expect(try RecordingFormat.decode(line, lineNumber: 2) == timed)
        }
    }

    /// Record lines as docs/recording-format.md shows them and as earlier builds wrote them read back to the same
    /// values; a record with a bad field is refused with its line number and a reason, never read as something else.
    @Test func recordLinesAsDocumentedReadBackAndBadOnesAreRefused() throws {
        let adc = try RecordingFormat.decode(#"{"t":1050000000,"k":"baro.adc","adcT":519888,"adcP":415148}"#, lineNumber: 3)
        #expect(adc == TimedInput(time: MonotonicInstant(nanoseconds: 1_050_000_000), input: .baroADC(adcT: 519_888, adcP: 415_148)))
        let datagram = try RecordingFormat.decode(#"{"t":7,"k":"datagram","from":"192.0.2.1:4000","hex":"c101"}"#, lineNumber: 4)
        #expect(datagram.input.record(TrafficDatagram.self) == TrafficDatagram(bytes: [0xC1, 0x01], from: "192.0.2.1:4000"))
        let pressure = try RecordingFormat.decode(#"{"t":8,"k":"baro.pressure","pressurePa":101325,"temperatureC":null}"#, lineNumber: 5)
        #expect(pressure.input.record(BaroRecord.self) == .pressure(pressurePascals: 101_325, temperatureCelsius: nil))
        let refused: [(String, String)] = [
            (#"{"t":1,"k":"baro.adc","adcT":"519888","adcP":415148}"#, "bad baro.adc"),
            (#"{"t":1,"k":"baro.adc","adcT":4294967296,"adcP":415148}"#, "bad baro.adc"),
            (#"{"t":1,"k":"baro.calibration","hex":"706b"}"#, "bad baro.calibration"),
            (#"{"t":1,"k":"baro.absent"}"#, "baro.absent without reason"),
            (#"{"t":1,"k":"datagram","from":"192.0.2.1:4000","hex":"c1z1"}"#, "bad hex"),
            (#"{"t":1,"k":"datagram","hex":"c101"}"#, "datagram without from"),
        ]
        for (line, reason) in refused {
            #expect(throws: RecordingFormat.Failure.badLine(line: 9, reason: reason), "\(line)") {
                try RecordingFormat.decode(line, lineNumber: 9)
            }
        }
    }

    @Test func headerCarriesCalibrationAndCoreSettings() throws {
        let calibration = try BMP280Calibration(registerBytes: Hex.decode("706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017")!)
        var core = CoreConfiguration()
        core.gpsStaleAfterSeconds = 12
        var decoder = InputDecoder()
        decoder.update(BaroWireDecoder.self) { $0.calibration = calibration }
        let devices = decoder.recordedState(addedTo: ["gps": .object(["source": .string("gpsd")]), "baro": .object(["source": .string("i2c")])])
        let header = RecordingFormat.Header(softwareVersion: "cockpitd test", devices: devices, core: core)
        let text = RecordingFormat.encodeHeader(header)
        // On disk as before: the calibration's 24 register bytes in hex beside the barometer's description.
        #expect(text.contains(#""baro":{"source":"i2c","calibrationHex":"706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017"}"#))
        let decoded = try RecordingFormat.decodeHeader(text)
        #expect(try InputDecoder(recordedState: decoded.devices).decoder(BaroWireDecoder.self)?.calibration == calibration)
        #expect(throws: RecordingFormat.Failure.badLine(line: 1, reason: "bad baro calibrationHex")) {
            try RecordingFormat.decodeHeader(#"{"format":"cockpitd-recording","formatVersion":2,"devices":{"baro":{"calibrationHex":"70"}}}"#)
        }
        #expect(decoded.core.gpsStaleAfterSeconds == 12)
        #expect(throws: RecordingFormat.Failure.unsupportedVersion(99)) {
            try RecordingFormat.decodeHeader(#"{"format":"cockpitd-recording","formatVersion":99}"#)
        }
    }

    static func header() -> RecordingFormat.Header {
        RecordingFormat.Header(softwareVersion: "test", devices: JSONObject(), core: CoreConfiguration())
    }

    @Test func aFullDiskAtStartFailsClearly() throws {
        // /dev/full accepts open() and fails every write with ENOSPC — a full disk on demand.
        let stopped = StopFlag()
        #expect(throws: SystemError.self) {
            _ = try Recorder(path: "/dev/full", header: Self.header()) { stopped.set($0) }
        }
    }

    @Test func sizeLimitStopsRecordingButKeepsWhatWasWritten() throws {
        let path = "/tmp/cockpitd-test-\(getpid())-limit.jsonl"
        defer { unlink(path) }
        let stopped = StopFlag()
        let recorder = try Recorder(path: path, header: Self.header(), sizeLimitBytes: 4_000) { stopped.set($0) }
        for index in 0..<200 {
            recorder.append(TimedInput(time: MonotonicInstant(seconds: Double(index)), input: .baroADC(adcT: 519_888, adcP: 415_148)))
        }
        recorder.close()
        let status = recorder.status
        #expect(status.stoppedReason?.contains("size limit") == true)
        #expect(status.bytesWritten <= 4_000)
        #expect(status.eventsRecorded > 10)
        let source = try ReplaySources.open(path: path)
        var count = 0
        while try source.next() != nil { count += 1 }
        #expect(Int64(count) == status.eventsRecorded)
        #expect(source.skippedLines == 0)
    }

    @Test func aCutOffOrDamagedLineIsSkippedNotFatal() throws {
        let path = "/tmp/cockpitd-test-\(getpid())-cut.jsonl"
        defer { unlink(path) }
        let good = RecordingFormat.encode(TimedInput(time: .zero, input: .baroADC(adcT: 1, adcP: 2)))
        let text = RecordingFormat.encodeHeader(Self.header()) + "\n" + good + "\n{\"t\":5,\"k\":\"nope\"}\n" + good + "\n" + String(good.prefix(20))
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count - 1) }
        close(fd)
        let source = try ReplaySources.open(path: path)
        var count = 0
        while try source.next() != nil { count += 1 }
        #expect(count == 2)
        #expect(source.skippedLines == 2)
    }
}

final class StopFlag: @unchecked Sendable {
    private var reason: String?
    func set(_ value: String) { reason = value }
}

/// Line sources in a recording: the kind is the source's name (docs/recording-format.md, "Event lines").
@Suite struct RecordingLineSourceTests {
    /// The example line of docs/recording-format.md reads back as a gpsd line, and is written the same way.
    @Test func aGpsdLineOfTheDocumentedFormat() throws {
        let documented = #"{"t":1000000000,"k":"gpsd","line":"{\"class\":\"TPV\",\"mode\":3,\"lat\":46.2,\"lon\":12.8}"}"#
        let timed = try RecordingFormat.decode(documented, lineNumber: 2)
        #expect(timed.input == .line(source: "gpsd", text: #"{"class":"TPV","mode":3,"lat":46.2,"lon":12.8}"#))
        #expect(timed.time == MonotonicInstant(nanoseconds: 1_000_000_000))
        let again = try JSONParser.parse(RecordingFormat.encode(timed))
        #expect(again == (try JSONParser.parse(documented)))
    }

    /// A kind no source is registered for is refused with its name, never read as some other source's line.
    @Test func aLineOfAnUnknownSourceIsRefused() {
        #expect(throws: RecordingFormat.Failure.self) {
            try RecordingFormat.decode(#"{"t":5,"k":"no-such-source","line":"MSG,3"}"#, lineNumber: 7)
        }
    }

    /// Every registered source has its own name, every record kind belongs to one source, and no name or record kind
    /// is a kind the format uses for something else (a line source's name is its lines' kind).
    @Test func sourceNamesAndRecordKindsAreUniqueAndFree() {
        let names = WireSources.names
        #expect(Set(names).count == names.count)
        let recordKinds = [BaroRecord.kinds, TrafficDatagram.kinds].flatMap { $0 }
        #expect(Set(recordKinds).count == recordKinds.count)
        let formatKinds: Set = ["fix", "gps.connected", "gps.disconnected", "command", "mute.traffic"]
        #expect(formatKinds.isDisjoint(with: names))
        #expect(formatKinds.isDisjoint(with: recordKinds))
        #expect(Set(WireSources.lineSources.map { $0.source }).isDisjoint(with: recordKinds))
        for kind in recordKinds { #expect(WireSources.recordType(forKind: kind) != nil, "\(kind) has no source") }
    }
}
