import Glibc
import CockpitCore
import CockpitIO
import CockpitDaemon
import Logging
import CockpitWire

/// The daemon's sensor and network inputs, through the same decoder the runner uses and on into a core.
enum InputFuzz {
    /// A fixed 256-bit key: with it, the fuzzer's datagram can be tagged correctly (mode bit 1) to reach the decoder.
    static let authenticator = TrafficAuthenticator(keyBytes: (0..<32).map { UInt8($0) })

    /// Mode byte, then one datagram. Bit 0: the receiver has a key; bit 1: the datagram gets a valid tag;
    /// bit 2: the event goes on into a core and the status is rendered.
    static func trafficDatagram(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        let mode = input.byte()
        var datagram = input.rest
        var decoder = InputDecoder()
        if mode & 0x01 != 0 { decoder.update(TrafficWireDecoder.self) { $0.authenticator = authenticator } }
        if mode & 0x02 != 0, let authenticator { datagram += authenticator.tag(datagram) }
        let event = decoder.decode(.datagram(bytes: datagram, from: "192.0.2.1:4000"))
        if mode & 0x04 != 0 {
            var core = CoreProbe()
            core.feed(event)
            core.advance(seconds: 1)
            _ = core.render()
        }
    }

    /// Mode byte (bits 0–5: read size − 1; bit 6: on into a core), then a gpsd stream as it arrives on the socket.
    static func gpsdStream(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        let mode = input.byte()
        let readSize = Int(mode & 0x3F) + 1
        let stream = input.rest
        var framer = LineFramer(maximumLineBytes: GPSDReportDecoder.maximumLineBytes)
        var decoder = InputDecoder()
        var core = mode & 0x40 != 0 ? CoreProbe() : nil
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + readSize)
            framer.append(stream[start..<end]) { line in
                let event = decoder.decode(.gpsdLine(line))
                core?.feed(event)
                core?.advance(seconds: 0.5)
            }
            start = end
        }
        _ = core?.render()
    }

    /// 24 calibration register bytes, 6 data register bytes, then raw ADC words as a recording may hold them.
    /// Mode bit 0 takes the calibration unchecked, as a recording header's is read; bit 1 hands the samples on to a core.
    static func bmp280(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        let mode = input.byte()
        let registers = input.take(BMP280Calibration.registerCount)
        let data = input.take(6)
        var decoder = InputDecoder()
        var core = mode & 0x02 != 0 ? CoreProbe() : nil
        if mode & 0x01 != 0 {
            decoder.update(BaroWireDecoder.self) { $0.calibration = try? BMP280Calibration(registerBytes: registers) }
        } else {
            core?.feed(decoder.decode(.baroCalibration(registerBytes: registers)))
        }
        if let adc = BMP280Compensation.adcValues(dataRegisters: data) {
            core?.feed(decoder.decode(.baroADC(adcT: adc.adcT, adcP: adc.adcP)))
        }
        while input.index + 8 <= input.bytes.count {
            let word = input.take(8)
            let adcT = Int32(bitPattern: UInt32(word[0]) | UInt32(word[1]) << 8 | UInt32(word[2]) << 16 | UInt32(word[3]) << 24)
            let adcP = Int32(bitPattern: UInt32(word[4]) | UInt32(word[5]) << 8 | UInt32(word[6]) << 16 | UInt32(word[7]) << 24)
            let event = decoder.decode(.baroADC(adcT: adcT, adcP: adcP))
            core?.advance(seconds: 0.1)
            core?.feed(event)
        }
        core?.advance(seconds: 1)
        _ = core?.render()
    }

    /// The replay file, written to a tmpfs file (the sources read paths), detected and read to the end as
    /// `cockpitd replay` does, every input decoded and handed to a core configured from the file.
    static func replayFile(_ bytes: [UInt8]) {
        let path = replayPath
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(path) }
        guard written == bytes.count, let source = try? ReplaySources.open(path: path) else { return }
        // The runner replay uses (ticks on its grid, summary counters), without outputs, configured as replay
        // configures it: a recording's header settings through each option's own parser, the file's timing.
        var settings = Settings(mode: .replay)
        _ = SettingsSchema.applyRecorded((source as? RecordingSource)?.header.settings ?? JSONObject(), to: &settings)
        let runner = CoreRunner(configuration: settings.replayConfiguration(timing: source.coreConfiguration),
                                decoder: source.makeDecoder(), logger: silentLogger)
        var count = 0
        while count < 20_000, let timed = try? source.next() {
            count += 1
            runner.ingest(timed)
        }
        runner.finish()
        _ = JSONWriter.string(.object(runner.snapshot.json)).utf8.count
        _ = (source.skippedLines, source.lastSkipReason, runner.summary)
    }

    static let silentLogger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    /// One file per process (libFuzzer's -fork/-jobs workers are processes): /dev/shm when there is one.
    static let replayPath: String = {
        let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        return "\(directory)/cockpit-fuzz-\(getpid()).replay"
    }()
}
