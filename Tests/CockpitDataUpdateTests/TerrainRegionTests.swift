import CockpitDataUpdate
import CockpitIO
import CockpitTestSupport
import Testing

@Suite struct TerrainRegionTests {
    @Test func parsesRegions() {
        #expect(TerrainRegion.parse("EDFA") == .around(place: "EDFA", radiusKilometres: 300))
        #expect(TerrainRegion.parse("EDFA:50") == .around(place: "EDFA", radiusKilometres: 50))
        #expect(TerrainRegion.parse("50.288,8.534:120") == .around(place: "50.288,8.534", radiusKilometres: 120))
        #expect(TerrainRegion.parse("box:50,8,51,11") == .box(south: 50, west: 8, north: 51, east: 11))
        #expect(TerrainRegion.parse("box:51,8,50,11") == nil)
        #expect(TerrainRegion.parse("EDFA:-3") == nil)
        #expect(TerrainRegion.parse("") == nil)
    }

    /// The tiles any point within the radius falls in, found by brute force: points every 0.01° tested with the
    /// tests' own haversine (independent of the updater's cap geometry).
    func bruteForce(latitude: Double, longitude: Double, kilometres: Double) -> Set<[Int]> {
        var tiles = Set<[Int]>()
        let nauticalMiles = kilometres / 1.852
        for i in stride(from: -600, through: 600, by: 1) {
            let lat = latitude + Double(i) * 0.01
            guard abs(lat) < 90 else { continue }
            for j in stride(from: -1500, through: 1500, by: 1) {
                let lon = longitude + Double(j) * 0.01
                if haversineNauticalMiles(latitude, longitude, lat, lon) <= nauticalMiles {
                    let west = Int(lon.rounded(.down))
                    tiles.insert([Int(lat.rounded(.down)), (west + 540) % 360 - 180])
                }
            }
        }
        return tiles
    }

    /// 300 km around Anspach/Taunus (EDFA, 50.28833 N 8.53389 E: ../shared/data/terrain/SOURCE.md), and 150 km
    /// around Kona (PHKO, 19.73878 N 156.04560 W): every tile the circle touches, and only a rim of tiles the 1 %
    /// ellipsoid margin adds.
    @Test func circleCoversEveryTileItTouches() {
        for (latitude, longitude, kilometres) in [(50.28833, 8.53389, 300.0), (19.73878, -156.04560, 150.0)] {
            let computed = Set(TerrainRegion.tiles(latitude: latitude, longitude: longitude, radiusKilometres: kilometres).map { [$0.south, $0.west] })
            let touched = bruteForce(latitude: latitude, longitude: longitude, kilometres: kilometres)
            #expect(touched.isSubset(of: computed), "missing \(touched.subtracting(computed))")
            let margin = bruteForce(latitude: latitude, longitude: longitude, kilometres: kilometres * 1.02)
            #expect(computed.isSubset(of: margin), "beyond the margin: \(computed.subtracting(margin))")
        }
        #expect(TerrainRegion.tiles(latitude: 50.28833, longitude: 8.53389, radiusKilometres: 300).count == 49)
    }

    @Test func boxTilesAcrossTheAntimeridian() {
        let tiles = TerrainRegion.tiles(south: -17.5, west: 179.5, north: -16.2, east: -179.2).map { [$0.south, $0.west] }
        #expect(Set(tiles) == [[-18, 179], [-18, -180], [-17, 179], [-17, -180]])
        #expect(TerrainUpdate.tileName(south: -18, west: -180) == "S18W180")
        #expect(TerrainUpdate(directory: "/x").url(for: "N50E008")
                == "https://s3.amazonaws.com/elevation-tiles-prod/skadi/N50/N50E008.hgt.gz")
    }
}
