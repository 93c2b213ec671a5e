import CockpitTestSupport

/// The real radio-traffic recordings under Tests/Fixtures/radio-traffic/ (Tests/Fixtures/SOURCE.md).
enum RadioFixtures {
    static func bytes(_ name: String) throws -> [UInt8] { try FixtureFile.bytes(Fixtures.path("radio-traffic/" + name)) }

    /// The file's lines as awk sees them: cut at LF (the CR stays, the decoders take it off), no line after a final LF.
    static func lines(_ name: String) throws -> [[UInt8]] {
        var lines = try bytes(name).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
