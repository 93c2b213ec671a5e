import Glibc

/// Where a polled document is: an `http://HOST[:PORT]/PATH` URL (plain HTTP; port 80 when not given) or a file. A
/// folder is the file `defaultFileName` in it (dump1090's `--write-json` folder).
public enum DocumentLocation: Sendable, Equatable, CustomStringConvertible {
    case http(NetworkEndpoint, path: String)
    case file(path: String)

    /// nil for anything else (`https://`, a relative path, a URL without a host).
    public init?(parsing text: String) {
        if text.hasPrefix("http://") {
            let rest = text.dropFirst("http://".count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = String(rest[..<slash])
            let path = rest[slash...].isEmpty ? "/" : String(rest[slash...])
            guard !authority.isEmpty, !authority.contains("@"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
                  let endpoint = NetworkEndpoint(parsing: authority, defaultPort: 80) else { return nil }
            self = .http(endpoint, path: path)
        } else if text.hasPrefix("/") {
            self = .file(path: text)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .http(let endpoint, let path): "http://\(endpoint)\(path)"
        case .file(let path): path
        }
    }
}

/// One document fetched whole, with how old it was when read when that can be told (the file's modification time
/// against this machine's clock; the server's `Date` against its `Last-Modified`).
public struct FetchedDocument: Sendable {
    public var bytes: [UInt8]
    public var ageSeconds: Double?
    /// True when `ageSeconds` is to the millisecond (a file); HTTP's dates are whole seconds.
    public var ageIsExact = false

    public init(bytes: [UInt8], ageSeconds: Double?, ageIsExact: Bool = false) {
        self.bytes = bytes
        self.ageSeconds = ageSeconds
        self.ageIsExact = ageIsExact
    }
}

/// Reads a document once, with a size limit and a deadline: a file, or a plain HTTP/1.1 GET over a TCP socket. The
/// daemon links no HTTP client, and a poll needs none: one request, `Connection: close`, the answer read to the close
/// and parsed by `HTTPResponse`. Blocking: called on a source's own thread.
public enum DocumentFetch {
    public static func fetch(_ location: DocumentLocation, defaultFileName: String, maximumBytes: Int,
                             timeoutSeconds: Double) -> Result<FetchedDocument, FetchError> {
        switch location {
        case .file(let path): readFile(path, defaultFileName: defaultFileName, maximumBytes: maximumBytes)
        case .http(let endpoint, let path): get(endpoint, path: path, maximumBytes: maximumBytes, timeoutSeconds: timeoutSeconds)
        }
    }

    public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    static func readFile(_ given: String, defaultFileName: String, maximumBytes: Int) -> Result<FetchedDocument, FetchError> {
        var path = given
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { path += (path.hasSuffix("/") ? "" : "/") + defaultFileName }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FetchError("cannot open \(path): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { return .failure(FetchError("cannot read \(path): \(String(cString: strerror(errno)))")) }
        guard Int(info.st_size) <= maximumBytes else { return .failure(FetchError("\(path) is larger than \(maximumBytes) bytes")) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(FetchError("cannot read \(path): \(String(cString: strerror(errno)))")) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumBytes else { return .failure(FetchError("\(path) is larger than \(maximumBytes) bytes")) }
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        let age = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - modified
        return .success(FetchedDocument(bytes: bytes, ageSeconds: age, ageIsExact: true))
    }

    static func get(_ endpoint: NetworkEndpoint, path: String, maximumBytes: Int,
                    timeoutSeconds: Double) -> Result<FetchedDocument, FetchError> {
        let deadline = monotonicSeconds() + timeoutSeconds
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, endpoint.port, &hints, &found) == 0, let first = found else {
            return .failure(FetchError("cannot resolve \(endpoint.host)"))
        }
        defer { freeaddrinfo(found) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                            info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = String(cString: strerror(errno)); continue }
            defer { close(fd) }
            if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                guard errno == EINPROGRESS else { lastError = String(cString: strerror(errno)); continue }
                guard wait(fd, events: Int16(POLLOUT), until: deadline) else { lastError = "no answer within \(timeoutSeconds) s"; continue }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else { lastError = String(cString: strerror(error)); continue }
            }
            return exchange(fd, endpoint: endpoint, path: path, maximumBytes: maximumBytes, deadline: deadline, timeoutSeconds: timeoutSeconds)
        }
        return .failure(FetchError("cannot connect to \(endpoint): \(lastError)"))
    }

    private static func exchange(_ fd: Int32, endpoint: NetworkEndpoint, path: String, maximumBytes: Int, deadline: Double,
                                 timeoutSeconds: Double) -> Result<FetchedDocument, FetchError> {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(endpoint)\r\nUser-Agent: cockpitd\r\nAccept: application/json\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 { sent += count; continue }
            if count < 0 && (errno == EAGAIN || errno == EINTR), wait(fd, events: Int16(POLLOUT), until: deadline) { continue }
            return .failure(FetchError("cannot send the request to \(endpoint): \(count < 0 ? String(cString: strerror(errno)) : "closed")"))
        }
        // The headers' room on top of the document's limit.
        let limit = maximumBytes + 16_384
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                answer.append(contentsOf: chunk[0..<count])
                guard answer.count <= limit else { return .failure(FetchError("the answer from \(endpoint) is larger than \(maximumBytes) bytes")) }
                continue
            }
            if count == 0 { break }
            if errno == EINTR { continue }
            guard errno == EAGAIN else { return .failure(FetchError("cannot read the answer from \(endpoint): \(String(cString: strerror(errno)))")) }
            guard wait(fd, events: Int16(POLLIN), until: deadline) else {
                return .failure(FetchError("no whole answer from \(endpoint) within \(timeoutSeconds) s"))
            }
        }
        switch HTTPResponse.parse(answer) {
        case .failure(let failure): return .failure(FetchError("\(endpoint): \(failure)"))
        case .success(let response):
            guard response.body.count <= maximumBytes else { return .failure(FetchError("the answer from \(endpoint) is larger than \(maximumBytes) bytes")) }
            return .success(FetchedDocument(bytes: response.body, ageSeconds: response.documentAgeSeconds.map(Double.init)))
        }
    }

    /// Waits for `events` on `fd` until `deadline`; false when the time is up.
    private static func wait(_ fd: Int32, events: Int16, until deadline: Double) -> Bool {
        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let result = poll(&entry, 1, Int32(min(remaining, 60) * 1000) + 1)
            if result > 0 { return true }
            if result < 0 && errno == EINTR { continue }
            if result < 0 { return false }
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
