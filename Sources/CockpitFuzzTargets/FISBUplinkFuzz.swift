import CockpitWire

/// The UAT uplink and FIS-B text decoder (`UplinkFrame`, `FISBAPDU`, `FISBText`, `FISBCounts`) on any bytes.
/// Mode byte: bit 2 set reads the rest as one APDU (header, then DLAC text); otherwise the rest is an uplink payload,
/// cut or padded with zeros to 432 bytes unless bit 1 keeps its length, read from bytes and from its hex text (bit 0
/// upper case, bit 3 one character made not hex at the place bits 4–7 name): both readings must agree.
/// Traps when a value leaves its field's range, the frames overrun the data, a report's text holds what DLAC cannot
/// say or a record separator, a station or issue time is malformed, or the totals do not add up.
enum FISBUplinkFuzz {
    static func uplink(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        let mode = input.byte()
        var payload = input.rest
        if mode & 0x04 != 0 {
            apdu(payload)
            return
        }
        if mode & 0x02 == 0 {
            payload = Array((payload + [UInt8](repeating: 0, count: UplinkFrame.payloadBytes)).prefix(UplinkFrame.payloadBytes))
        }
        let result = UplinkFrame.parse(payload)
        precondition((payload.count == UplinkFrame.payloadBytes) == (result != .failure(.wrongLength)), "length refusal")
        var hex = Array(Hex.encode(payload).utf8)
        if mode & 0x01 != 0 { hex = hex.map { $0 >= 0x61 ? $0 - 0x20 : $0 } }
        let spoiled = mode & 0x08 != 0 && !hex.isEmpty
        if spoiled { hex[Int(mode >> 4) * 53 % hex.count] = UInt8(ascii: "g") }
        let fromHex = UplinkFrame.parse(hex: String(decoding: hex, as: UTF8.self))
        precondition(spoiled ? fromHex == .failure(result == .failure(.wrongLength) ? .wrongLength : .notHex) : fromHex == result,
                     "hex and bytes read differently")
        var counts = FISBCounts()
        guard let contents = counts.add(result), case .success(let frame) = result else {
            precondition(counts.uplinks == 0 && counts.refusedUplinks.values.reduce(0, +) == 1, "a refusal not counted")
            return
        }
        check(frame)
        let apdus = contents.apdusByProduct.values.reduce(0, +) + contents.refusedAPDUs.values.reduce(0, +)
        precondition(apdus + contents.otherInformationFrames == frame.informationFrames.count, "an information frame not counted")
        precondition(counts.reportsByKind.values.reduce(0, +) == contents.reports.count, "a report not counted")
        for received in contents.reports { check(received.report) }
    }

    static func apdu(_ bytes: [UInt8]) {
        switch FISBAPDU.parse(bytes) {
        case .failure(let reason):
            precondition(reason != .tooShort || bytes.count < 9, "refused as short at \(bytes.count) bytes")
        case .success(let apdu):
            precondition((0..<2048).contains(apdu.productID) && (0...7).contains(apdu.reservedFlags))
            precondition((0...23).contains(apdu.time.hourUTC) && (0...59).contains(apdu.time.minuteUTC))
            precondition((apdu.time.month == nil) == (apdu.time.day == nil), "half a date")
            if let month = apdu.time.month, let day = apdu.time.day { precondition((1...12).contains(month) && (1...31).contains(day)) }
            if let s = apdu.segmentation { precondition(s.productFileID < 1024 && s.productFileLength < 512 && s.apduNumber < 512) }
            precondition(apdu.payload.count <= bytes.count - 4, "a payload longer than the APDU")
            for report in FISBText.reports(inPayload: apdu.payload) { check(report) }
        }
        for report in FISBText.reports(inPayload: bytes) { check(report) }
    }

    static func check(_ frame: UplinkFrame) {
        precondition(abs(frame.groundStationLatitudeDegrees) <= 90 && abs(frame.groundStationLongitudeDegrees) <= 180)
        precondition((0...31).contains(frame.slotID) && (0...15).contains(frame.tisbSiteID))
        precondition(frame.applicationDataValid || frame.informationFrames.isEmpty, "frames read from invalid application data")
        let used = frame.informationFrames.reduce(0) { $0 + $1.bytes.count + 2 }
        precondition(used <= UplinkFrame.payloadBytes - UplinkFrame.headerBytes, "frames past the application data")
        precondition(frame.informationFrames.allSatisfy { !$0.bytes.isEmpty && (0...15).contains($0.type.code) })
    }

    /// What DLAC can write inside a record: `A`–`Z`, ASCII space to `?`, new line, `|` and the substitute character.
    static func check(_ report: FISBTextReport) {
        let text = Array(report.text.utf8)
        precondition(!text.isEmpty && text.first != 0x20 && text.first != 0x0A && text.last != 0x20 && text.last != 0x0A)
        precondition(text.allSatisfy { (0x20...0x3F).contains($0) || (0x41...0x5A).contains($0) || $0 == 0x0A || $0 == 0x7C || $0 == 0x1A },
                     "a character DLAC cannot write")
        precondition(report.text.hasPrefix(report.typeWord) && !report.typeWord.isEmpty)
        precondition((report.kind == .other) == !["METAR", "SPECI", "TAF", "TAF.AMD", "PIREP", "WINDS"].contains(report.typeWord))
        if let station = report.station {
            precondition((3...4).contains(station.utf8.count) && station.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) })
        } else {
            precondition(report.issued == nil, "an issue time without a station")
        }
        if let issued = report.issued {
            precondition((1...31).contains(issued.day) && (0...23).contains(issued.hourUTC) && (0...59).contains(issued.minuteUTC))
        }
        precondition(!report.singleLineText.isEmpty && !report.singleLineText.contains("  ") && !report.singleLineText.contains("\n"))
    }
}
