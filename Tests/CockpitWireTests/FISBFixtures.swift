import CockpitTestSupport
import CockpitWire

/// The uplinks (`+` lines) of the UAT recordings under Tests/Fixtures/radio-traffic/uat/ (gzip-compressed; gzip
/// reads them) and, where the checkout has it beside it, the whole tg30.978 from ../shared.
enum FISBFixtures {
    struct Uplink {
        /// 1-based line of the unzipped text.
        var line: Int
        var hex: Substring
    }

    /// The whole Indiana recording, 1 048 lines, outside the repository (the fixtures keep its first 800 lines).
    static let wholeTG30Path = Fixtures.directory + "/../../../shared/data/radio-traffic/uat/tg30.978"
    static var wholeTG30Present: Bool { (try? FixtureFile.bytes(wholeTG30Path)) != nil }

    struct Unzipped: Error { var name: String; var stderr: String }

    static func text(_ name: String) throws -> String {
        if name.hasPrefix("/") { return try FixtureFile.read(name) }
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/uat/" + name)])
        guard unzipped.status == 0 else { throw Unzipped(name: name, stderr: unzipped.stderr) }
        return unzipped.stdout
    }

    /// Every `+` line's hexadecimal payload (up to its first `;`), with its line number.
    static func uplinks(_ name: String) throws -> [Uplink] {
        let lines = try text(name).split(separator: "\n", omittingEmptySubsequences: false)
        return lines.enumerated().compactMap { index, line in
            guard line.first == "+" else { return nil }
            let hex = line.dropFirst().prefix { $0 != ";" }
            return Uplink(line: index + 1, hex: hex)
        }
    }

    /// Every uplink decoded, the totals kept, and each text report with the uplink it came from.
    struct Decoded {
        var counts = FISBCounts()
        var reports: [(line: Int, uplink: UplinkFrame, received: FISBReceivedReport)] = []
    }

    static func decode(_ name: String) throws -> Decoded {
        var decoded = Decoded()
        for uplink in try uplinks(name) {
            let result = UplinkFrame.parse(hex: uplink.hex)
            guard let contents = decoded.counts.add(result), case .success(let frame) = result else { continue }
            for received in contents.reports { decoded.reports.append((uplink.line, frame, received)) }
        }
        return decoded
    }
}
