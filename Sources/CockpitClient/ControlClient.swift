import Glibc
public import CockpitCore
import CockpitProtocol

/// A small blocking client for the control socket (cockpitctl and the tests use it).
public final class ControlClient {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case cannotConnect(path: String, errno: Int32)
        case io(String)
        /// No answer within the receive timeout (a watcher keeps waiting; a request gives up).
        case timedOut
        case badResponse(String)
        case closed
        public var description: String {
            switch self {
            case .cannotConnect(let path, let errno):
                "cannot reach cockpitd at \(path): \(String(cString: strerror(errno)))"
            case .io(let what): "control socket error: \(what)"
            case .timedOut: "timed out waiting for an answer from cockpitd"
            case .badResponse(let what): "unexpected answer from cockpitd: \(what)"
            case .closed: "cockpitd closed the connection"
            }
        }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    public static let maximumLineBytes = 16 << 20

    public init(path: String, receiveTimeoutSeconds: Int = 10) throws(Failure) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw .cannotConnect(path: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw .cannotConnect(path: path, errno: error)
        }
        if receiveTimeoutSeconds > 0 {
            var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends raw bytes (a request line, or anything a test wants to throw at the daemon).
    public func send(raw: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < raw.count {
            let written = raw.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .io(String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Half-closes the connection: the daemon sees end of input but can still answer.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads one newline-terminated line; nil when the daemon closed the connection.
    public func readLine() throws(Failure) -> String? {
        var scanned = 0   // bytes already known to hold no newline: a long answer (an export) is scanned once
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            scanned = buffer.count
            let count = chunk.withUnsafeMutableBufferPointer { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut }
                throw .io(String(cString: strerror(errno)))
            }
            if count == 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            if buffer.count > Self.maximumLineBytes { throw .badResponse("answer longer than \(Self.maximumLineBytes) bytes") }
        }
    }

    public func readResponse() throws(Failure) -> JSONValue {
        guard let line = try readLine() else { throw .closed }
        do { return try JSONParser.parse(line) } catch { throw .badResponse(error.description) }
    }

    /// Sends a request (`{"v":1,"request":NAME,…arguments}`) and returns the parsed answer.
    public func request(_ name: String, arguments: JSONObject = [:], id: Int64? = nil) throws(Failure) -> JSONValue {
        let line = ControlProtocol.requestLine(name, arguments: arguments, id: id.map { .integer($0) })
        try send(raw: Array(line.utf8))
        return try readResponse()
    }
}
