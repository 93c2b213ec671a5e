import Glibc
import CockpitIO
import Synchronization

/// A UDP listener on loopback that keeps every datagram it gets (an EFB, a peer's traffic port, a relay's client).
public final class DatagramCapture: @unchecked Sendable {
    public let fd: Int32
    public let port: UInt16

    public init() {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var size: Int32 = 8 << 20
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: 0)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        fd = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }
    deinit { close(fd) }

    /// Collects in the background while something sends faster than the socket buffer holds.
    private let collected = Mutex<[[UInt8]]>([])
    private let state = Mutex((stopping: false, finished: false))
    public func startCollecting() {
        state.withLock { $0 = (false, false) }
        try! BackgroundThread.start(name: "capture") { [self] in
            var buffer = [UInt8](repeating: 0, count: 2048)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    let bytes = Array(buffer[0..<count])
                    collected.withLock { $0.append(bytes) }
                } else if state.withLock({ $0.stopping }) {
                    break   // 200 ms of silence (the receive timeout) after the sender was done
                }
            }
            state.withLock { $0.finished = true }
        }
    }

    /// What has been collected so far, while collecting goes on.
    public var collectedSoFar: [[UInt8]] { collected.withLock { $0 } }

    /// Everything collected, once the sender is done and the socket has been silent for 200 ms.
    public func stopCollecting() -> [[UInt8]] {
        state.withLock { $0.stopping = true }
        _ = waitFor(seconds: 30) { state.withLock { $0.finished } }
        return collected.withLock { $0 }
    }

    /// Everything received so far, then up to 200 ms more of silence (a sender in another thread or process).
    public func drain() -> [[UInt8]] {
        var all: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return all }
            all.append(Array(buffer[0..<count]))
        }
    }

    /// Everything already received, without waiting: for a sender on the calling thread (an embedded daemon's outputs
    /// send on its tick, and a loopback datagram is queued at the receiver before `sendto` returns).
    public func take() -> [[UInt8]] {
        var all: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count <= 0 { return all }
            all.append(Array(buffer[0..<count]))
        }
    }
}

/// A TCP client on loopback that connects (retrying while the server starts) and keeps everything until EOF.
public final class TCPCapture: @unchecked Sendable {
    private let received = Mutex<[UInt8]>([])
    private let done = Mutex(false)
    private let connected = Mutex(false)

    public init(port: Int) {
        try! BackgroundThread.start(name: "tcp-capture") { [self] in
            var fd: Int32 = -1
            _ = waitFor(seconds: 10, every: 0.01) {
                fd = connectLoopbackTCP(port: UInt16(port))
                return fd >= 0
            }
            guard fd >= 0 else { done.withLock { $0 = true }; return }
            connected.withLock { $0 = true }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
            close(fd)
            done.withLock { $0 = true }
        }
    }

    public var isConnected: Bool { connected.withLock { $0 } }

    /// What has been received so far.
    public var textSoFar: String { String(decoding: received.withLock { $0 }, as: UTF8.self) }

    /// Waits for EOF (the server closes at the end of the replay), at most `seconds`.
    public func text(waitingUpTo seconds: Double) -> String {
        _ = waitFor(seconds: seconds) { done.withLock { $0 } }
        return String(decoding: received.withLock { $0 }, as: UTF8.self)
    }
}

/// One UDP datagram with `text` to 127.0.0.1:`port`, from 127.0.0.1 or from `source` (an address of the loopback
/// network, bound as the source: 0x7F00_0000 is the network's own address).
public func udpSend(_ text: String, toPort port: Int, from source: UInt32? = nil) {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(fd) }
    if let source {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = source.bigEndian
        _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    }
    sendLoopbackUDP(Array(text.utf8), from: fd, port: UInt16(port))
}
