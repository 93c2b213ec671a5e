public import CockpitCore
public import CockpitIO
import Glibc
import CockpitWire

/// Compact traffic reports (docs/traffic-packet.md): whom to send own reports to, where to listen, the key.
public struct TrafficSettings: SettingsGroup {
    public static let title = "Traffic"
    public var destinations: [TrafficSender.Destination] = []
    /// UDP port to receive reports and relay replies on; nil: not listening (a replay's default).
    public var port: Int?
    public var intervalSeconds = 1.0
    public var groundQuery = false
    public var keyFile: String?

    public init(mode: RunMode) {
        port = mode == .run ? 4060 : nil
    }

    public static let options: [SettingOption<TrafficSettings>] = [
        .init("traffic-to", .list(name: "HOST:PORT"), replay: .replaysOwn,
              help: "Send own traffic reports while airborne to HOST:PORT (repeatable; a subnet broadcast address works).",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.destinations = []; return }
                  guard let destination = TrafficSender.Destination(parsing: text) else { throw SettingError("must be HOST:PORT, not \"\(text)\"") }
                  settings.destinations.append(destination)
              }, clear: { $0.destinations = [] },
              show: { $0.destinations.isEmpty ? "none" : $0.destinations.map(\.description).joined(separator: ", ") }),
        .init("traffic-port", .value(name: "N"), replay: .replaysOwn,
              help: "UDP port to receive traffic reports and relay replies on (0: do not listen). run: 4060; replay: 0 unless given (a paced replay only).",
              set: { settings, text throws(SettingError) in
                  let port = try SettingValue.integer(text, 0...65_535)
                  settings.port = port == 0 ? nil : port
              }, show: { String($0.port ?? 0) }),
        .init("traffic-interval", .value(name: "S"), replay: .recorded, help: "Seconds between own reports while airborne (0.2–5).",
              set: { $0.intervalSeconds = try SettingValue.number($1, 0.2...5) }, show: { SettingValue.format($0.intervalSeconds) }),
        .init("traffic-ground-query", .flag, replay: .recorded,
              help: "On the ground, ask relays for traffic with a coarse (0.1°) position and a one-time identifier.",
              set: { $0.groundQuery = try SettingValue.flag($1) }, show: { SettingValue.yesNo($0.groundQuery) }),
        .init("traffic-key-file", .value(name: "FILE"), replay: .replaysOwn,
              help: "File with the traffic key (hex, 16–64 bytes): tags own reports, rejects untagged ones.",
              set: { $0.keyFile = try SettingValue.optionalPath($1) }, show: { $0.keyFile ?? "none" }),
    ]

    public func claims(mode: RunMode) -> [ResourceClaim] {
        ResourceClaim.reads("traffic-key-file", file: keyFile) + ResourceClaim.listens("traffic-port", udpPort: port)
    }

    public func validate(mode: RunMode) throws(SettingError) {
        _ = try key()
    }

    /// The key from `keyFile`, with an error that says what is wrong with the file.
    public func key() throws(SettingError) -> [UInt8]? {
        guard let keyFile else { return nil }
        var info = stat()
        guard stat(keyFile, &info) == 0 else { throw SettingError("--traffic-key-file \(keyFile): \(String(cString: strerror(errno)))") }
        guard info.st_size <= 4096 else { throw SettingError("--traffic-key-file \(keyFile): \(info.st_size) bytes; a key file holds at most 64 bytes of hex") }
        let bytes: [UInt8]
        do { bytes = try LineReader.readAll(path: keyFile, limitBytes: 4096) } catch {
            throw SettingError("--traffic-key-file \(keyFile): \(error)")
        }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        guard let key = Hex.decode(text) else { throw SettingError("--traffic-key-file \(keyFile): not hexadecimal") }
        guard key.count >= 16, key.count <= 64 else {
            throw SettingError("--traffic-key-file \(keyFile): \(key.count) bytes of key; needs 16 to 64")
        }
        guard key.contains(where: { $0 != 0 }) else { throw SettingError("--traffic-key-file \(keyFile): an all-zero key protects nothing") }
        return key
    }

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        core.traffic.sendingEnabled = !destinations.isEmpty
        core.traffic.intervalSeconds = intervalSeconds
        core.traffic.groundQuery = groundQuery
        core.traffic.tagged = keyFile != nil
        core.traffic.listening = port != nil
    }

    public func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] {
        guard !destinations.isEmpty else { return [] }
        let authenticator = try key().flatMap(TrafficAuthenticator.init(keyBytes:))
        return [TrafficOutput(sender: TrafficSender(destinations: destinations, authenticator: authenticator, sourcePort: port))]
    }
}

/// Own traffic reports leave through this output: one non-blocking UDP socket (a send that would block is dropped
/// and counted, never waited for).
final class TrafficOutput: RunnerOutput {
    let name = "traffic"
    let sender: TrafficSender

    init(sender: TrafficSender) { self.sender = sender }

    func handle(_ event: OutputEvent) {
        if case .effect(.sendDatagram(let payload), _) = event { sender.send(payload) }
    }

    func status() -> OutputStatus {
        var status = OutputStatus(unit: "datagrams")
        let counters = sender.counters
        status.sent = counters.sent
        status.failed = counters.failed
        status.dropped = counters.wouldBlock
        status.lastError = counters.lastError
        status.details["destinations"] = .array(sender.destinations.map { .string($0.description) })
        status.details["unresolved"] = .array(sender.unresolved.map { .string($0.description) })
        return status
    }

    func stop() {}
}
