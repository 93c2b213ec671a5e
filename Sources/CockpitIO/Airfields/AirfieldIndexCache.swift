import CockpitCore
import Glibc

/// The airfield index as a file the daemon maps read-only (`AirfieldIndex+Image`): in `CACHE_DIRECTORY`
/// (systemd's `CacheDirectory=cockpit`, /var/cache/cockpit), named after the checksum of the database's stored index,
/// so a new database gets a new file and the old one is removed. Written once (to a temporary name, synced, renamed
/// into place) from the stored index; every later start maps it after checking it whole. Any problem — no directory,
/// a full disk, a damaged or foreign file — leaves the index in memory, as without a cache, and says why.
enum AirfieldIndexCache {
    static let prefix = "airfield-index-"
    static let suffix = ".kdx"

    static func fileName(sourceChecksum: UInt64) -> String {
        let hex = String(sourceChecksum, radix: 16)
        return prefix + String(repeating: "0", count: 16 - hex.count) + hex + suffix
    }

    struct Problem: Error { let message: String }

    /// The index over the mapped file, or why not (absent, unreadable, refused by its checks).
    static func map(path: String, sourceChecksum: UInt64) -> Result<AirfieldIndex, Problem> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Problem(message: "cannot open \(path): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, info.st_size < 1 << 30 else {
            return .failure(Problem(message: "\(path) is empty or not a file"))
        }
        let size = Int(info.st_size)
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
            return .failure(Problem(message: "cannot map \(path): \(String(cString: strerror(errno)))"))
        }
        let address = Int(bitPattern: mapping)
        do {
            let index = try AirfieldIndex(image: UnsafeRawBufferPointer(start: mapping, count: size), sourceChecksum: sourceChecksum,
                                          release: { _ = munmap(UnsafeMutableRawPointer(bitPattern: address), size) })
            return .success(index)
        } catch {
            return .failure(Problem(message: "\(path) refused: \(error)"))
        }
    }

    /// Writes `index`'s image as the cache file for `sourceChecksum` in `directory` and removes other cache files there;
    /// returns the path, or why it could not.
    static func write(_ index: AirfieldIndex, sourceChecksum: UInt64, directory: String) -> Result<String, Problem> {
        let path = directory + "/" + fileName(sourceChecksum: sourceChecksum)
        if let problem = AtomicFile.write(index.image(sourceChecksum: sourceChecksum), to: path, modeBits: 0o644,
                                          temporarySuffix: ".tmp-\(getpid())") {
            return .failure(Problem(message: problem))
        }
        removeOthers(in: directory, keeping: fileName(sourceChecksum: sourceChecksum))
        return .success(path)
    }

    /// Removes cache files of other databases (and temporary files a crash left) from `directory`.
    static func removeOthers(in directory: String, keeping name: String) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        var stale: [String] = []
        while let entry = readdir(stream) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if file.hasPrefix(prefix), file != name { stale.append(file) }
        }
        for file in stale { unlink(directory + "/" + file) }
    }
}
