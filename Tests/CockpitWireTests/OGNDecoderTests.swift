import Testing
@testable import CockpitWire

/// Beacons from the real OGN feed in Tests/Fixtures/radio-traffic/ogn/beacons.txt, decoded by hand (arithmetic in
/// each test's comment) and the whole file counted against an independent shell count.
@Suite("OGN APRS decoder")
struct OGNDecoderTests {
    /// Line 3 of the file. Latitude 51° 28.66′ with !W67!'s 6 → 28.666′: 51 + 28.666/60 = 51.4777667°. Longitude
    /// 1° 25.32′ W with the 7 → 25.327′: −(1 + 25.327/60) = −1.4221167°. Course 067°, 064 kt, /A=004339 ft.
    /// id06DDD37F: 0x06 = 0000 0110 → not stealth, tracked, type 0001 (glider), address type 10 (FLARM), DDD37F.
    /// −435 fpm; −0.1 rot × 3 = −0.3 °/s; 5.0 dB.
    @Test func flarmGlider() throws {
        let line = "FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 !W67! id06DDD37F -435fpm -0.1rot 5.0dB 1e -0.1kHz gps3x4\r\n"
        let beacon = try OGNDecoder.decode(line).get()
        #expect(beacon.callSign == "FLRDDD37F" && beacon.receiver == "EGDM" && !beacon.relayed)
        #expect(beacon.hour == 15 && beacon.minute == 23 && beacon.second == 6)
        #expect(abs(beacon.latitudeDegrees - 51.4777667) < 1e-7 && abs(beacon.longitudeDegrees - -1.4221167) < 1e-7)
        #expect(beacon.trackDegreesTrue == 67 && beacon.groundSpeedKnots == 64 && beacon.gnssAltitudeMSLFeet == 4_339)
        #expect(beacon.identity == OGNIdentity(stealth: false, noTrack: false, aircraftType: .glider, addressType: .flarm, address: 0xDDD37F))
        #expect(beacon.climbRateFeetPerMinute == -435 && beacon.signalToNoiseDecibels == 5.0 && beacon.pressureAltitudeFeet == nil)
        #expect(abs((beacon.turnRateDegreesPerSecond ?? 0) - -0.3) < 1e-9)
    }

    /// A stealth glider: id86DD8436, 0x86 = 1000 0110 → stealth bit set, type glider, FLARM address.
    /// 43° 47.71′ + !W21!'s 2 → 47.712′: 43 + 47.712/60 = 43.7952°; 1° 57.99′ E + 1 → 57.991′: 1.9665167°.
    @Test func stealthGlider() throws {
        let line = "FLRDD8436>APRS,qAS,LFIT:/152306h4347.71N/00157.99E'145/054/A=004786 !W21! id86DD8436 -831fpm +0.0rot 0.0dB 5e -2.6kHz gps4x5"
        let beacon = try OGNDecoder.decode(line).get()
        #expect(beacon.identity.stealth && !beacon.identity.noTrack && beacon.identity.aircraftType == .glider)
        #expect(abs(beacon.latitudeDegrees - 43.7952) < 1e-7 && abs(beacon.longitudeDegrees - 1.9665167) < 1e-7)
    }

    /// South and east, standing still: 37° 49.17′ S + !W09!'s 0 → 49.170′: −(37 + 49.17/60) = −37.8195°; 145° 06.61′ E
    /// + 9 → 6.619′: 145 + 6.619/60 = 145.1103167°. 000/000 → course and speed unknown. id05 = 0000 0101 → glider, ICAO.
    @Test func icaoGliderOnTheGroundDownUnder() throws {
        let line = "ICA7C6C05>APRS,qAS,BoxHill:/152306h3749.17S/14506.61E'000/000/A=000308 !W09! id057C6C05 +000fpm +0.0rot 20.0dB 0e +41.3kHz gps2x2"
        let beacon = try OGNDecoder.decode(line).get()
        #expect(abs(beacon.latitudeDegrees - -37.8195) < 1e-7 && abs(beacon.longitudeDegrees - 145.1103167) < 1e-7)
        #expect(beacon.trackDegreesTrue == nil && beacon.groundSpeedKnots == nil && beacon.climbRateFeetPerMinute == 0)
        #expect(beacon.identity.addressType == .icao && beacon.identity.address == 0x7C6C05)
    }

