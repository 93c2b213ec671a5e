import Testing
import CockpitCore
@testable import CockpitWire

/// Malformed uplinks and APDUs: each refused with its reason, nothing trapped. The payloads are built here from the
/// field layouts of DO-282B (information frame header: 9-bit length, 3 reserved bits, 4-bit type) and DO-358B (APDU
/// header), on top of a real San Jose uplink header.
@Suite("UAT uplink refusals")
struct UplinkRefusalTests {
    /// San Jose line 593's 8-byte header (37.32270 N 121.75499 W, UTC coupled, application data valid, slot 2,
    /// site 11), then the application data given.
    static func payload(_ data: [UInt8]) -> [UInt8] {
        let header = Hex.decode("3514c952d65ca2b0") ?? []
        return header + data + [UInt8](repeating: 0, count: max(0, 424 - data.count))
    }

    @Test func wrongLengthAndNotHexAreRefused() throws {
        #expect(UplinkFrame.parse([UInt8](repeating: 0, count: 431)) == .failure(.wrongLength))
        #expect(UplinkFrame.parse([UInt8](repeating: 0, count: 433)) == .failure(.wrongLength))
        #expect(UplinkFrame.parse([]) == .failure(.wrongLength))
        #expect(UplinkFrame.parse(hex: String(repeating: "0", count: 863)) == .failure(.wrongLength))
        #expect(UplinkFrame.parse(hex: String(repeating: "0", count: 862) + "0g") == .failure(.notHex))
        #expect(UplinkFrame.parse(hex: String(repeating: "é", count: 432)) == .failure(.notHex))   // 864 UTF-8 bytes
        #expect(try UplinkFrame.parse(hex: String(repeating: "0A", count: 432)).get().slotID == 10)   // either case
    }

    /// A frame of 422 bytes fills the 424 bytes of application data with its 2-byte header; one of 423 does not.
    @Test func anInformationFrameRunningPastTheDataIsRefused() throws {
        let fits = UplinkFrame.parse(Self.payload([0xD3, 0x00] + [UInt8](repeating: 0x55, count: 422)))
        #expect(try fits.get().informationFrames.map(\.bytes.count) == [422])
        let overruns = UplinkFrame.parse(Self.payload([0xD3, 0x80]))   // length 423: one byte past the end
        #expect(overruns == .failure(.informationFrameOverrun))
        let afterAFrame = UplinkFrame.parse(Self.payload([0x02, 0x0F, 0xAA, 0xBB, 0xCC, 0xDD, 0xFF, 0x80]))   // 4 bytes, then length 511
        #expect(afterAFrame == .failure(.informationFrameOverrun))
    }

    /// The header's fields of line 593, and a frame list ended by a zero length; types 14 and 15 named.
    @Test func headerFieldsAndFrameTypes() throws {
        let frame = try UplinkFrame.parse(Self.payload([0x00, 0x8E, 0x11, 0x01, 0x0F, 0x22, 0x33, 0x00, 0x00, 0x01, 0x0F, 0x44])).get()
        #expect(frame.slotID == 2 && frame.tisbSiteID == 11 && frame.utcCoupled && frame.applicationDataValid && !frame.positionValidFlag)
        #expect(frame.informationFrames == [UplinkInformationFrame(type: .currentReportList, bytes: [0x11]),
                                            UplinkInformationFrame(type: .serviceStatus, bytes: [0x22, 0x33])])
        var header = Self.payload([0x00, 0x8E, 0x11])
        header[6] &= ~0x20   // application data not valid: its frames are not read
        #expect(try UplinkFrame.parse(header).get().informationFrames.isEmpty)
    }

    /// APDU headers: too short, time options 1 and 3 (read differently by DO-267A and DO-358B), an hour of 25, a
    /// segmented text product (counted, not read), and option 2's month and day.
    @Test func apduRefusals() throws {
        #expect(FISBAPDU.parse([0x06, 0x74, 0x0D]) == .failure(.tooShort))
        // Product 413 = 0b00110011101: byte 0 = AGP 00110, byte 1 = 011101 S T1, byte 2 = T0 and the time fields.
        #expect(FISBAPDU.parse([0x06, 0x74, 0x80, 0x00, 0x00, 0x00]) == .failure(.timeOptionAmbiguous))   // option 1
        #expect(FISBAPDU.parse([0x06, 0x75, 0x80, 0x00, 0x00, 0x00]) == .failure(.timeOptionAmbiguous))   // option 3
        #expect(FISBAPDU.parse([0x06, 0x74, 0x64, 0x00]) == .failure(.impossibleTime))   // hour 25
        // Option 2: month 1011, day 11100, hour 00011, minute 001101, 3 bits of padding.
        let option2 = try FISBAPDU.parse([0x06, 0x75, 0x5F, 0x06, 0x68, 0x41]).get()
        #expect(option2.time == FISBAPDUTime(month: 11, day: 28, hourUTC: 3, minuteUTC: 13) && option2.payload == [0x41])
        // Segmented, option 0: 03:13, then product file 2 of length 2, APDU 1 (10 + 9 + 9 bits), payload 0x41.
        let segmented = [0x06, 0x76, 0x0C, 0xD0, 0x08, 0x04, 0x01, 0x41] as [UInt8]
        let apdu = try FISBAPDU.parse(segmented).get()
        #expect(apdu.segmentation == FISBSegmentation(productFileID: 2, productFileLength: 2, apduNumber: 1))
        #expect(apdu.time == FISBAPDUTime(month: nil, day: nil, hourUTC: 3, minuteUTC: 13) && apdu.payload == [0x41])
        var data: [UInt8] = [UInt8(segmented.count >> 1), UInt8(segmented.count & 1) << 7] + segmented
        data += [0, 0]
        let contents = FISBUplinkContents(try UplinkFrame.parse(Self.payload(data)).get())
        #expect(contents.segmentedTextAPDUs == 1 && contents.reports.isEmpty && contents.apdusByProduct == [413: 1])
    }
}
