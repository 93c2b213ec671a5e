import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The stored form of the index (what the importer writes into the database file and the daemon loads).
@Suite("Airfield index, stored form")
struct AirfieldIndexStoredTests {
    /// Loaded from its stored bytes, the index answers every query of the exhaustive-scan test exactly like the scan.
    @Test func loadedIndexEqualsAnExhaustiveScan() throws {
        let bytes = AirfieldIndexTests.index.stored()
        #expect(bytes.count == 16 + AirfieldIndexTests.sites.count * 22 + 8)
        let loaded = try Self.load(bytes).get()
        #expect(loaded.count == AirfieldIndexTests.sites.count)
        #expect(Set(loaded.sites.map(\.id)) == Set(AirfieldIndexTests.sites.map(\.id)))
        for (latitude, longitude) in AirfieldIndexTests.queries {
            for filter in AirfieldIndexTests.filters {
                let fast = loaded.nearest(latitude: latitude, longitude: longitude, filter: filter)
                let slow = AirfieldIndexTests.bruteForce(latitude, longitude, filter)
                #expect(fast.map(\.id) == slow.map(\.id), "at \(latitude), \(longitude) with \(filter)")
            }
        }
    }

    /// Every flipped bit, truncation or wrong header is refused (the daemon then builds the index from the table).
    @Test func damagedBytesAreRefused() {
        let bytes = AirfieldIndexTests.index.stored()
        func load(_ bytes: [UInt8]) -> AirfieldIndex.StoredFormatError? {
            if case .failure(let error) = Self.load(bytes) { return error }
            return nil
        }
        #expect(load(bytes) == nil)
        for offset in stride(from: 16, to: bytes.count, by: 997) {
            var damaged = bytes
            damaged[offset] ^= 0x10
            #expect(load(damaged) == .checksumMismatch, "bit flipped at \(offset)")
        }
        #expect(load(Array(bytes.dropLast())) == .wrongSize)
        #expect(load(Array(bytes.prefix(20))) == .tooShort)
        var magic = bytes; magic[0] = UInt8(ascii: "X")
        #expect(load(magic) == .badMagic)
        var format = bytes; format[4] = 9
        #expect(load(format) == .unsupportedFormat(9))
    }

    static func load(_ bytes: [UInt8]) -> Result<AirfieldIndex, AirfieldIndex.StoredFormatError> {
        bytes.withUnsafeBytes { raw in Result { () throws(AirfieldIndex.StoredFormatError) in try AirfieldIndex(stored: raw) } }
    }

    /// FNV-1a 64 of "a" and "foobar" (the published test vectors of the FNV reference).
    @Test func checksumIsFNV1a() {
        #expect(AirfieldIndex.fnv1a(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(AirfieldIndex.fnv1a(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }
}