    /// Another symbol table (`\` … `^`), a powered aircraft: id21 = 0010 0001 → type 1000 (piston), ICAO 3FF495.
    /// An OGN tracker relayed by another (`RELAY*`), id07 → glider, OGN address. And a tracker with a barometer:
    /// FL005.58 → 558 ft pressure altitude.
    @Test func otherSymbolsRelaysAndFlightLevel() throws {
        let piston = try OGNDecoder.decode("ICA3FF495>APRS,qAS,Uedem:/152305h5132.86N\\00645.47E^209/104/A=003218 !W67! id213FF495 +040fpm +0.0rot 6.8dB 1e -6.9kHz gps1x1").get()
        #expect(piston.identity.aircraftType == .pistonAircraft && piston.identity.addressType == .icao)
        #expect(piston.trackDegreesTrue == 209 && piston.groundSpeedKnots == 104 && piston.gnssAltitudeMSLFeet == 3_218)
        let relayed = try OGNDecoder.decode("OGN1C590E>APRS,RELAY*,qAS,SCLC:/152316h3322.38S/07034.68W'000/000/A=002309 !W78! id071C590E -019fpm +0.0rot gps4x6").get()
        #expect(relayed.relayed && relayed.receiver == "SCLC" && relayed.identity.addressType == .ogn)
        let level = try OGNDecoder.decode("OGN2EAE23>APRS,qAS,DarltonN:/152301h5314.90N/00051.25W'040/002/A=000108 !W52! id072EAE23 -019fpm -0.5rot FL005.58 2.8dB 9e +0.9kHz gps3x5").get()
        #expect(level.pressureAltitudeFeet == 558 && abs(level.latitudeDegrees - (53 + 14.905 / 60)) < 1e-9)
    }

    /// The 40-bit identity of newer sources (ogn-aprs.md §5): id1C40FE4522 → 0x1C40 = 0001 1100 0100 0000: stealth 0,
    /// no-track 0, type bits 0111 (paraglider), address type 00 0100 (4, Naviter), address FE4522. A no-track byte:
    /// id46… = 0100 0110 → no-track, glider, FLARM.
    @Test func longIdentityAndNoTrack() throws {
        let naviter = try OGNDecoder.decode("NAV07FE4522>OGNAVI,qAS,NAVITER:/152306h4620.36N/01416.78E'090/020/A=003000 !W52! id1C40FE4522 +100fpm").get()
        #expect(naviter.identity == OGNIdentity(stealth: false, noTrack: false, aircraftType: .paraglider, addressType: .other(4), address: 0xFE4522))
        // 4620.36N with !W52!'s 5 → 46° 20.365′ = 46 + 20.365/60 = 46.3394167°.
        #expect(abs(naviter.latitudeDegrees - 46.3394167) < 1e-7)
        let untracked = try OGNDecoder.decode("FLRDDAAAA>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 id46DDAAAA").get()
        #expect(untracked.identity.noTrack && !untracked.identity.stealth)
    }

