/// EFBs found by ForeFlight's discovery broadcast (UDP 63093, JSON with `App` and `GDL90.port`, sent every 5 s while
/// the app is in the foreground). Pure; the output feeds it what its socket heard, on the core's timeline.
///
/// A UDP broadcast's source address can be forged, so what announcements can cause is bounded:
/// - the port must be an EFB's: unprivileged (1024…65535; below are services: DNS 53, NTP 123, SNMP 161) and not the
///   discovery port itself (GDL 90 sent there would land in every discovery listener on the network, this one too);
/// - an address heard once is sent to for `probationSeconds` only (a little over one announcement period); heard
///   again, it has a history and stays until `silenceSeconds` after its last announcement;
/// - at most `newcomersPerSecond` new addresses are taken a second (`newcomerBurst` at once), so a spoofer announcing
///   from many addresses needs longer to fill the table than a genuine app needs to announce twice;
/// - at most `capacity` EFBs. With the table full a newcomer takes the place of the stalest address heard only once;
///   an address with a history is never pushed out by a newcomer, and an address the DHCP server leased (`leased`) is
///   never pushed out by one it did not lease. A leased newcomer may take the place of any address not leased.
/// The output refuses a source outside this box's networks, or a broadcast or network address, before it gets here.
public struct GDL90DiscoveryTable: Sendable, Equatable {
    public struct Client: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var app: String
        public var firstHeard: MonotonicInstant
        public var lastHeard: MonotonicInstant
        public var announcements: Int

        /// Announced more than once: a history, kept against newcomers.
        public var hasHistory: Bool { announcements > 1 }
    }

    public static let efbPorts = 1_024...65_535
    public var silenceSeconds = 15.0
    public var probationSeconds = 6.0
    public var capacity = 16
    public var newcomersPerSecond = 1.0
    public var newcomerBurst = 3.0
    /// The port the discovery broadcasts arrive on (never an EFB's GDL 90 port); nil when not known.
    public var discoveryPort: Int?
    public private(set) var clients: [Client] = []
    /// Announcements taken (a new EFB, or one already in the table heard again).
    public private(set) var accepted = 0
    /// Announcements refused, for any reason (`lastRejection` says the last one).
    public private(set) var rejected = 0
    public private(set) var lastRejection: String?
    /// Of `rejected`: new addresses refused because new ones came faster than `newcomersPerSecond`.
    public private(set) var refusedTooFast = 0
    /// Of `rejected`: new addresses refused because every place was held by an address with a history (or leased).
    public private(set) var refusedTableFull = 0
    /// Of `rejected`: sources that cannot be an EFB (a broadcast or network address, another network).
    public private(set) var refusedSources = 0
    public private(set) var expired = 0
    /// EFBs heard only once, replaced by a newer one with the table full.
    public private(set) var replaced = 0
    private var newcomerAllowance: Double
    private var allowanceAt: MonotonicInstant?

    public init(discoveryPort: Int? = nil) {
        self.discoveryPort = discoveryPort
        newcomerAllowance = newcomerBurst
    }

    /// A broadcast from `host` heard at `now`. `leased`: the addresses of the DHCP leases file.
    public mutating func heard(_ payload: [UInt8], from host: String, at now: MonotonicInstant, leased: [String] = []) {
        guard payload.count <= 4_096 else { refuse("datagram of \(payload.count) bytes"); return }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes: payload) } catch { refuse("not JSON: \(error)"); return }
        guard let app = json["App"]?.stringValue else { refuse("no \"App\""); return }
        guard let port = json["GDL90"]?["port"]?.int64Value, port >= 1, port <= 65_535 else { refuse("no valid \"GDL90\".\"port\""); return }
        guard Self.efbPorts.contains(Int(port)) else {
            refuse("port \(port) from \(host) is a service's (below 1024), not an EFB's")
            return
        }
        guard Int(port) != discoveryPort else {
            refuse("port \(port) from \(host) is the discovery port itself, not an EFB's")
            return
        }
        let name = String(app.prefix(64))
        if let index = clients.firstIndex(where: { $0.host == host }) {
            accepted += 1
            clients[index].port = Int(port)   // the port may change
            clients[index].app = name
            clients[index].lastHeard = now
            clients[index].announcements += 1
            return
        }
        let isLeased = leased.contains(host)
        var place: Int?
        if clients.count >= capacity {
            let candidates = clients.indices.filter { index in
                let client = clients[index], clientLeased = leased.contains(client.host)
                return isLeased ? !clientLeased || !client.hasHistory : !clientLeased && !client.hasHistory
            }
            // Not leased before leased, then the stalest.
            place = candidates.min { left, right in
                let leftLeased = leased.contains(clients[left].host), rightLeased = leased.contains(clients[right].host)
                if leftLeased != rightLeased { return !leftLeased }
                return clients[left].lastHeard < clients[right].lastHeard
            }
            guard place != nil else {
                refusedTableFull += 1
                refuse("\(host): all \(capacity) places held by EFBs that announce steadily" + (isLeased ? " from leased addresses" : ""))
                return
            }
        }
        if !isLeased {
            refillAllowance(at: now)
            guard newcomerAllowance >= 1 else {
                refusedTooFast += 1
                refuse("\(host): new EFBs announcing faster than \(Self.text(newcomersPerSecond)) a second; taken at a later announcement")
                return
            }
            newcomerAllowance -= 1
        }
        if let place {
            clients.remove(at: place)
            replaced += 1
        }
        accepted += 1
        clients.append(Client(host: host, port: Int(port), app: name, firstHeard: now, lastHeard: now, announcements: 1))
    }

    private mutating func refillAllowance(at now: MonotonicInstant) {
        if let last = allowanceAt {
            guard now > last else { return }
            newcomerAllowance = min(newcomerBurst, newcomerAllowance + now.seconds(since: last) * newcomersPerSecond)
        }
        allowanceAt = now
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Drops every client silent for longer than its window: `probationSeconds` after a single announcement,
    /// `silenceSeconds` once heard again.
    public mutating func expire(at now: MonotonicInstant) {
        let before = clients.count
        clients.removeAll { now.seconds(since: $0.lastHeard) > ($0.hasHistory ? silenceSeconds : probationSeconds) }
        expired += before - clients.count
    }

    /// A broadcast refused for `reason`.
    public mutating func refuse(_ reason: String) {
        rejected += 1
        lastRejection = reason
    }

    /// A broadcast refused for its source address (not one an EFB can have), before it is read.
    public mutating func refuseSource(_ reason: String) {
        refusedSources += 1
        refuse(reason)
    }
}
