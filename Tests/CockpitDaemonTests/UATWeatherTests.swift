import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitEmbedded
import CockpitIO
import CockpitClient
import CockpitTestSupport
import CockpitWire

/// dump978's San Jose recording (Tests/Fixtures/radio-traffic/uat/SOURCE.md: 704 uplinks) through the embedded daemon
/// near Palo Alto with the GPS's UTC at 2015-01-24 04:40Z, the recording's time: the FIS-B METARs and TAFs in the
/// status against the independent decoder's (Tests/Tools/uat_reference.py, sample-data.metars.json), and every uplink
/// forwarded to a GDL 90 client as Uplink Data (0x07), unframed here from the specification.
@Suite("FIS-B weather and GDL 90 uplinks", .serialized)
struct UATWeatherTests {
    static let uat = EmbeddedDaemon.Source(RadioSourceKind.uat.rawValue)

    static func lines() throws -> [String] {
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/uat/sample-data.txt.gz")])
        #expect(unzipped.status == 0)
        return unzipped.stdout.split(separator: "\n").map(String.init)
    }

    /// The uplink payloads as the recording writes them: the hex digits between `+` and `;`.
    static func recordedUplinks(_ lines: [String]) -> [[UInt8]] {
        lines.filter { $0.first == "+" }.map { line in
            let digits = Array(line.dropFirst().prefix { $0 != ";" }.utf8)
            return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
        }
    }

    /// KPAO's ramp, parked, at 04:40:00Z plus `second`.
    static func ownFix(_ second: Int, hour: Int = 4) -> GPSFix {
        GPSFix(utc: UTCInstant(year: 2015, month: 1, day: 24, hour: hour, minute: 40, second: Double(second)), mode: .threeDimensional,
               latitudeDegrees: 37.461, longitudeDegrees: -122.115, altitudeMSLMeters: 2, groundSpeedMetersPerSecond: 0,
               trackTrueDegrees: 0, climbMetersPerSecond: 0)
    }

    /// The recording's lines 100 a second, an own fix every second.
    static func fly(_ lines: [String], hour: Int = 4, _ configure: (inout LiveOptions) throws -> Void = { _ in }) throws -> EmbeddedDaemon {
        let daemon = try EmbeddedDaemon { options in
            try options.settings.give("uat", "127.0.0.1")
            try configure(&options)
        }
        daemon.feed(.lineSourceLink(source: uat.name, .connected(endpoint: "127.0.0.1:30978")))
        daemon.feed(.gpsFix(ownFix(0, hour: hour)))
        daemon.advance(seconds: 1)
        for (index, line) in lines.enumerated() {
            if index % 100 == 0 { daemon.feed(.gpsFix(ownFix(1 + index / 100, hour: hour))) }
            daemon.feed(uat, line)
            daemon.advance(seconds: 0.01)
        }
        return daemon
    }

    /// One GDL 90 frame (§2.2): flags, byte unstuffing (0x7D, then XOR 0x20), the FCS LSB first over the message
    /// (the spec decoder's bitwise CRC). Nil for a frame that does not check.
    static func unframe(_ datagram: [UInt8]) -> [UInt8]? {
        guard datagram.count >= 4, datagram.first == 0x7E, datagram.last == 0x7E else { return nil }
        var clear: [UInt8] = [], escaped = false
        for byte in datagram.dropFirst().dropLast() {
            if escaped { clear.append(byte ^ 0x20); escaped = false } else if byte == 0x7D { escaped = true } else { clear.append(byte) }
        }
        guard !escaped, clear.count >= 3 else { return nil }
        let message = clear.dropLast(2)
        let sent = UInt16(clear[clear.count - 2]) | UInt16(clear[clear.count - 1]) << 8
        return sent == SpecDecoder.crc(message) ? Array(message) : nil
    }