    @Test(arguments: [
        ("", OGNRejection.empty), ("# aprsc 2.1.4-g408ed49", .comment),
        ("Totternho>APRS,TCPIP*,qAC,GLIDERN2:/152314h5152.84NI00033.87W&/A=000394", .receiverBeacon),
        ("Totternho>OGNSDR,qAS,GLIDERN2:/152314h5152.84NI00033.87W&/A=000394", .receiverBeacon),
        ("LOWG>APRS,TCPIP*,qAC,GLIDERN3:>152314h v0.2.6.ARM CPU:0.1 RAM:1339.2/2121.2MB", .status),
        ("FLRDDD37F>APRS,qAS,EGDM:=5128.66N/00125.32W'", .notPosition), ("no header at all", .header),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306z5128.66N/00125.32W'067/064/A=004339 id06DDD37F", .time),
        ("FLRDDD37F>APRS,qAS,EGDM:/252306h5128.66N/00125.32W'067/064/A=004339 id06DDD37F", .time),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5160.66N/00125.32W'067/064/A=004339 id06DDD37F", .position),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/18125.32W'067/064/A=004339 id06DDD37F", .position),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/0x4/A=004339 id06DDD37F", .courseSpeed),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=04339 id06DDD37F", .altitude),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 !W67! -435fpm", .noIdentity),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 id06DDD37G", .identity),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 id06DDD37F 4x5fpm", .climbRate),
        ("FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 id06DDD37F +99.0rot", .turnRate),
    ])
    func rejectsWithAReason(_ line: String, _ reason: OGNRejection) {
        #expect(OGNDecoder.decode(line) == .failure(reason), "\(line)")
    }

    /// Every line of the file. Independent count (in Tests/Fixtures/radio-traffic/ogn):
    /// `tr -d '\r' < beacons.txt | awk '{ if ($0=="") k="empty"; else if (substr($0,1,1)=="#") k="comment"; else {
    ///  i=index($0,":"); info=substr($0,i+1,1); hdr=substr($0,1,i-1); if (info==">") k="status"; else if (info!="/")
    ///  k="not a position"; else if (hdr ~ /TCPIP\*|qAC|>OGNSDR/) k="receiver beacon"; else if ($0 !~ / id[0-9A-Fa-f]+/)
    ///  k="no id"; else k="aircraft" } n[k]++ } END { for (k in n) print n[k], k }'` → 4910 aircraft, 44 receiver
    /// beacon, 43 status, 3 comment. The id flags, in Python over `grep -o ' id[0-9A-F]\{8\} ' beacons.txt | cut -c4-5`:
    /// stealth 10, no-track 0; address type 1: 1033, 2: 3862, 3: 15; aircraft type 0: 10, 1: 4371, 2: 126, 3: 13,
    /// 8: 387, F: 3. `grep qAS beacons.txt | cut -d'>' -f1 | sort -u | wc -l` → 611 aircraft; `grep -c RELAY` → 2;
    /// `grep -c ' FL[0-9]'` → 7.
    @Test func countsOverTheWholeFeedRecording() throws {
        var counts: [String: Int] = [:]
        var stealth = 0, noTrack = 0, relayed = 0, flightLevels = 0
        var addressTypes: [String: Int] = [:]
        var types: [RadioAircraftType: Int] = [:]
        var callSigns = Set<String>()
        for line in try RadioFixtures.lines("ogn/beacons.txt") {
            switch OGNDecoder.decode(line) {
            case .success(let beacon):
                counts["aircraft", default: 0] += 1
                if beacon.identity.stealth { stealth += 1 }
                if beacon.identity.noTrack { noTrack += 1 }
                if beacon.relayed { relayed += 1 }
                if beacon.pressureAltitudeFeet != nil { flightLevels += 1 }
                addressTypes["\(beacon.identity.addressType)", default: 0] += 1
                types[beacon.identity.aircraftType, default: 0] += 1
                callSigns.insert(beacon.callSign)
            case .failure(let reason): counts[reason.rawValue, default: 0] += 1
            }
        }
        #expect(counts == ["aircraft": 4_910, "receiver beacon": 44, "status": 43, "comment": 3])
        #expect(stealth == 10 && noTrack == 0 && relayed == 2 && flightLevels == 7 && callSigns.count == 611)
        #expect(addressTypes == ["icao": 1_033, "flarm": 3_862, "ogn": 15])
        #expect(types == [.reserved: 10, .glider: 4_371, .towPlane: 126, .helicopter: 13, .pistonAircraft: 387, .staticObstacle: 3])
    }
}
