import Testing
import CockpitFuzzTargets
import CockpitWire

/// Every source of the one list (`WireSources.all`) is fuzzed: its descriptor's target is one of `FuzzTargets.all`,
/// so the corpus test also needs its seed folder. (That every listed source has its `FuzzedSource` entry is the
/// compiler's check, in `SourceFuzz.targets`.)
@Suite struct SourceFuzzTests {
    @Test func everySourceHasItsFuzzTarget() {
        let targets = Set(FuzzTargets.all.map(\.name))
        for source in WireSources.all {
            #expect(targets.contains(source.fuzzTarget), "\(source.name) names fuzz target \(source.fuzzTarget), which is not in FuzzTargets.all")
        }
    }
}
