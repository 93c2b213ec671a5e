import Testing
import CockpitTestSupport
import CockpitCore
@testable import CockpitDaemon
import CockpitIO
import CockpitWire

/// The one list of input sources (`WireSources.List`) and what derives from it: the daemon's inputs and settings
/// groups, the recording's kinds, the header's description of the inputs and the decoders' settings. That every
/// listed source has its daemon half is the compiler's check (`InputSources.all`), not a test's.
@Suite struct InputSourceTests {
    /// Every source's settings group is registered once, from its source: adsb-json's own group, which
    /// `Capabilities.listed` does not name, right after the SBS source's `RadioTrafficSettings`, as `--help` and
    /// docs/configuration.md list its options.
    @Test func everySourcesSettingsGroupIsRegisteredOnce() {
        let registered = Capabilities.all.map(ObjectIdentifier.init)
        #expect(Set(registered).count == registered.count)
        for group in InputSources.settingsGroups {
            #expect(registered.filter { $0 == ObjectIdentifier(group) }.count == 1, "\(group.title)")
        }
        #expect(!Capabilities.listed.contains { ObjectIdentifier($0) == ObjectIdentifier(ADSBJSONSettings.self) })
        let radio = registered.firstIndex(of: ObjectIdentifier(RadioTrafficSettings.self))
        #expect(radio.map { registered[$0 + 1] } == ObjectIdentifier(ADSBJSONSettings.self))
    }

    /// A group the list lacks goes after the group of the source before it and the groups already placed there, so
    /// such groups keep the sources' order; a first source's group that is not listed goes at the end.
    @Test func aSourcesOwnGroupFollowsTheGroupOfTheSourceBeforeIt() {
        func titles(_ groups: [any SettingsGroup.Type]) -> [String] { groups.map { $0.title } }
        let listed: [any SettingsGroup.Type] = [ConfigSettings.self, GPSSettings.self, HypoxiaSettings.self,
                                                 RadioTrafficSettings.self, GDL90Settings.self]
        #expect(titles(Capabilities.placing([GPSSettings.self, RadioTrafficSettings.self, ADSBJSONSettings.self,
                                             BaroSettings.self, RadioTrafficSettings.self], in: listed))
            == ["Configuration", "GPS", "Hypoxia", "Radio traffic", "ADS-B from aircraft.json", "Cabin barometer", "EFB: GDL 90"])
        #expect(titles(Capabilities.placing([RadioTrafficSettings.self, ADSBJSONSettings.self, RadioTrafficSettings.self,
                                             BaroSettings.self], in: listed))
            == ["Configuration", "GPS", "Hypoxia", "Radio traffic", "ADS-B from aircraft.json", "Cabin barometer", "EFB: GDL 90"])
        #expect(titles(Capabilities.placing([ADSBJSONSettings.self, GPSSettings.self], in: listed))
            == ["Configuration", "GPS", "Hypoxia", "Radio traffic", "EFB: GDL 90", "ADS-B from aircraft.json"])
    }

    /// The radio sources the core expects are every configured receiver's, whichever of the two groups that name
    /// them configures the core first.
    @Test func theRadioSourcesDoNotDependOnTheGroupsOrder() throws {
        var settings = Settings(mode: .run)
        try settings.give("adsb-sbs", "127.0.0.1")
        try settings.give("adsb-json", "http://127.0.0.1:8080/data/aircraft.json")
        var radioFirst = CoreConfiguration()
        settings[RadioTrafficSettings.self].configure(&radioFirst, mode: .run)
        settings[ADSBJSONSettings.self].configure(&radioFirst, mode: .run)
        var ownFirst = CoreConfiguration()
        settings[ADSBJSONSettings.self].configure(&ownFirst, mode: .run)
        settings[RadioTrafficSettings.self].configure(&ownFirst, mode: .run)
        #expect(radioFirst.radioTraffic.sources == [.adsbSBS, .adsbJSON])
        #expect(ownFirst.radioTraffic.sources == [.adsbSBS, .adsbJSON])
        #expect(settings.coreConfiguration.radioTraffic.sources == [.adsbSBS, .adsbJSON])
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
