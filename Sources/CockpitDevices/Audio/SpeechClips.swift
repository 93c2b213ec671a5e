import Glibc
import CockpitIO

/// Spoken clips rendered offline by espeak-ng (Debian `espeak-ng`, no network) into WAV files cached on disk, one per
/// clip word ("check oxygen", "two", "o'clock"), so a sentence with numbers is composed from clips and nothing is
/// synthesised while an alert waits. The cache key covers the text, voice and rate, so changing either re-renders.
///
/// Hand-written rather than linking libespeak-ng: the synthesiser runs once per clip at start, as a child process,
/// and a crash or hang in it can never take the daemon down (a clip that will not render is a status error).
public final class SpeechClips: @unchecked Sendable {
    public let directory: String
    public let voice: String
    public let wordsPerMinute: Int
    public let program: String
    /// Rendered and loaded clips, trimmed of their leading and trailing silence. Touched by the audio thread only.
    private var clips: [String: PCMClip] = [:]
    public private(set) var lastError: String?
    public private(set) var rendered = 0
    public private(set) var loadedFromCache = 0

    public init(directory: String, voice: String = "en", wordsPerMinute: Int = 165, program: String = "espeak-ng") {
        self.directory = directory
        self.voice = voice
        self.wordsPerMinute = wordsPerMinute
        self.program = program
    }

    public var count: Int { clips.count }
    public var sampleRate: Int { clips.values.first?.sampleRate ?? 22_050 }

    /// The cache file of one clip: a 64-bit FNV-1a hash of voice, rate and text.
    public func path(for word: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(voice)|\(wordsPerMinute)|\(word)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex + ".wav"
    }

    /// Renders (or loads from the cache) every word in `words`; false with `lastError` when any failed.
    @discardableResult
    public func prepare(_ words: [String]) -> Bool {
        var ok = true
        for word in words where word != "," && clips[word] == nil {
            if clip(word) == nil { ok = false }
        }
        return ok
    }

    /// One clip, rendered on demand when not cached.
    public func clip(_ word: String) -> PCMClip? {
        if let clip = clips[word] { return clip }
        let path = path(for: word)
        if let clip = try? WAVFile.read(path: path) {
            loadedFromCache += 1
            return store(word, clip)
        }
        guard makeDirectory() else { return nil }
        let temporary = path + ".\(getpid()).tmp"
        defer { unlink(temporary) }
        let status = Self.run([program, "-v", voice, "-s", String(wordsPerMinute), "-w", temporary, word])
        guard status == 0 else {
            lastError = status == 127 ? "\(program) not found (install Debian package espeak-ng)" : "\(program) exited with \(status) for \"\(word)\""
            return nil
        }
        do {
            let clip = try WAVFile.read(path: temporary)
            guard rename(temporary, path) == 0 else { lastError = "cannot store \(path): \(String(cString: strerror(errno)))"; return store(word, clip) }
            rendered += 1
            return store(word, clip)
        } catch {
            lastError = "\(program) output for \"\(word)\": \(error)"
            return nil
        }
    }

    private func store(_ word: String, _ clip: PCMClip) -> PCMClip {
        let trimmed = clip.trimmed()
        clips[word] = trimmed
        return trimmed
    }

    /// A sentence from clip words: 60 ms between words, 200 ms for ",". Nil when a clip is missing.
    public func compose(_ words: [String]) -> PCMClip? {
        let rate = sampleRate
        var samples: [Int16] = []
        for word in words {
            if word == "," { samples += [Int16](repeating: 0, count: rate / 5); continue }
            guard let clip = clip(word) else { return nil }
            guard clip.sampleRate == rate else { lastError = "clip \"\(word)\" at \(clip.sampleRate) Hz, others at \(rate) Hz"; return nil }
            if !samples.isEmpty { samples += [Int16](repeating: 0, count: rate * 6 / 100) }
            samples += clip.samples
        }
        return PCMClip(sampleRate: rate, samples: samples)
    }

    private func makeDirectory() -> Bool {
        var path = ""
        for part in directory.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o750) != 0 && errno != EEXIST {
                lastError = "cannot create \(path): \(String(cString: strerror(errno)))"
                return false
            }
        }
        return true
    }

    /// Runs a program (searched on PATH) with no input and output to /dev/null; its exit status (127: not found).
    static func run(_ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        ChildProcess.closeInheritedDescriptors(&actions)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return 127 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
