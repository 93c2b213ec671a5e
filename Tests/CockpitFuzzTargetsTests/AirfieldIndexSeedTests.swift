import Testing
import CockpitCore
import CockpitIO
@testable import CockpitFuzzTargets
import CockpitTestSupport

/// The airfield-index seeds are written by Fuzz/seed-corpus.py, a Python encoder of the layouts documented in
/// AirfieldIndex+Stored.swift and AirfieldIndex+Image.swift that shares no code with them: the Swift readers must accept
/// both forms and find the same airfields in them, LSZH among them.
@Suite("Airfield index seeds (independent encoder)")
struct AirfieldIndexSeedTests {
    static func seeds() throws -> [[UInt8]] {
        let directory = CorpusReplayTests.corpusRoot + "/airfield-index"
        return try CorpusReplayTests.files(in: directory).map { try LineReader.readAll(path: directory + "/" + $0) }
    }

    @Test func theStoredAndTheImageSeedHoldTheSameAirfields() throws {
        var stored: [AirfieldSite]?
        var image: [AirfieldSite]?
        for seed in try Self.seeds() where seed.count > 33 && seed[0] & 0x07 <= 1 {
            // The readers exactly as the fuzz target calls them (an image in its own page-aligned block).
            let payload = Array(seed.dropFirst())
            if seed[0] & 1 == 0 {
                if let index = AirfieldIndexFuzz.stored(payload), index.count > 20 { stored = index.sites }
            } else {
                image = try #require(AirfieldIndexFuzz.mapped(payload), "the image seed is refused").sites
            }
        }
        let fromStored = try #require(stored, "a complete stored-index seed")
        let fromImage = try #require(image, "a complete image seed")
        #expect(fromStored == fromImage)
        // LSZH in OurAirports (shared/data/ourairports/airports.csv, runways.csv): 47.458056 N, 8.548056 E, a large airport
        // whose longest runway, 16/34, is 12,139 ft of concrete.
        let lszh = try #require(fromStored.first { $0.latitudeMicrodegrees == 47_458_056 && $0.longitudeMicrodegrees == 8_548_056 })
        #expect(lszh.type == .largeAirport && lszh.longestHardRunwayFeet == 12_139)
    }
}