    /// The weather section after the recording: 704 uplinks; a METAR for each of the 127 stations the reference
    /// decoder finds and a TAF for 33; the newest report counts.
    @Test func theWeatherInTheStatus() throws {
        let reference = try #require(try JSONParser.parse(bytes: FixtureFile.bytes(Fixtures.path("radio-traffic/uat/sample-data.metars.json"))).objectValue)
        let daemon = try Self.fly(try Self.lines())
        let weather = try daemon.status()["weather"]
        #expect(weather?["uplinks"]?.int64Value == 704)
        #expect(weather?["stationsWithMETAR"]?.int64Value == Int64(reference.members.count) && reference.members.count == 127)
        #expect(weather?["stationsWithTAF"]?.int64Value == 33)
        #expect(weather?["refusedUplinks"] == .object([:]))
        let newest = try #require(weather?["newestMETAR"])
        #expect(newest["ageBasis"]?.stringValue == "issue time" && newest["stale"]?.boolValue == false, "\(newest)")
        daemon.stop()
    }

    /// Every uplink of the recording reaches a GDL 90 client as one 0x07 datagram, in order: 436 bytes after
    /// unframing, time of reception 0xFFFFFF (not valid), the 432-byte payload byte for byte the recording's. The
    /// heartbeat's uplink count (5 bits) says the uplinks of the second before: 0 before the first, saturated at 31
    /// while the recording comes 100 lines a second (about 61 uplinks).
    @Test func everyUplinkToTheEFBUnchanged() throws {
        let lines = try Self.lines()
        let recorded = Self.recordedUplinks(lines)
        #expect(recorded.count == 704 && recorded.allSatisfy { $0.count == 432 })
        let efb = DatagramCapture()
        efb.startCollecting()
        let daemon = try Self.fly(lines) { try $0.settings.give("gdl90-to", "127.0.0.1:\(efb.port)") }
        daemon.advance(seconds: 1)
        daemon.stop()
        let datagrams = efb.stopCollecting()
        let messages = datagrams.compactMap(Self.unframe)
        #expect(messages.count == datagrams.count, "every datagram one good frame")
        let uplinks = messages.filter { $0.first == 0x07 }
        #expect(uplinks.count == 704)
        #expect(uplinks.allSatisfy { $0.count == 436 && $0[1] == 0xFF && $0[2] == 0xFF && $0[3] == 0xFF })
        let payloads = uplinks.map { Array($0.dropFirst(4)) }
        #expect(payloads == recorded)
        let counts = messages.filter { $0.first == 0x00 && $0.count == 7 }.map { Int($0[5] >> 3) }
        #expect(counts.first == 0 && counts.max() == 31, "\(counts)")
        #expect(messages.filter { $0.first == 0x00 }.allSatisfy { $0[1] & 0x01 == 0x01 }, "UAT initialized")
    }

    /// KPAO and KSJC from OurAirports (Tests/Fixtures/ourairports-bay) in a database of the test's own.
    static func bayDatabase() throws -> String {
        let path = temporaryPath("-bay.sqlite")
        _ = try AirfieldImporter.run(directory: Fixtures.path("ourairports-bay"), output: path)
        return path
    }

