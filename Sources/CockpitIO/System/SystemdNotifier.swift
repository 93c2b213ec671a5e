import Glibc

/// The sd_notify protocol, written out (a datagram of `KEY=VALUE` lines to $NOTIFY_SOCKET), so the daemon needs no
/// libsystemd. Without NOTIFY_SOCKET every call does nothing.
public final class SystemdNotifier: @unchecked Sendable {
    private let fd: Int32
    private var address = sockaddr_un()
    private var addressLength: socklen_t = 0
    /// Half of WATCHDOG_USEC: how often to ping, or nil when systemd did not ask for a watchdog.
    public let watchdogIntervalSeconds: Double?

    public var isActive: Bool { fd >= 0 }

    public convenience init() {
        self.init(environment: { name in getenv(name).map { String(cString: $0) } })
    }

    public init(environment: (String) -> String?) {
        var interval: Double?
        // systemd writes whole microseconds; "inf", "1e30" or a fraction is not a watchdog it set.
        if let usec = environment("WATCHDOG_USEC").flatMap(UInt64.init), usec > 0 {
            let pid = environment("WATCHDOG_PID").flatMap(Int32.init)
            if pid == nil || pid == getpid() { interval = Double(usec) / 1e6 / 2 }
        }
        watchdogIntervalSeconds = interval
        guard let path = environment("NOTIFY_SOCKET"), !path.isEmpty,
              path.hasPrefix("/") || path.hasPrefix("@") else {
            fd = -1
            return
        }
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }   // abstract namespace
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { fd = -1; return }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    deinit { if fd >= 0 { close(fd) } }

    @discardableResult
    public func notify(_ message: String) -> Bool {
        guard fd >= 0 else { return false }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), $0, addressLength)
            }
        }
        return sent == bytes.count
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status.oneLine)") }
    public func status(_ text: String) { notify("STATUS=\(text.oneLine)") }
    public func watchdog() { notify("WATCHDOG=1") }
    public func stopping() { notify("STOPPING=1") }
}

extension String {
    var oneLine: String { String(map { $0 == "\n" || $0 == "\r" ? " " : $0 }) }
}
