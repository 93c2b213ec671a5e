import Testing
import CockpitCore

/// The discovery table under forged announcements (docs/efb.md, "gdl90-discovery-port"). ForeFlight announces every
/// 5 s while in the foreground (its GDL 90 integration notes); a spoofer can announce from many addresses of the cabin
/// network as often as it likes.
@Suite("GDL 90 discovery table")
struct GDL90DiscoveryTableTests {
    static func announcement(_ port: Int, app: String = "ForeFlight") -> [UInt8] {
        Array(#"{"App":"\#(app)","GDL90":{"port":\#(port)}}"#.utf8)
    }

    /// The pilot's tablet announces every 5 s from 0 s; from 1 s on, 64 forged apps announce every second. The
    /// tablet keeps its place from its second announcement on (it has a history), and the forged addresses fill the
    /// free places at one a second, so they cannot fill the table before the tablet's second announcement.
    @Test func aTabletThatAnnouncedBeforeASpooferKeepsItsPlace() {
        var table = GDL90DiscoveryTable(discoveryPort: 63_093)
        var servedSeconds: [Int] = []
        for second in 0..<60 {
            let now = MonotonicInstant(seconds: Double(second))
            if second >= 1 {
                for forged in 0..<64 { table.heard(Self.announcement(4000, app: "X"), from: "192.168.10.\(100 + forged)", at: now) }
            }
            if second % 5 == 0 { table.heard(Self.announcement(4000), from: "192.168.10.20", at: now) }
            table.expire(at: now)
            if table.clients.contains(where: { $0.host == "192.168.10.20" }) { servedSeconds.append(second) }
            #expect(table.clients.count <= table.capacity)
        }
        #expect(servedSeconds == Array(0..<60), "the tablet is sent to every second: \(servedSeconds)")
        #expect(table.clients.count == 16 && table.replaced == 0)
        // New addresses are taken at one a second after a burst of 3: 15 forged ones by 13 s; then the table is full
        // of addresses with a history and every further newcomer is refused.
        #expect(table.refusedTooFast > 0 && table.refusedTableFull > 0)
    }

    /// Leased addresses still win over addresses that are not leased, history or not; a newcomer takes the place of
    /// an address heard only once.
    @Test func newcomersReplaceOnlyAddressesHeardOnce() {
        var table = GDL90DiscoveryTable()
        table.newcomersPerSecond = 100
        table.newcomerBurst = 100
        for host in 0..<16 { table.heard(Self.announcement(4000), from: "10.0.0.\(host)", at: MonotonicInstant(seconds: 1 + Double(host) / 100)) }
        for host in 0..<8 { table.heard(Self.announcement(4000), from: "10.0.0.\(host)", at: MonotonicInstant(seconds: 2)) }
        // Heard once: 10.0.0.8 … 15; the stalest of them (10.0.0.8) goes for the newcomer.
        table.heard(Self.announcement(4000), from: "10.0.1.1", at: MonotonicInstant(seconds: 3))
        #expect(table.clients.contains { $0.host == "10.0.1.1" } && !table.clients.contains { $0.host == "10.0.0.8" })
        for host in 9..<16 { table.heard(Self.announcement(4000), from: "10.0.0.\(host)", at: MonotonicInstant(seconds: 3)) }
        table.heard(Self.announcement(4000), from: "10.0.1.1", at: MonotonicInstant(seconds: 3))
        // Every place now has a history: a newcomer is refused, a leased newcomer takes the stalest unleased place.
        table.heard(Self.announcement(4000), from: "10.0.1.2", at: MonotonicInstant(seconds: 4))
        #expect(!table.clients.contains { $0.host == "10.0.1.2" } && table.refusedTableFull == 1)
        table.heard(Self.announcement(4000), from: "10.0.1.3", at: MonotonicInstant(seconds: 4), leased: ["10.0.1.3"])
        #expect(table.clients.contains { $0.host == "10.0.1.3" } && !table.clients.contains { $0.host == "10.0.0.0" })
        #expect(table.clients.count == 16 && table.replaced == 2)
    }

    /// An announcement naming the discovery port as its GDL 90 port is refused: GDL 90 sent there would reach every
    /// discovery listener, this one included.
    @Test func theDiscoveryPortIsNotAnEFBPort() {
        var table = GDL90DiscoveryTable(discoveryPort: 63_093)
        table.heard(Self.announcement(63_093), from: "192.168.10.20", at: MonotonicInstant(seconds: 1))
        #expect(table.clients.isEmpty && table.rejected == 1)
        #expect(table.lastRejection?.contains("discovery port") == true)
        table.heard(Self.announcement(63_094), from: "192.168.10.20", at: MonotonicInstant(seconds: 1))
        #expect(table.clients.map(\.port) == [63_094])
    }

    /// Three EFBs switched on together are all taken at once (the burst); the fourth in the same second waits for
    /// its next announcement.
    @Test func newAddressesAreTakenAtOneASecond() {
        var table = GDL90DiscoveryTable()
        for host in 1...4 { table.heard(Self.announcement(4000), from: "192.168.10.\(host)", at: MonotonicInstant(seconds: 10)) }
        #expect(table.clients.map(\.host) == ["192.168.10.1", "192.168.10.2", "192.168.10.3"] && table.refusedTooFast == 1)
        table.heard(Self.announcement(4000), from: "192.168.10.4", at: MonotonicInstant(seconds: 11))
        #expect(table.clients.count == 4)
        table.heard(Self.announcement(4000), from: "192.168.10.5", at: MonotonicInstant(seconds: 11))
        #expect(table.clients.count == 4, "one a second")
    }

    /// Discovery on the core's timeline: an EFB is sent to while its broadcasts keep coming and dropped after 15 s of
    /// silence; malformed broadcasts are counted, never used.
    @Test func anEFBExpiresAfterFifteenSecondsOfSilence() {
        var table = GDL90DiscoveryTable()
        table.heard(Self.announcement(4000), from: "192.168.10.20", at: MonotonicInstant(seconds: 100))
        #expect(table.clients.map(\.port) == [4000])
        table.heard(Self.announcement(4002), from: "192.168.10.20", at: MonotonicInstant(seconds: 105))
        #expect(table.clients.count == 1 && table.clients[0].port == 4002)   // the port may change
        table.expire(at: MonotonicInstant(seconds: 120))
        #expect(table.clients.count == 1)   // 15 s after the last broadcast: still there
        table.expire(at: MonotonicInstant(seconds: 120.5))
        #expect(table.clients.isEmpty && table.expired == 1)
        for bad in ["not json", #"{"App":"X"}"#, #"{"GDL90":{"port":4000}}"#, #"{"App":"X","GDL90":{"port":70000}}"#] {
            table.heard(Array(bad.utf8), from: "10.0.0.1", at: MonotonicInstant(seconds: 121))
        }
        #expect(table.clients.isEmpty && table.rejected == 4 && table.accepted == 2)
    }

    /// One forged announcement buys little: a service's port (DNS 53, NTP 123, anything below 1024) is refused, and an
    /// address heard once is sent to for 6 s, not 15 (ForeFlight announces every 5 s, so a real app is heard again).
    @Test func oneAnnouncementIsBounded() {
        var table = GDL90DiscoveryTable()
        for port in [53, 123, 1, 1023] { table.heard(Self.announcement(port), from: "192.168.10.9", at: MonotonicInstant(seconds: 10)) }
        #expect(table.clients.isEmpty && table.rejected == 4)
        #expect(table.lastRejection?.contains("below 1024") == true)
        table.heard(Self.announcement(1024), from: "192.168.10.9", at: MonotonicInstant(seconds: 10))
        table.expire(at: MonotonicInstant(seconds: 16))
        #expect(table.clients.count == 1)
        table.expire(at: MonotonicInstant(seconds: 16.5))
        #expect(table.clients.isEmpty, "heard once: 6 s, not 15")
    }

    /// A tablet that joins after a spoofer has filled the table with addresses that announce every second gets in
    /// when the DHCP leases name it: it takes the place of the stalest address not leased, and keeps it.
    @Test func aLeasedTabletGetsInAfterTheSpooferFilledTheTable() {
        var table = GDL90DiscoveryTable()
        let leased = ["192.168.10.77"]
        var servedSeconds = 0
        for second in 0..<60 {
            let now = MonotonicInstant(seconds: Double(second))
            for forged in 0..<64 { table.heard(Self.announcement(4000, app: "X"), from: "192.168.10.\(100 + forged)", at: now, leased: leased) }
            if second >= 20, (second - 20) % 5 == 0 { table.heard(Self.announcement(4000), from: "192.168.10.77", at: now, leased: leased) }
            table.expire(at: now)
            if table.clients.contains(where: { $0.host == "192.168.10.77" }) { servedSeconds += 1 }
        }
        #expect(servedSeconds == 40, "sent to every second from its first announcement at 20 s to 59 s")
        #expect(table.replaced == 1 && table.clients.count == 16)
    }
}
