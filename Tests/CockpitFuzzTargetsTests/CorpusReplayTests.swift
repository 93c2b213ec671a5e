import Glibc
import Testing
import CockpitFuzzTargets
import CockpitIO
import CockpitTestSupport

/// Every seed and every crash the fuzzer ever found (Fuzz/Corpus/<target>/) through its entry function, without the
/// sanitizers: a cheap regression run in the normal suite. A trap here fails the whole test run.
@Suite("Fuzz corpus replay")
struct CorpusReplayTests {
    static let corpusRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Fuzz/Corpus"
    }()

    static func files(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // LICENSE.* files travel with seeds copied from third-party data; they are not seeds.
            if !name.hasPrefix("."), name != "SOURCE.md", !name.hasPrefix("LICENSE") { names.append(name) }
        }
        return names.sorted()
    }

    @Test func everyCorpusDirectoryNamesATargetAndEveryTargetHasSeeds() {
        let directories = Self.files(in: Self.corpusRoot)
        #expect(directories.sorted() == FuzzTargets.all.map(\.name).sorted())
        for target in FuzzTargets.all {
            #expect(Self.files(in: Self.corpusRoot + "/" + target.name).count >= 2, "seeds for \(target.name)")
        }
    }

    @Test(arguments: FuzzTargets.all.map(\.name))
    func everySeedRunsThroughItsTarget(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let directory = Self.corpusRoot + "/" + name
        for file in Self.files(in: directory) {
            let bytes = try LineReader.readAll(path: directory + "/" + file)
            #expect(bytes.count <= target.maximumInputBytes, "\(name)/\(file) is longer than the target's -max_len")
            target.run(bytes)
        }
    }
}
