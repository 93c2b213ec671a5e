import Testing
import CockpitTestSupport

/// `cockpitctl --help` names the two options every subcommand takes (they are global: the parser shows them only in
/// each subcommand's help), one line each, within 80 columns.
@Suite("cockpitctl --help")
struct CockpitctlHelpTests {
    @Test func helpNamesSocketAndJSON() {
        let result = runProcess(Binaries.cockpitctl, ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("  --socket PATH ") && $0.contains("control socket") && $0.hasSuffix(")") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("  --json ") && $0.contains("JSON") }, "\(result.stdout)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(result.stdout)")
    }
}
