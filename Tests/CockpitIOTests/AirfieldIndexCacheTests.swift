import Glibc
import Testing
import CockpitCore
@testable import CockpitIO
import CockpitTestSupport

/// The airfield index mapped from a cache file (AirfieldIndexCache): written once, mapped after, answers exactly as a
/// brute-force scan of the shipped database does, lives in file pages (not anonymous memory), and any damage to the
/// file — or no usable directory — only costs the mapping, never a wrong answer.
@Suite("Airfield index mapped from the cache directory", .serialized)
struct AirfieldIndexCacheTests {
    func temporaryDirectory() -> String {
        var template = Array("/tmp/cockpit-index-cache-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func store(cache: String?) throws -> AirfieldStore {
        let store = try AirfieldData.store()
        store.cacheDirectory = cache
        return store
    }

    func cacheFiles(_ directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    /// Lookups at the brute-force test's positions, compared with a scan of the database's own airport table (the
    /// scan's answers worked out once, shared with AirfieldStoreTests).
    func answersLikeABruteForceScan(_ store: AirfieldStore) throws {
        for (index, position) in AirfieldStoreTests.positions.enumerated() {
            for (filterIndex, filter) in AirfieldStoreTests.filters.enumerated() {
                let fast = try store.nearest(latitude: position.1, longitude: position.2, filter: filter, declinationDegrees: nil,
                                             groundSpeedKnots: nil)
                let slow = try AirfieldStoreTests.bruteForce(index, filterIndex)
                #expect(fast.map(\.airfield.id) == slow.map(\.id), "\(position.0) with \(filter)")
            }
        }
    }

    @Test func writtenOnceThenMappedAndAnsweringAsTheDatabaseDoes() throws {
        let directory = temporaryDirectory()
        defer { for name in cacheFiles(directory) { unlink(directory + "/" + name) }; rmdir(directory) }
        // A cache file of another database, and a temporary file a crash left: both go when the new file is written.
        for stale in ["airfield-index-00000000deadbeef.kdx", "airfield-index-0123456789abcdef.kdx.tmp-1"] {
            close(open(directory + "/" + stale, O_WRONLY | O_CREAT, 0o644))
        }
        let first = try store(cache: directory)
        let index = try first.index()
        #expect(index.isMapped)
        #expect(first.indexSource.hasPrefix("stored; mapped from \(directory)/airfield-index-") && first.indexSource.hasSuffix("(written now)"))
        let names = cacheFiles(directory)
        #expect(names.count == 1 && names[0].hasSuffix(".kdx"), "\(names)")
        // 32-byte header, then per airfield a 24-byte entry, 3 Float coordinates and one split axis.
        #expect(fileSize(directory + "/" + names[0]) == 32 + first.airportCount * (24 + 12 + 1))
        #expect(first.airportCount == 72_395)

        let second = try store(cache: directory)
        #expect(try second.index().isMapped)
        #expect(second.indexSource == "stored; mapped from \(directory)/\(names[0])")
        try answersLikeABruteForceScan(second)

        // The mapping is file pages: /proc/self/smaps shows the file mapped with no anonymous (private, dirty) memory.
        let smaps = String(decoding: try LineReader.readAll(path: "/proc/self/smaps"), as: UTF8.self)
        let lines = smaps.split(separator: "\n", omittingEmptySubsequences: false)
        guard let at = lines.firstIndex(where: { $0.hasSuffix(names[0]) }) else {
            Issue.record("the cache file is not mapped")
            return
        }
        let anonymous = lines[(at + 1)...].prefix(25).first { $0.hasPrefix("Anonymous:") }
        #expect(anonymous.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] == "0" } == true, "\(anonymous ?? "")")
    }

    @Test(arguments: ["one flipped byte in the body", "truncated", "empty", "the header of another format"])
    func aDamagedCacheFileIsRefusedAndWrittenAgain(_ damage: String) throws {
        let directory = temporaryDirectory()
        defer { for name in cacheFiles(directory) { unlink(directory + "/" + name) }; rmdir(directory) }
        _ = try store(cache: directory).index()
        let path = directory + "/" + cacheFiles(directory)[0]
        let size = fileSize(path)
        let fd = open(path, O_RDWR)
        switch damage {
        case "one flipped byte in the body":
            var byte: UInt8 = 0
            _ = pread(fd, &byte, 1, off_t(size / 2))
            byte ^= 0x10
            _ = pwrite(fd, &byte, 1, off_t(size / 2))
        case "truncated": _ = ftruncate(fd, off_t(size - 1000))
        case "empty": _ = ftruncate(fd, 0)
        default:
            var format: UInt32 = 2
            _ = pwrite(fd, &format, 4, 4)
        }
        close(fd)
        let again = try store(cache: directory)
        #expect(try again.index().isMapped)
        #expect(again.indexSource.hasSuffix("(written now)"), "\(again.indexSource)")
        #expect(fileSize(path) == size)
        try answersLikeABruteForceScan(again)
    }

    @Test func withoutAUsableDirectoryTheIndexStaysInMemoryAndSaysWhy() throws {
        let store = try store(cache: "/nonexistent/cache")
        #expect(try store.index().isMapped == false)
        #expect(store.indexSource.hasPrefix("stored; in memory (cannot create /nonexistent/cache/airfield-index-"), "\(store.indexSource)")
        try answersLikeABruteForceScan(store)
        let plain = try self.store(cache: nil)
        #expect(try plain.index().isMapped == false && plain.indexSource == "stored; in memory (no cache directory)")
    }
}
