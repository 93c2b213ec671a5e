import Testing
import CockpitTestSupport
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitWire

/// The one list of input sources (`WireSources.all`) and what derives from it: the daemon's inputs, the recording's
/// kinds, the header's description of the inputs and the decoders' settings.
@Suite struct InputSourceTests {
    /// Every source of the one list has its daemon half: a source without a live adapter factory would be decoded and
    /// recorded but never read.
    @Test func everySourceIsAnInputSource() {
        #expect(InputSources.all.count == WireSources.all.count)
        #expect(InputSources.all.map { $0.name } == WireSources.all.map { $0.name })
    }

    /// A radio traffic kind the core knows has a source that feeds it, and every radio source's name is its kind's (the
    /// radio picture's status and a recording's lines go by it).
    @Test func everyRadioSourceKindHasASource() {
        var fed = Set<RadioSourceKind>()
        for source in WireSources.all {
            guard case .radio(let kind) = source.coreKind else { continue }
            fed.insert(kind)
            #expect(source.name == kind.rawValue)
        }
        #expect(fed == Set(RadioSourceKind.allCases))
    }

    /// Each decoder's record kinds belong to it alone, and a recording's line of each kind is read back as that
    /// source's input.
    @Test func recordKindsBelongToOneSource() throws {
        let kinds = WireSources.decoders.flatMap { $0.recordKinds }
        #expect(Set(kinds).count == kinds.count)
        for decoder in WireSources.lineSources {
            let timed = try RecordingFormat.decode(#"{"t":5,"k":"\#(decoder.source)","line":"x"}"#, lineNumber: 2)
            #expect(timed.input == .line(source: decoder.source, text: "x"))
            let link = try RecordingFormat.decode(#"{"t":5,"k":"\#(decoder.linkKind).disconnected","reason":"r"}"#, lineNumber: 3)
            #expect(link.input == .lineSourceLink(source: decoder.source, .disconnected(reason: "r")))
        }
    }

    /// gpsd is a line source like the others, and its connection changes stay `gps.connected` / `gps.disconnected`
    /// on disk (docs/recording-format.md), decoded into the core's GPS source events.
    @Test func gpsdsConnectionChangesKeepTheirRecordedKinds() throws {
        let line = #"{"t":5,"k":"gps.connected","endpoint":"localhost:2947"}"#
        let timed = try RecordingFormat.decode(line, lineNumber: 2)
        #expect(timed.input == .lineSourceLink(source: "gpsd", .connected(endpoint: "localhost:2947")))
        #expect(RecordingFormat.encode(timed) == line)
        var decoder = InputDecoder()
        #expect(decoder.decode(timed.input) == .gpsSource(.connected(endpoint: "localhost:2947")))
        let lost = RawInput.lineSourceLink(source: "gpsd", .disconnected(reason: "gpsd closed the connection"))
        #expect(decoder.decode(lost) == .gpsSource(.disconnected(reason: "gpsd closed the connection")))
    }

    /// What a live recording's header says of the inputs, as docs/recording-format.md shows it: gpsd's endpoint, the
    /// barometer's backend, each radio receiver's, in the list's order.
    @Test func theHeaderDescribesEveryConfiguredSource() throws {
        var settings = Settings(mode: .run)
        try settings.give("gpsd", "localhost:2947")
        try settings.give("baro", "none")
        try settings.give("adsb-sbs", "127.0.0.1")
        try settings.give("flarm-device", "/dev/ttyUSB0")
        try settings.give("flarm-baud", "38400")
        try settings.give("ogn-aprs", "127.0.0.1")
        let devices = InputSources.inputDescriptions(settings)
        #expect(JSONWriter.string(.object(devices)) == #"{"gps":{"source":"gpsd","endpoint":"localhost:2947"},"#
            + #""baro":{"source":"none"},"adsb":{"source":"dump1090 SBS-1","endpoint":"127.0.0.1:30003"},"#
            + #""flarm":{"source":"FLARM data port","device":"/dev/ttyUSB0","baudRate":38400},"#
            + #""ogn":{"source":"OGN APRS","endpoint":"127.0.0.1:50001"}}"#)
    }

    /// The traffic key is the traffic port's decoder's, set from the settings: with a key, an untagged report is
    /// refused (docs/traffic-packet.md).
    @Test func theTrafficKeyIsItsDecodersFromTheSettings() throws {
        let keyFile = temporaryPath(".key")
        #expect(AtomicFile.write(Array(String(repeating: "a5", count: 32).utf8), to: keyFile, modeBits: 0o600) == nil)
        var settings = Settings(mode: .run)
        try settings.give("traffic-key-file", keyFile)
        var decoder = InputDecoder()
        #expect(decoder.decoder(TrafficWireDecoder.self)?.authenticator == nil)
        try InputSources.configure(&decoder, settings)
        #expect(decoder.decoder(TrafficWireDecoder.self)?.authenticator != nil)
    }

    /// `cockpitd sources` lists every source of the one list, one row each, with what the descriptors name.
    @Test func theListingHasARowPerSource() {
        let rows = InputSources.markdownTable().split(separator: "\n").dropFirst(2)
        #expect(rows.count == WireSources.all.count)
        #expect(rows.contains("| `adsb-sbs` | dump1090 SBS-1 | radio traffic (adsb-sbs) | `adsb-sbs`, `adsb-sbs.connected`, `adsb-sbs.disconnected` | Radio traffic | `sbs-line` |"))
        #expect(rows.contains("| `gpsd` | gpsd | GPS | `gpsd`, `gps.connected`, `gps.disconnected` | GPS | `gpsd-line` |"))
    }
}
