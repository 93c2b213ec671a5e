import CockpitIO
import CZlib
import Glibc

/// The terrain folder kept filled for a region: each tile fetched (conditionally) from a URL template, gunzipped,
/// checked (an SRTM size, heights that can be on Earth) and renamed into the folder. A tile that fails leaves the one
/// in place, if any.
public struct TerrainUpdate: Sendable {
    /// The Terrain Tiles open data set's SRTM-format layout (`skadi`): no login, public domain SRTM where it has it.
    public static let defaultURLTemplate = DataUpdateKeys.terrainURL

    public var directory: String
    public var urlTemplate: String
    public var limits: FetchLimits

    public init(directory: String, urlTemplate: String = defaultURLTemplate, limits: FetchLimits = FetchLimits()) {
        self.directory = directory
        self.urlTemplate = urlTemplate
        self.limits = limits
    }

    public struct Report: Sendable, Equatable {
        public var fetched: [String] = []
        public var current: [String] = []
        /// Tiles the source does not have (404: nothing to keep there).
        public var absent: [String] = []
        /// Tile → why it was refused or could not be fetched.
        public var failed: [String: String] = [:]
        public var voids: [String: Int] = [:]
    }

    /// `N50E008` for a south-west corner.
    public static func tileName(south: Int, west: Int) -> String {
        String(TerrainModel.tileName(south: south, west: west).dropLast(4))
    }

    /// The template with `{tile}` (N50E008) and `{lat}` (N50, the skadi folder) filled in.
    public func url(for tile: String) -> String {
        urlTemplate.replacing("{tile}", with: tile).replacing("{lat}", with: String(tile.prefix(3)))
    }

    public func run(tiles: [(south: Int, west: Int)], fetcher: HTTPFetcher, progress: UpdateProgress) -> Report {
        var report = Report()
        if let problem = Durable.makeDirectory(directory) {
            report.failed["*"] = problem
            progress.say("terrain: \(problem)")
            return report
        }
        var state = FetchState(path: directory + "/.fetch-state")
        progress.begin(files: tiles.count)
        for corner in tiles {
            let tile = Self.tileName(south: corner.south, west: corner.west)
            let url = url(for: tile), path = directory + "/" + tile + ".hgt"
            let part = directory + "/." + tile + ".hgt.gz.part"
            let request = FetchRequest(url: url, partPath: part, validators: Durable.exists(path) ? state[url] : nil,
                                       maximumBytes: limits.maximumFileBytes, deadlineSeconds: limits.deadlineSeconds)
            let result = fetcher.fetch(request, tries: limits.tries, backoffSeconds: limits.backoffSeconds) { failure, wait in
                progress.say("terrain: \(tile): \(failure); trying again in \(wait) s")
            }
            switch result {
            case .failure(let failure):
                report.failed[tile] = failure.description
                progress.say("terrain: \(tile): \(failure)\(Durable.exists(path) ? "; the tile in place is kept" : "")")
                progress.fileDone(bytes: 0)
            case .success(.notModified):
                report.current.append(tile)
                progress.fileDone(bytes: 0)
            case .success(.absent):
                report.absent.append(tile)
                progress.fileDone(bytes: 0)
            case .success(.fetched(let bytes, let validators)):
                progress.fileDone(bytes: bytes)
                switch install(part: part, tile: tile, to: path) {
                case .failure(let problem):
                    report.failed[tile] = problem.description
                    progress.say("terrain: \(tile): refused: \(problem)\(Durable.exists(path) ? "; the tile in place is kept" : "")")
                case .success(let voids):
                    report.fetched.append(tile)
                    report.voids[tile] = voids
                    state[url] = validators
                    progress.say("terrain: \(tile): \(bytes) bytes, \(voids) voids")
                }
            }
            unlink(part)
        }
        if !report.fetched.isEmpty, let problem = state.save() {
            progress.say("terrain: \(problem) (the next update fetches these tiles again)")
        }
        return report
    }

    /// Gunzips `part`, checks the tile, and renames it to `path`; the tile's void posts.
    func install(part: String, tile: String, to path: String) -> Result<Int, Problem> {
        guard let compressed = try? LineReader.readAll(path: part, limitBytes: limits.maximumFileBytes) else {
            return .failure("cannot read \(part)")
        }
        let samples: [UInt8]
        if compressed.starts(with: [0x1F, 0x8B]) {
            switch Gunzip.inflate(compressed, limitBytes: Self.sizes.max()!) {
            case .failure(let problem): return .failure(problem)
            case .success(let bytes): samples = bytes
            }
        } else {
            samples = compressed   // served already inflated (a Content-Encoding the client undid, or a plain .hgt)
        }
        let voids: Int
        switch Self.check(samples) {
        case .failure(let problem): return .failure(problem)
        case .success(let count): voids = count
        }
        // Written beside the tile and renamed over it (flushed first): a power cut leaves the old tile or the new.
        if let problem = AtomicFile.write(samples, to: path, modeBits: 0o644) { return .failure(Problem(problem)) }
        Durable.syncDirectory(directory)
        return .success(voids)
    }

    /// SRTM3 (1201²) and SRTM1 (3601²) tiles, two bytes a post.
    static let sizes = [1201 * 1201 * 2, 3601 * 3601 * 2]

    /// A tile's size and heights: every post a void (-32768) or a height between the Dead Sea shore and Everest with
    /// margin (-500…9000 m; a byte-swapped or foreign file fails this at once). The void posts, or why it is refused.
    static func check(_ bytes: [UInt8]) -> Result<Int, Problem> {
        guard sizes.contains(bytes.count) else {
            return .failure("\(bytes.count) bytes is no SRTM tile (\(sizes.map(String.init).joined(separator: " or ")) bytes)")
        }
        var voids = 0, outside = 0
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let height = Int16(bitPattern: UInt16(buffer[index]) << 8 | UInt16(buffer[index + 1]))
                if height == Int16.min { voids += 1 } else if height < -500 || height > 9_000 { outside += 1 }
                index += 2
            }
        }
        if outside > 0 { return .failure("\(outside) posts outside -500…9000 m (not big-endian SRTM heights)") }
        if voids * 2 > bytes.count / 2 { return .failure("\(voids) of \(bytes.count / 2) posts are voids") }
        return .success(voids)
    }
}

/// gzip decompression with zlib, header and CRC checked.
enum Gunzip {
    static func inflate(_ input: [UInt8], limitBytes: Int) -> Result<[UInt8], Problem> {
        var stream = z_stream()
        guard cockpit_inflate_init_gzip(&stream) == Z_OK else { return .failure("zlib would not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let result: Int32 = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limitBytes { return Z_BUF_ERROR }
                if result == Z_STREAM_END { return Z_STREAM_END }
                if result != Z_OK { return result }
                if produced == 0 && stream.avail_in == 0 { return Z_DATA_ERROR }   // the stream ends before its end
            }
        }
        switch status {
        case Z_STREAM_END: return .success(output)
        case Z_BUF_ERROR: return .failure("inflates past \(limitBytes) bytes")
        default: return .failure("not a whole gzip file (zlib \(status)\(stream.msg.map { ": " + String(cString: $0) } ?? ""))")
        }
    }
}
