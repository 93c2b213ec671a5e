import Testing
import CockpitIO

/// Sources a discovery announcement cannot come from (RFC 919 and RFC 922: all host bits set is a network's
/// broadcast address, all clear its network address; 255.255.255.255 is the limited broadcast; 224/4 multicast).
@Suite("GDL 90 discovery: sources that cannot be an EFB")
struct DiscoverySourceTests {
    let networks = LocalNetworks(networks: [(0xC0A8_0A01, 0xFFFF_FF00),    // 192.168.10.1/24, the Pi's access point
                                            (0x7F00_0001, 0xFF00_0000),    // 127.0.0.1/8
                                            (0x0A00_0005, 0xFFFF_FFFE)])   // 10.0.0.5/31: no broadcast address

    @Test func broadcastAndNetworkAddressesAreRefused() {
        #expect(networks.refusal(forSource: "192.168.10.255") == "192.168.10.255 is the broadcast address of 192.168.10.0/24")
        #expect(networks.refusal(forSource: "192.168.10.0") == "192.168.10.0 is the network address of 192.168.10.0/24")
        #expect(networks.refusal(forSource: "127.255.255.255") == "127.255.255.255 is the broadcast address of 127.0.0.0/8")
        #expect(networks.refusal(forSource: "127.0.0.0") == "127.0.0.0 is the network address of 127.0.0.0/8")
        #expect(networks.refusal(forSource: "255.255.255.255") == "255.255.255.255 is the limited broadcast address")
        #expect(networks.refusal(forSource: "0.0.0.0") == "0.0.0.0 is the unspecified address")
        #expect(networks.refusal(forSource: "224.0.0.251") == "224.0.0.251 is a multicast address")
    }

    @Test func hostAddressesPass() {
        for host in ["192.168.10.20", "192.168.10.254", "192.168.10.1", "127.0.0.1", "10.0.0.4", "10.0.0.5", "172.16.0.255"] {
            #expect(networks.refusal(forSource: host) == nil, "\(host)")
        }
    }
}
