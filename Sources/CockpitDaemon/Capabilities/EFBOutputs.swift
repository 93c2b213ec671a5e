import CockpitCore
import CockpitIO
import Glibc
import Logging

/// GDL 90 to EFBs: once a second (a tick of the core's timeline, so a replay runs at replay speed) it hears discovery
/// broadcasts, expires silent EFBs, re-reads the leases file when due, encodes the second and sends one datagram per
/// message to every destination. Every socket call is non-blocking; nothing here waits.
final class GDL90Output: RunnerOutput {
    let name = "gdl90"
    var wantsTicks: Bool { true }

    private struct Target {
        var destination: GDL90Settings.Destination
        var source: String
        var address: sockaddr_in?
        var counters = UDPDatagramSender.Counters()
    }

    private let settings: GDL90Settings
    private let logger: Logger
    private let sender = UDPDatagramSender()
    private var listener: UDPListener?
    private var listenerError: String?
    private var discovery: GDL90DiscoveryTable
    /// When a refused announcement was last logged (core time): at most one log line a minute for them.
    private var refusalLoggedAt: MonotonicInstant?
    private var refusalsNotLogged = 0
    private var leases: [String] = []
    private var leasesError: String?
    private var leasesReadAt: MonotonicInstant?
    private var localNetworks = LocalNetworks(networks: [])
    private var targets: [String: Target] = [:]
    private var order: [String] = []
    private var cycles: Int64 = 0
    /// The destinations of the last second's cycle: each UAT uplink goes to them as it is heard.
    private var active: [String] = []
    private var uplinksForwarded: Int64 = 0

    init(settings: GDL90Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        discovery = GDL90DiscoveryTable(discoveryPort: settings.discoveryPort)
        if let port = settings.discoveryPort {
            do { listener = try UDPListener(port: port) } catch {
                listenerError = "\(error)"
                logger.warning("GDL 90 discovery not available: \(error)")
            }
        }
        for destination in settings.destinations { target(destination, source: "configured") }
    }

    @discardableResult
    private func target(_ destination: GDL90Settings.Destination, source: String) -> String {
        let key = destination.description
        if targets[key] == nil {
            targets[key] = Target(destination: destination, source: source,
                                  address: UDPDatagramSender.resolve(host: destination.host, port: destination.port))
            order.append(key)
        }
        return key
    }

    func handle(_ event: OutputEvent) {
        if case .effect(.forwardUplink(let uplink), _) = event {
            forward(uplink)
            return
        }
        guard case .tick(let snapshot) = event else { return }
        let now = snapshot.monotonic
        refreshLeases(at: now)
        if let listener {
            // Up to 256 a second: a spoofer's 64 addresses a second must not queue a tablet's announcement for longer
            // than its silence window.
            for datagram in listener.receive(limit: 256) {
                let rejectedBefore = discovery.rejected
                if let reason = localNetworks.refusal(forSource: datagram.host) {
                    discovery.refuseSource(reason)
                } else if !localNetworks.contains(datagram.host) {
                    discovery.refuseSource("\(datagram.host) is on none of this box's networks")
                } else {
                    discovery.heard(datagram.bytes, from: datagram.host, at: now, leased: leases)
                }
                if discovery.rejected > rejectedBefore { logRefusal(at: now) }
            }
        }
        discovery.expire(at: now)
        var active: [String] = settings.destinations.map(\.description)
        defer { self.active = active }
        for host in leases { active.append(target(.init(parsing: "\(host):\(GDL90Settings.defaultPort)")!, source: "leases")) }
        for client in discovery.clients {
            guard let destination = GDL90Settings.Destination(parsing: "\(client.host):\(client.port)") else { continue }
            active.append(target(destination, source: "discovered (\(client.app))"))
        }
        var seen = Set<String>()
        active = active.filter { seen.insert($0).inserted }
        if targets.count > 256 {   // EFBs come and go over a long uptime: forget the counters of those gone
            order = order.filter { seen.contains($0) }
            targets = targets.filter { seen.contains($0.key) }
        }
        guard !active.isEmpty else { return }
        var ownship = GDL90Ownship(icaoAddress: settings.icaoAddress, callsign: settings.callsign,
                                   emitterCategory: GDL90Ownship.emitterCategory(for: snapshot.configuration.flightProfile.kind))
        ownship.longName = "cockpitd"
        let frames = GDL90Cycle.messages(EFBPicture(snapshot), ownship: ownship)
        cycles += 1
        for key in active {
            guard var target = targets[key] else { continue }
            if let address = target.address {
                for frame in frames { sender.send(frame, to: address, counters: &target.counters) }
            } else {
                target.counters.failed += Int64(frames.count)
                target.counters.lastError = "cannot resolve \(target.destination.host)"
            }
            targets[key] = target
        }
    }

    /// GDL 90 Uplink Data (0x07) to every destination of the last cycle, the payload as received. The time of
    /// reception is sent as not valid (0xFFFFFF): dump978-fa's `t=` is the receiver's system clock in milliseconds,
    /// not a time from the UTC second mark in 80 ns steps.
    private func forward(_ uplink: RadioUplink) {
        guard !active.isEmpty, uplink.payload.count == RadioUplink.payloadBytes else { return }
        let frame = GDL90Frame.frame(GDL90Message.uplinkData(payload: uplink.payload))
        uplinksForwarded += 1
        for key in active {
            guard var target = targets[key] else { continue }
            if let address = target.address {
                sender.send(frame, to: address, counters: &target.counters)
            } else {
                target.counters.failed += 1
            }
            targets[key] = target
        }
    }

