import Glibc
import Synchronization

/// The UDP socket bound to the traffic port, shared in this process by the receiver and the sender: reports leave
/// from the port we listen on, so a relay's reply to their source comes back through NAT (a cellular modem maps only
/// that port). The receiver binds it; the sender borrows a duplicate once it exists.
public enum TrafficPortSocket {
    private static let bound = Mutex<[Int: Int32]>([:])

    /// Binds 0.0.0.0:port and registers it; returns a duplicate for the caller to own, or the errno.
    static func bind(port: Int) -> Result<Int32, BindError> {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(BindError(code: errno)) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: port).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            return .failure(BindError(code: code))
        }
        bound.withLock { table in
            if let old = table[port] { close(old) }
            table[port] = fd
        }
        return .success(dup(fd))
    }

    /// The receiver stopped: the port is no longer ours to send from.
    static func unbind(port: Int) {
        bound.withLock { table in
            if let fd = table.removeValue(forKey: port) { close(fd) }
        }
    }

    /// A duplicate of the socket bound to `port`, if a receiver has bound it.
    static func borrow(port: Int) -> Int32? {
        bound.withLock { table in table[port].map { dup($0) } }
    }

    struct BindError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "bind: \(String(cString: strerror(code)))" }
    }
}
