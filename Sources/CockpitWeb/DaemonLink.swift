import CockpitClient
public import CockpitCore
import CockpitProtocol
import Glibc
import NIOConcurrencyHelpers

/// cockpit-web's only way to the daemon: the control socket, as `cockpitctl` uses it. Requests are one connection
/// each (blocking; run on the server's thread pool, never on its event loop). The web process keeps no state of its
/// own beyond the last snapshot it relays.
public struct DaemonLink: Sendable {
    public let socketPath: String
    /// A request that takes longer than this is answered as unreachable (an export of a long flight takes ~1 s).
    public var requestTimeoutSeconds = 10

    public init(socketPath: String) { self.socketPath = socketPath }

    /// The daemon's answer to one request, or the error object cockpit-web makes when the daemon cannot be reached
    /// (`{"ok":false,"error":{"code":"unreachable",…}}`, the control protocol's error shape).
    public func answer(_ name: String, arguments: JSONObject = [:]) -> JSONValue {
        do {
            let client = try ControlClient(path: socketPath, receiveTimeoutSeconds: requestTimeoutSeconds)
            return try client.request(name, arguments: arguments)
        } catch {
            return Self.unreachable(error.description)
        }
    }

    public static func unreachable(_ message: String) -> JSONValue {
        .object(["v": .integer(1), "ok": .bool(false), "error": .object(["code": .string("unreachable"), "message": .string(message)])])
    }
}

/// Follows the daemon's `watch` on a thread of its own and hands every snapshot line on; reconnects every 500 ms while
/// the daemon is away (a restart, an upgrade), saying so through `link`.
public final class WatchFollower: Sendable {
    private let socketPath: String
    private let stopped = NIOLockedValueBox(false)
    /// A watch sends a frame at least once a second; three seconds of silence is a daemon that hangs.
    static let silenceSeconds = 3
    static let retryMicroseconds: UInt32 = 500_000

    public init(socketPath: String) { self.socketPath = socketPath }

    public func stop() { stopped.withLockedValue { $0 = true } }

    /// Runs until `stop()`: `snapshot` gets each snapshot line as the daemon wrote it; `link` gets (connected, reason)
    /// on each change of the connection.
    public func run(snapshot: @Sendable (String) -> Void, link: @Sendable (Bool, String?) -> Void) {
        var connected: Bool? = nil
        func say(_ now: Bool, _ reason: String?) {
            if connected != now { link(now, reason) }
            connected = now
        }
        while !stopped.withLockedValue({ $0 }) {
            do {
                let client = try ControlClient(path: socketPath, receiveTimeoutSeconds: Self.silenceSeconds)
                try client.send(raw: Array(ControlProtocol.requestLine("watch").utf8))
                while !stopped.withLockedValue({ $0 }) {
                    guard let line = try client.readLine() else { throw ControlClient.Failure.closed }
                    // Only snapshots are relayed; the first answer (`watching`) says the link is up.
                    if line.contains("\"type\":\"snapshot\"") {
                        say(true, nil)
                        snapshot(line)
                    } else if line.contains("\"ok\":false") {
                        throw ControlClient.Failure.badResponse(line)
                    }
                }
            } catch {
                say(false, "\(error)")
            }
            if !stopped.withLockedValue({ $0 }) { usleep(Self.retryMicroseconds) }
        }
    }
}