    /// A refused announcement, logged at most once a minute of the core's time (a flood must not flood the journal);
    /// the counters in the status hold every one.
    private func logRefusal(at now: MonotonicInstant) {
        if let last = refusalLoggedAt, now >= last, now.seconds(since: last) < 60 {
            refusalsNotLogged += 1
            return
        }
        let more = refusalsNotLogged > 0 ? " (and \(refusalsNotLogged) more refused in the last minute)" : ""
        logger.warning("GDL 90 discovery: announcement refused: \(discovery.lastRejection ?? "?")\(more)")
        refusalLoggedAt = now
        refusalsNotLogged = 0
    }

    /// The leases file and this box's networks every 30 s of the core's time (a small local file; an error is shown,
    /// never fatal). The Wi-Fi's address may come later than the daemon (DHCP), so the networks are read again too.
    private func refreshLeases(at now: MonotonicInstant) {
        if let last = leasesReadAt, now.seconds(since: last) < 30, now >= last { return }
        leasesReadAt = now
        localNetworks = LocalNetworks.current()
        guard let path = settings.leasesFile else { return }
        do {
            leases = DnsmasqLeases.addresses(in: String(decoding: try LineReader.readAll(path: path, limitBytes: 256 << 10), as: UTF8.self))
            leasesError = nil
        } catch {
            leasesError = "\(error)"
        }
    }

    func status() -> OutputStatus {
        var status = OutputStatus(unit: "datagrams")
        var list: [JSONValue] = []
        var bytes: Int64 = 0
        for key in order {
            guard let target = targets[key] else { continue }
            status.sent += target.counters.sent
            status.failed += target.counters.failed
            status.dropped += target.counters.wouldBlock
            if let error = target.counters.lastError { status.lastError = "\(key): \(error)" }
            bytes += target.counters.bytes
            list.append(.object(["destination": .string(key), "source": .string(target.source),
                                 "active": .bool(settings.destinations.contains { $0.description == key }
                                     || discovery.clients.contains { "\($0.host):\($0.port)" == key }
                                     || leases.contains { "\($0):\(GDL90Settings.defaultPort)" == key }),
                                 "sent": .integer(target.counters.sent), "bytes": .integer(target.counters.bytes),
                                 "failed": .integer(target.counters.failed), "dropped": .integer(target.counters.wouldBlock),
                                 "lastError": .optional(target.counters.lastError)]))
        }
        status.details["bytes"] = .integer(bytes)
        status.details["cycles"] = .integer(cycles)
        status.details["uplinksForwarded"] = .integer(uplinksForwarded)
        status.details["destinations"] = .array(list)
        status.details["discovery"] = .object([
            "port": .optional(settings.discoveryPort), "listening": .bool(listener != nil), "error": .optional(listenerError),
            "clients": .array(discovery.clients.map { .string("\($0.host):\($0.port) \($0.app)") }),
            "accepted": .integer(Int64(discovery.accepted)), "rejected": .integer(Int64(discovery.rejected)),
            "lastRejection": .optional(discovery.lastRejection), "expired": .integer(Int64(discovery.expired)),
            "replaced": .integer(Int64(discovery.replaced)), "refusedTooFast": .integer(Int64(discovery.refusedTooFast)),
            "refusedTableFull": .integer(Int64(discovery.refusedTableFull)), "refusedSources": .integer(Int64(discovery.refusedSources)),
        ])
        status.details["leases"] = .object(["file": .optional(settings.leasesFile), "addresses": .array(leases.map(JSONValue.string)),
                                            "error": .optional(leasesError)])
        return status
    }

    func stop() { listener = nil }
}

/// FLARM NMEA to every TCP client, once a second on the core's timeline.
final class FLARMOutput: RunnerOutput {
    let name = "flarm"
    var wantsTicks: Bool { true }
    private var server: NMEATCPServer?
    private let port: Int
    private var error: String?
    private var sentences: Int64 = 0

    init(port: Int, logger: Logger) {
        self.port = port
        do { server = try NMEATCPServer(port: port) } catch {
            self.error = "\(error)"
            logger.warning("FLARM NMEA not available: \(error)")
        }
    }

    func handle(_ event: OutputEvent) {
        guard case .tick(let snapshot) = event, let server else { return }
        let text = FLARMNMEA.cycle(EFBPicture(snapshot), trafficTransmitting: snapshot.configuration.traffic.sendingEnabled)
        server.broadcast(text)
        if !server.clients.isEmpty { sentences += Int64(text.utf8.reduce(0) { $0 + ($1 == 0x24 ? 1 : 0) }) }
    }

    func status() -> OutputStatus {
        var status = OutputStatus(unit: "bytes")
        status.details["port"] = .integer(Int64(port))
        guard let server else {
            status.lastError = error
            status.details["listening"] = .bool(false)
            return status
        }
        let counters = server.counters
        status.sent = counters.bytesSent
        status.failed = counters.failed
        status.dropped = counters.droppedStuck + counters.droppedFlooding
        status.lastError = counters.lastError
        status.details["listening"] = .bool(true)
        status.details["sentences"] = .integer(sentences)
        status.details["accepted"] = .integer(counters.accepted)
        status.details["evicted"] = .integer(counters.evicted)
        status.details["droppedFlooding"] = .integer(counters.droppedFlooding)
        status.details["bytesDiscarded"] = .integer(counters.bytesDiscarded)
        status.details["closedByClient"] = .integer(counters.closedByClient)
        status.details["droppedStuck"] = .integer(counters.droppedStuck)
        status.details["clients"] = .array(server.clients.map { .object(["peer": .string($0.peer), "bytes": .integer($0.bytesSent),
                                                                        "backlogBytes": .integer(Int64($0.backlogBytes))]) })
        return status
    }

    func stop() { server?.stop() }
}
