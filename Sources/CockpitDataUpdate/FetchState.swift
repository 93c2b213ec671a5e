import CockpitIO
import Glibc

/// The validators (ETag, Last-Modified) of every URL fetched whole and put in place, kept in a small text file beside
/// the data: one line per URL, `URL<TAB>ETAG<TAB>LAST-MODIFIED` (`-` for none). Written whole or not at all
/// (`AtomicFile`), so a power cut leaves the old state or the new one; a line that does not parse is dropped, which
/// only costs that file a full fetch.
public struct FetchState: Sendable, Equatable {
    public private(set) var entries: [String: Validators] = [:]
    public let path: String

    public init(path: String) {
        self.path = path
        guard let bytes = try? LineReader.readAll(path: path, limitBytes: 1 << 20) else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, !fields[0].isEmpty else { continue }
            entries[fields[0]] = Validators(etag: fields[1] == "-" ? nil : fields[1],
                                            lastModified: fields[2] == "-" ? nil : fields[2])
        }
    }

    public subscript(url: String) -> Validators? {
        get { entries[url] }
        set { entries[url] = newValue }
    }

    /// Writes the file; returns why it could not, or nil.
    public func save() -> String? {
        func field(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "-" }
            return String(text.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        }
        let text = entries.keys.sorted().map { url in
            "\(url)\t\(field(entries[url]?.etag))\t\(field(entries[url]?.lastModified))\n"
        }.joined()
        return AtomicFile.write(Array(text.utf8), to: path, modeBits: 0o644)
    }
}

/// The file-system steps that make an update survive a power cut.
enum Durable {
    /// Flushes a directory's entries (a rename inside it) to the disk.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Flushes a file's contents to the disk; false when it cannot.
    static func syncFile(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }

    /// Renames `from` over `to` and flushes the directory; returns why it could not, or nil.
    static func replace(_ from: String, with to: String) -> String? {
        guard rename(from, to) == 0 else { return "cannot rename \(from) to \(to): \(String(cString: strerror(errno)))" }
        syncDirectory(directory(of: to))
        return nil
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    static func makeDirectory(_ path: String) -> String? {
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return nil }
        return "cannot create \(path): \(String(cString: strerror(errno)))"
    }
}

/// Why a step refused or failed, in words for the person or the journal.
public struct Problem: Error, Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public let description: String
    public init(_ description: String) { self.description = description }
    public init(stringLiteral value: String) { description = value }
}
