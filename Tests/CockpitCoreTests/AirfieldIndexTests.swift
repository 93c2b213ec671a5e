import Glibc
import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The k-d tree against an exhaustive scan written here (every site, `AirfieldFilter.accepts` on a full `Airfield`,
/// Vincenty distance), on synthetic sites that crowd the awkward places: both poles, both sides of ±180°, exact
/// duplicates (ties go to the lower id), and a dense cluster next to an empty ocean.
@Suite("Airfield index (k-d tree on the unit sphere)")
struct AirfieldIndexTests {
    /// A small deterministic generator (64-bit LCG, Knuth's MMIX constants): the same sites on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func between(_ low: Double, _ high: Double) -> Double { low + (high - low) * next() }
    }

    static let sites: [AirfieldSite] = {
        var random = Generator(state: 18)
        var sites: [AirfieldSite] = []
        func add(_ lat: Double, _ lon: Double) {
            let id = Int32(sites.count * 7 + 3)
            let types = AirfieldType.allCases
            let type = types[Int(random.next() * Double(types.count)) % types.count]
            let longest: Int32? = random.next() < 0.2 ? nil : Int32(random.between(300, 14_000))
            let hard: Int32? = longest.flatMap { random.next() < 0.5 ? Int32(Double($0) * random.between(0.5, 1)) : nil }
            sites.append(AirfieldSite(id: id, latitudeMicrodegrees: Int32((lat * 1e6).rounded()),
                                      longitudeMicrodegrees: Int32((lon * 1e6).rounded()), type: type,
                                      longestRunwayFeet: longest, longestHardRunwayFeet: hard))
        }
        // Uniform over the sphere.
        for _ in 0..<1_200 { add(Glibc.asin(random.between(-1, 1)) * 180 / .pi, random.between(-180, 180)) }
        // Astride the antimeridian, within a degree of each pole, a dense cluster (a city's heliports).
        for _ in 0..<200 { add(random.between(-20, 60), random.next() < 0.5 ? random.between(179, 180) : random.between(-180, -179)) }
        for _ in 0..<100 { add(random.between(89, 90), random.between(-180, 180)) }
        for _ in 0..<100 { add(random.between(-90, -89), random.between(-180, 180)) }
        for _ in 0..<300 { add(random.between(47.3, 47.6), random.between(8.4, 8.7)) }
        // Exact duplicates of existing positions (different ids): ties broken by id.
        for index in stride(from: 0, to: 60, by: 3) {
            let original = sites[index]
            add(original.latitudeDegrees, original.longitudeDegrees)
        }
        add(90, 0); add(-90, 0); add(0, 180); add(0, -180)
        return sites
    }()
    static let index = AirfieldIndex(sites: sites)

    static func bruteForce(_ latitude: Double, _ longitude: Double, _ filter: AirfieldFilter) -> [(id: Int64, meters: Double)] {
        var all: [(id: Int64, meters: Double)] = []
        for site in sites {
            let airfield = Airfield(id: Int64(site.id), ident: "", name: "", type: site.type, latitudeDegrees: site.latitudeDegrees,
                                    longitudeDegrees: site.longitudeDegrees, elevationFeet: nil, country: "", municipality: "",
                                    longestRunwayFeet: site.longestRunwayFeet.map(Double.init), longestRunwaySurface: .unknown,
                                    longestHardRunwayFeet: site.longestHardRunwayFeet.map(Double.init), frequencies: [])
            guard filter.accepts(airfield) else { continue }
            let meters = Ellipsoid.inverse(latitude1: latitude, longitude1: longitude, latitude2: site.latitudeDegrees,
                                           longitude2: site.longitudeDegrees).distanceMeters
            if meters <= filter.radiusNauticalMiles * 1852 { all.append((Int64(site.id), meters)) }
        }
        all.sort { ($0.meters, $0.id) < ($1.meters, $1.id) }
        return Array(all.prefix(filter.maximumCount))
    }

    static let filters: [AirfieldFilter] = {
        var plain = AirfieldFilter(); plain.radiusNauticalMiles = 3_000
        var usable = AirfieldFilter(); usable.types = [.smallAirport, .mediumAirport, .largeAirport]; usable.maximumCount = 5
        usable.excludeHeliports = true; usable.excludeSeaplaneBases = true; usable.radiusNauticalMiles = 1_500
        var best = AirfieldFilter(); best.minimumRunwayFeet = 2_000; best.excludeHeliports = true; best.maximumCount = 1
        best.radiusNauticalMiles = 250
        var hard = AirfieldFilter(); hard.hardSurfaceOnly = true; hard.minimumRunwayFeet = 6_000; hard.maximumCount = 7
        hard.radiusNauticalMiles = 5_400
        var many = AirfieldFilter(); many.maximumCount = 40; many.radiusNauticalMiles = 20
        return [plain, usable, best, hard, many]
    }()

    static let queries: [(Double, Double)] = {
        var random = Generator(state: 1_8_18)
        var points: [(Double, Double)] = [(90, 0), (-90, 0), (89.9, 45), (-89.95, -120), (0, 180), (0, -180), (10, 179.999),
                                          (10, -179.999), (47.45, 8.55), (47.3, 8.4), (0, 0), (-45, 100)]
        for site in sites.prefix(8) { points.append((site.latitudeDegrees, site.longitudeDegrees)) }   // exactly on a site
        for _ in 0..<40 { points.append((Glibc.asin(random.between(-1, 1)) * 180 / .pi, random.between(-180, 180))) }
        return points
    }()

    @Test func equalsAnExhaustiveScan() {
        for (latitude, longitude) in Self.queries {
            for filter in Self.filters {
                let fast = Self.index.nearest(latitude: latitude, longitude: longitude, filter: filter)
                let slow = Self.bruteForce(latitude, longitude, filter)
                #expect(fast.map(\.id) == slow.map(\.id), "at \(latitude), \(longitude) with \(filter)")
                for (a, b) in zip(fast, slow) { #expect(abs(a.inverse.distanceMeters - b.meters) < 0.001) }
            }
        }
    }

    @Test func linearScanReferenceAgrees() {
        for (latitude, longitude) in Self.queries.prefix(12) {
            let filter = Self.filters[1]
            #expect(Self.index.linearScanNearest(latitude: latitude, longitude: longitude, filter: filter).map(\.id)
                    == Self.bruteForce(latitude, longitude, filter).map(\.id))
        }
    }

    /// Duplicates: the same position under two ids comes back lower id first, both at the same distance.
    @Test func duplicatePositionsTieByID() {
        let original = Self.sites[0]
        var filter = AirfieldFilter(); filter.maximumCount = 2; filter.radiusNauticalMiles = 1
        let hits = Self.index.nearest(latitude: original.latitudeDegrees, longitude: original.longitudeDegrees, filter: filter)
        #expect(hits.count == 2)
        let twins = Self.sites.filter { $0.latitudeMicrodegrees == original.latitudeMicrodegrees && $0.longitudeMicrodegrees == original.longitudeMicrodegrees }
        #expect(twins.count == 2)
        #expect(hits.map(\.id) == twins.map { Int64($0.id) }.sorted())
        #expect(hits.allSatisfy { $0.inverse.distanceMeters < 0.001 })
    }

    @Test func emptyAndDegenerateQueries() {
        let empty = AirfieldIndex(sites: [])
        #expect(empty.nearest(latitude: 0, longitude: 0, filter: AirfieldFilter()).isEmpty)
        var none = AirfieldFilter(); none.maximumCount = 0
        #expect(Self.index.nearest(latitude: 0, longitude: 0, filter: none).isEmpty)
        var everything = AirfieldFilter(); everything.maximumCount = 100_000; everything.radiusNauticalMiles = 5_000
        let all = Self.index.nearest(latitude: 12, longitude: 34, filter: everything)
        #expect(all.count > 500)
        #expect(all.map(\.id) == Self.bruteForce(12, 34, everything).map(\.id))
        #expect(Self.index.count == Self.sites.count)
        #expect(Self.index.memoryBytes >= Self.sites.count * 32)
    }
}
