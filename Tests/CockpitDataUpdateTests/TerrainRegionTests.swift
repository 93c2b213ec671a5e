import CockpitDataUpdate
import Testing

@Suite struct TerrainRegionTests {
    @Test func parsesRegions() {
        #expect(TerrainRegion.parse("EDFA") == .around(place: "EDFA", radiusKilometres: 300))
        #expect(TerrainRegion.parse("EDFA:50") == .around(place: "EDFA", radiusKilometres: 50))
        #expect(TerrainRegion.parse("box:50,8,51,11") == .box(south: 50, west: 8, north: 51, east: 11))
        #expect(TerrainRegion.parse("box:51,8,50,11") == nil)
        #expect(TerrainRegion.parse("EDFA:-3") == nil)
    }
}