    /// The recording flown at KPAO with the bay's airfields (at `hour` UTC); the database's path, for the caller to
    /// remove once the daemon has stopped, and the first answer of `airfield IDENT` that names the field.
    static func flyAndAsk(_ ident: String, hour: Int = 4) throws -> (daemon: EmbeddedDaemon, database: String, answer: JSONValue?) {
        let database = try Self.bayDatabase()
        let daemon = try Self.fly(try Self.lines(), hour: hour) { try $0.settings.give("airfields", database) }
        var answer: JSONValue?
        #expect(waitFor(seconds: 5) {
            answer = try? daemon.request("airfield", arguments: ["ident": .string(ident)])["airfield"]
            return answer != nil && answer != .null
        })
        return (daemon, database, answer)
    }

    /// After the recording at KPAO (GPS UTC 04:40Z plus the 12 s of feeding), `airfield KSJC` gives the METAR of
    /// line 593 (`METAR KSJC 240353Z 30009KT …`) with its issue time and age (47 min, from the issue time) and the
    /// TAF of 232339Z; with no METAR typed its wind, 300° at 9 kt, is the arrival plan's: runway 30L or 30R
    /// recommended, said as from the received METAR. A typed METAR still wins. `nearest` from KPAO shows KSJC's too.
    @Test func theReceivedMETARInTheAirfieldAnswers() throws {
        let (daemon, database, answer) = try Self.flyAndAsk("KSJC")
        defer { unlink(database) }
        let airfield = try #require(answer)
        let metar = try #require(airfield["weather"]?["metar"])
        #expect(metar["text"]?.stringValue?.hasPrefix("METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024") == true, "\(metar)")
        #expect(metar["issued"]?.stringValue == "240353Z" && metar["stale"]?.boolValue == false)
        let age = try #require(metar["ageSeconds"]?.doubleValue)
        #expect(age >= 2_820 && age < 2_820 + 60, "\(age) s")
        #expect(metar["summary"]?.stringValue == "METAR 24 03:53Z, 47 min old")
        #expect(airfield["weather"]?["taf"]?["issued"]?.stringValue == "232339Z")
        let wind = try #require(airfield["wind"])
        #expect(wind["directionTrueDegrees"]?.doubleValue == 300 && wind["speedKnots"]?.doubleValue == 9)
        #expect(wind["recommendedRunway"]?.stringValue?.hasPrefix("30") == true, "\(wind)")
        #expect(wind["from"]?.stringValue == "received METAR 24 03:53Z, 47 min old")
        let text = AirfieldText.airfield(airfield)
        #expect(text.contains("METAR 24 03:53Z, 47 min old: METAR KSJC 240353Z 30009KT"), "\(text)")

        let typed = try #require(try daemon.request("airfield", arguments: ["ident": .string("KSJC"),
                                                                           "metar": .string("METAR KSJC 240453Z 12010KT 10SM CLR 13/05 A3024")])["airfield"])
        #expect(typed["wind"]?["from"]?.stringValue == "typed" && typed["wind"]?["recommendedRunway"]?.stringValue?.hasPrefix("12") == true)

        let nearest = try #require(try daemon.request("nearest", arguments: ["all": .bool(true)])["nearest"])
        let ksjc = nearest["results"]?.arrayValue?.first { $0["ident"]?.stringValue == "KSJC" }
        #expect(ksjc?["weather"]?["metar"]?["issued"]?.stringValue == "240353Z")
        #expect(AirfieldText.nearest(nearest).contains("METAR 24 03:53Z, 47 min old"))
        daemon.stop()
    }

    /// Meadowlark Field (63CN) has no METAR in the recording: its wind comes from KLVK's (calm, 240353Z), 6.3 nm away,
    /// said as the nearest station's; KSJC, 21 nm away, is further.
    @Test func theNearestStationsMETARForAFieldWithoutOne() throws {
        let (daemon, database, answer) = try Self.flyAndAsk("63CN")
        defer { unlink(database) }
        let wind = try #require(answer?["wind"])
        #expect(answer?["weather"] == nil)
        #expect(wind["from"]?.stringValue == "received METAR of KLVK, the nearest station with one, 6.3 nm away: METAR 24 03:53Z, 47 min old",
                "\(wind)")
        #expect(wind["speedKnots"]?.doubleValue == 0 && wind["group"]?.stringValue == "00000KT")
        daemon.stop()
    }

    /// An hour later (GPS UTC 05:40Z) KSJC's METAR of 03:53Z is 107 minutes old: shown stale, and the arrival plan
    /// does not use it (the wind is an error saying so); a typed METAR is still used.
    @Test func aStaleMETARIsSaidAndNotUsed() throws {
        let (daemon, database, answer) = try Self.flyAndAsk("KSJC", hour: 5)
        defer { unlink(database) }
        #expect(answer?["weather"]?["metar"]?["summary"]?.stringValue == "METAR 24 03:53Z, 107 min old, stale")
        let wind = try #require(answer?["wind"])
        #expect(wind["recommendedRunway"] == nil && wind["error"]?.stringValue?.hasSuffix("stale: not used (give one with --metar)") == true,
                "\(wind)")
        let typed = try daemon.request("airfield", arguments: ["ident": .string("KSJC"), "metar": .string("METAR KSJC 240553Z 30009KT")])
        #expect(typed["airfield"]?["wind"]?["recommendedRunway"]?.stringValue?.hasPrefix("30") == true)
        daemon.stop()
    }
}
