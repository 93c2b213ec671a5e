import Glibc
import Synchronization
import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// The FLARM NMEA port (TCP 2000, open on the cabin Wi-Fi) against a careless or hostile client: what one client
/// sends costs the core's tick a bounded slice, and a new client always gets a slot. Each test drives the server as
/// the core's tick does (`broadcast` once a "second"), so nothing waits on a clock.
@Suite("FLARM port hardening")
struct FLARMPortHardeningTests {
    static func port() -> Int { Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p }) }

    /// A TCP client of the server's port from a loopback address of its own (127.0.0.N stands for another host on
    /// the Wi-Fi). Blocking; nil when the connection failed.
    static func connectClient(port: Int, from host: UInt32 = 0x7F00_0001, receiveBuffer: Int32? = nil) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = host.bigEndian
        _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard result == 0 else { close(fd); return nil }
        return fd
    }

    /// Reads what is waiting on `fd` without blocking: nil when the server closed the connection.
    static func drain(_ fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { total += count; continue }
            if count == 0 { return nil }
            return errno == EAGAIN || errno == EWOULDBLOCK ? total : nil
        }
    }

    /// A client writing garbage as fast as it can for up to 10 s: one broadcast reads at most its budget and
    /// disconnects it as flooding, so the writer stops because its connection was closed — not at its 10 s deadline,
    /// which is where it would stop if the broadcast read until the client gave up (8–18 s in a release build).
    @Test func aGarbageWriterCostsOneTickABoundedSlice() throws {
        let port = Self.port()
        let server = try NMEATCPServer(port: port)
        defer { server.stop() }
        let fd = try #require(Self.connectClient(port: port))
        defer { close(fd) }
        #expect(waitFor(seconds: 5) { server.broadcast(""); return server.clients.count == 1 })
        final class Progress: Sendable {
            let writing = Mutex(true), written = Mutex(0), reachedDeadline = Mutex(false)
        }
        let progress = Progress()
        try BackgroundThread.start(name: "garbage-writer") {
            let garbage = [UInt8](repeating: 0x41, count: 65_536)
            let start = MonotonicClock.now()
            while MonotonicClock.now().seconds(since: start) < 10 {
                let count = send(fd, garbage, garbage.count, Int32(MSG_NOSIGNAL))
                if count <= 0 { break }
                progress.written.withLock { $0 += count }
            }
            progress.reachedDeadline.withLock { $0 = MonotonicClock.now().seconds(since: start) >= 10 }
            progress.writing.withLock { $0 = false }
        }
        #expect(waitFor(seconds: 5) { progress.written.withLock { $0 } > 1_000_000 })
        server.broadcast("$PFLAU,0,0,0,1,0,,0,,*4F\r\n")
        #expect(server.counters.droppedFlooding == 1 && server.clients.isEmpty)
        #expect(server.counters.bytesDiscarded <= Int64(server.readBudgetBytes))
        #expect(waitFor(seconds: 12) { !progress.writing.withLock { $0 } }, "the writer sees its connection closed")
        #expect(!progress.reachedDeadline.withLock { $0 }, "the writer ran to its deadline: the broadcast read until the client stopped")
    }

    /// Eight connections that never read, from eight addresses, hold every slot; the pilot's XCSoar still gets in
    /// (the oldest is closed for it) and is sent the next second's sentences, rather than being refused for good.
    @Test func eightClientsThatNeverReadDoNotLockOutThePilot() throws {
        let port = Self.port()
        let server = try NMEATCPServer(port: port)
        defer { server.stop() }
        var stuck: [Int32] = []
        defer { stuck.forEach { close($0) } }
        for host in 2...9 {
            stuck.append(try #require(Self.connectClient(port: port, from: 0x7F00_0000 | UInt32(host), receiveBuffer: 4_096)))
            #expect(waitFor(seconds: 5) { server.broadcast("$PFLAU,0,0,0,1,0,,0,,*4F\r\n"); return server.clients.count == host - 1 })
        }
        let pilot = try #require(Self.connectClient(port: port, from: 0x7F00_0001))
        defer { close(pilot) }
        var received = 0
        #expect(waitFor(seconds: 5) {
            server.broadcast("$PFLAU,0,0,0,1,0,,0,,*4F\r\n")
            received += Self.drain(pilot) ?? 0
            return received > 0
        }, "the pilot's client got nothing")
        #expect(Self.drain(pilot) != nil, "the pilot's connection stays open")
        #expect(server.counters.evicted == 1 && server.clients.count == 8)
        #expect(server.clients.contains { $0.peer.hasPrefix("127.0.0.1:") } && !server.clients.contains { $0.peer.hasPrefix("127.0.0.2:") },
                "the oldest stuck connection (127.0.0.2) made room")
    }

    /// One address holds at most three slots: eight connections from one host leave five slots for everyone else.
    @Test func oneAddressHoldsAtMostThreeSlots() throws {
        let port = Self.port()
        let server = try NMEATCPServer(port: port)
        defer { server.stop() }
        var fds: [Int32] = []
        defer { fds.forEach { close($0) } }
        for _ in 0..<8 {
            fds.append(try #require(Self.connectClient(port: port, from: 0x7F00_0005)))
            server.broadcast("")
        }
        #expect(waitFor(seconds: 5) { server.broadcast(""); return server.counters.accepted == 8 })
        #expect(server.clients.count == 3 && server.counters.evicted == 5)
        // The three newest are the ones kept: the first five see their connection closed.
        #expect(fds.prefix(5).allSatisfy { Self.drain($0) == nil } && fds.suffix(3).allSatisfy { Self.drain($0) != nil })
    }

    /// A client whose socket stays full (it reads nothing; its receive buffer and the server's are full) is
    /// disconnected after 10 broadcasts with sentences left unsent, even though its backlog stays under the limit.
    @Test func aClientWhoseSocketStaysFullIsDisconnected() throws {
        let port = Self.port()
        let server = try NMEATCPServer(port: port, backlogLimitBytes: 1 << 30)
        defer { server.stop() }
        let fd = try #require(Self.connectClient(port: port, receiveBuffer: 4_096))
        defer { close(fd) }
        #expect(waitFor(seconds: 5) { server.broadcast(""); return server.clients.count == 1 })
        let second = String(repeating: "$PFLAA,0,100,100,10,0,ABCDEF,90,,30,0.5,0*00\r\n", count: 40)
        var broadcasts = 0
        while server.counters.droppedStuck == 0, broadcasts < 100_000 {
            server.broadcast(second)
            broadcasts += 1
        }
        #expect(server.counters.droppedStuck == 1 && server.clients.isEmpty, "after \(broadcasts) broadcasts")
        #expect(server.counters.lastError?.contains("socket full") == true)
    }
}
