import Testing
@testable import CockpitWire

@Suite struct WireLayerTests {
    @Test func theLayerIsLinked() { _ = CockpitWire.self }
}
