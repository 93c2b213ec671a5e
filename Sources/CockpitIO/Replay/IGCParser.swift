import CockpitCore
public import CockpitWire

/// Reads an IGC flight log (FAI IGC technical specification, appendix A): B records become GPS
/// fixes, their pressure altitude becomes barometer samples through the inverse standard atmosphere.
///
/// Handles both HFDTE header forms (`HFDTEddmmyy` and `HFDTEDATE:ddmmyy,nn`), the UTC midnight
/// rollover, `V` (invalid) fixes, pressure altitude 0 meaning "not recorded", and any fix interval.
/// IGC has no velocity: ground speed, track and climb are derived from the neighbouring fixes.
public struct IGCFlight: Sendable {
    public var date: (year: Int, month: Int, day: Int)
    /// True when the header says the GNSS altitude is above the geoid; false (the IGC default) for the ellipsoid.
    public var gnssAltitudeIsMSL: Bool
    public var bRecords: Int { fixes.count }
    public var invalidFixes: Int
    public var skippedLines: Int
    /// The median interval between B records, seconds.
    public var medianFixIntervalSeconds: Double
    /// The glider type the header names (`HFGTYGLIDERTYPE:`), trimmed; nil when absent or blank.
    public var gliderType: String?

    let fixes: [IGCParser.BRecord]
    /// Seconds since the flight date's midnight, per B record, after midnight rollover.
    let absoluteSeconds: [Int]
    /// For each B record, the index of the previous/next valid one (itself if none) for velocity estimates.
    let neighbours: [(before: Int, after: Int)]
    let midnight: UTCInstant

    /// Number of raw inputs the flight yields (fixes plus recorded pressure altitudes).
    public var inputCount: Int { fixes.count + fixes.filter { $0.pressureAltitudeMeters != nil }.count }

    /// All inputs at once (tests and small tools; replay streams them with `inputs(at:)`).
    public var records: [TimedInput] {
        var all: [TimedInput] = []
        all.reserveCapacity(inputCount)
        for index in fixes.indices { all.append(contentsOf: inputs(at: index)) }
        return all
    }

    /// The fix for B record `index`, followed by its pressure sample when one was recorded.
    public func inputs(at index: Int) -> [TimedInput] {
        let record = fixes[index]
        let time = MonotonicInstant(nanoseconds: Int64(absoluteSeconds[index] - absoluteSeconds[0]) * 1_000_000_000)
        let utc = midnight.adding(seconds: Double(absoluteSeconds[index]))
        var fix: GPSFix
        if record.valid {
            fix = GPSFix(utc: utc, mode: .threeDimensional, latitudeDegrees: record.latitude, longitudeDegrees: record.longitude)
            let altitude = record.gnssAltitudeMeters.map(Double.init)
            if gnssAltitudeIsMSL { fix.altitudeMSLMeters = altitude } else { fix.altitudeHAEMeters = altitude }
            if altitude == nil { fix.mode = .twoDimensional }
            let (before, after) = neighbours[index]
            let dt = Double(absoluteSeconds[after] - absoluteSeconds[before])
            if before != after, dt > 0, dt <= 60 {
                let a = fixes[before], b = fixes[after]
                let meters = GreatCircle.distanceMeters(latitude1: a.latitude, longitude1: a.longitude,
                                                        latitude2: b.latitude, longitude2: b.longitude)
                fix.groundSpeedMetersPerSecond = meters / dt
                if meters > 0.5 {
                    fix.trackTrueDegrees = GreatCircle.initialBearingDegrees(
                        latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
                }
                if let altA = a.gnssAltitudeMeters, let altB = b.gnssAltitudeMeters {
                    fix.climbMetersPerSecond = Double(altB - altA) / dt
                }
            }
        } else {
            fix = GPSFix(utc: utc, mode: .noFix)
        }
        var result = [TimedInput(time: time, input: .gpsFix(fix))]
        if let pressureAltitude = record.pressureAltitudeMeters {
            let pascals = StandardAtmosphere.pressurePascals(
                pressureAltitudeFeet: UnitConversions.feet(fromMeters: Double(pressureAltitude)))
            result.append(TimedInput(time: time, input: .baroPressure(pressurePascals: pascals, temperatureCelsius: nil)))
        }
        return result
    }
}

public enum IGCParser {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noDate
        case noFixes
        public var description: String {
            switch self {
            case .noDate: "IGC file has no HFDTE date header"
            case .noFixes: "IGC file has no B records"
            }
        }
    }

    struct BRecord: Sendable {
        var secondsOfDay: Int
        var latitude: Double
        var longitude: Double
        var valid: Bool
        var pressureAltitudeMeters: Int?
        var gnssAltitudeMeters: Int?
    }

    public static func looksLikeIGC(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "A") { return true }
        return bytes.prefix(4096).split(separator: 0x0A).contains { $0.first == UInt8(ascii: "B") && $0.count >= 35 }
            && bytes.prefix(4096).split(separator: 0x0A).contains { $0.starts(with: Array("HFDTE".utf8)) }
    }

    public static func parse(_ bytes: [UInt8]) throws(Failure) -> IGCFlight {
        var date: (Int, Int, Int)?
        var gnssIsMSL = false
        var gliderType: String?
        var bRecords: [BRecord] = []
        bRecords.reserveCapacity(bytes.count / 40)
        var skipped = 0
        var lineStart = 0
        let count = bytes.count
        while lineStart < count {
            var lineEnd = lineStart
            while lineEnd < count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var end = lineEnd
            if end > lineStart, bytes[end - 1] == 0x0D { end -= 1 }
            let line = bytes[lineStart..<end]
            if let kind = line.first {
                if kind == UInt8(ascii: "B") {
                    if let record = parseB(line) { bRecords.append(record) } else { skipped += 1 }
                } else if kind == UInt8(ascii: "H") {
                    if date == nil, let parsed = parseDate(line) { date = parsed }
                    if gliderType == nil, startsWith(line, "HFGTY"), let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                        let name = String(decoding: line[(colon + 1)...].prefix(64), as: UTF8.self).drop(while: { $0 == " " })
                        let trimmed = String(name.reversed().drop(while: { $0 == " " }).reversed())
                        if !trimmed.isEmpty { gliderType = trimmed }
                    }
                    if startsWith(line, "HFALGALTGPS") {   // GNSS altitude datum: ELL (the default) or GEO
                        let text = String(decoding: line, as: UTF8.self).uppercased()
                        if text.contains("GEO") || text.contains("MSL") { gnssIsMSL = true }
                    }
                }
            }
            lineStart = lineEnd + 1
        }
        guard let (year, month, day) = date else { throw .noDate }
        guard !bRecords.isEmpty else { throw .noFixes }

        // Absolute seconds since the flight date's midnight, with rollover past UTC midnight.
        var absoluteSeconds: [Int] = []
        absoluteSeconds.reserveCapacity(bRecords.count)
        var dayOffset = 0
        var previous = -1
        for record in bRecords {
            if previous >= 0, record.secondsOfDay + dayOffset < previous - 12 * 3600 { dayOffset += 86_400 }
            let value = record.secondsOfDay + dayOffset
            absoluteSeconds.append(value)
            previous = value
        }
        var intervals: [Int] = []
        for index in 1..<max(1, absoluteSeconds.count) { intervals.append(absoluteSeconds[index] - absoluteSeconds[index - 1]) }
        let positive = intervals.filter { $0 > 0 }.sorted()
        let median = positive.isEmpty ? 1 : positive[positive.count / 2]

        // Velocity comes from the valid fixes on either side: two each way for 1–2 s loggers (a 4 s baseline
        // smooths GPS jitter, as a receiver's Doppler velocity would be smooth), one each way for slower loggers.
        // Never across a gap in the log (more than 3 intervals, at least 10 s): the chord across a gap is not a
        // velocity (a thermalling circle's chord is nearly zero), so the fixes either side use their own side only.
        let reach = median <= 2 ? 2 : 1
        let gapSeconds = max(10, 3 * median)
        let validIndices = bRecords.indices.filter { bRecords[$0].valid }
        var segmentFirst = [Int](repeating: 0, count: validIndices.count)
        var segmentLast = [Int](repeating: 0, count: validIndices.count)
        for position in validIndices.indices where position > 0 {
            let jump = absoluteSeconds[validIndices[position]] - absoluteSeconds[validIndices[position - 1]]
            segmentFirst[position] = jump > gapSeconds ? position : segmentFirst[position - 1]
        }
        for position in validIndices.indices.reversed() {
            let last = position + 1 < validIndices.count && segmentFirst[position + 1] == segmentFirst[position]
            segmentLast[position] = last ? segmentLast[position + 1] : position
        }
        var neighbours = [(before: Int, after: Int)](repeating: (0, 0), count: bRecords.count)
        for index in bRecords.indices { neighbours[index] = (index, index) }
        for (position, index) in validIndices.enumerated() {
            neighbours[index] = (validIndices[max(segmentFirst[position], position - reach)],
                                 validIndices[min(segmentLast[position], position + reach)])
        }
        return IGCFlight(date: (year, month, day), gnssAltitudeIsMSL: gnssIsMSL,
                         invalidFixes: bRecords.filter { !$0.valid }.count, skippedLines: skipped,
                         medianFixIntervalSeconds: Double(median), gliderType: gliderType,
                         fixes: bRecords, absoluteSeconds: absoluteSeconds, neighbours: neighbours,
                         midnight: UTCInstant(year: year, month: month, day: day))
    }

    static func startsWith(_ line: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        return prefix.withUTF8Buffer { buffer in
            (0..<count).allSatisfy { line[line.startIndex + $0] == buffer[$0] }
        }
    }

    /// `HFDTEddmmyy` (old form) or `HFDTEDATE:ddmmyy,nn` (2016 form).
    static func parseDate(_ line: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        guard startsWith(line, "HFDTE") else { return nil }
        var cursor = line.startIndex + 5
        if startsWith(line[cursor...], "DATE:") { cursor += 5 }
        guard let day = digits(line, cursor, 2), let month = digits(line, cursor + 2, 2),
              let year2 = digits(line, cursor + 4, 2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (year2 < 80 ? 2000 + year2 : 1900 + year2, month, day)
    }

    static func digits(_ line: ArraySlice<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= line.startIndex, start + count <= line.endIndex else { return nil }
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(line[index]) - 48
            guard digit >= 0, digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// Signed 5-character altitude field ("-0048", "01234").
    static func signedAltitude(_ line: ArraySlice<UInt8>, _ start: Int) -> Int? {
        guard start + 5 <= line.endIndex else { return nil }
        if line[start] == UInt8(ascii: "-") { return digits(line, start + 1, 4).map { -$0 } }
        return digits(line, start, 5)
    }

    /// B HHMMSS DDMMmmmN DDDMMmmmE V PPPPP GGGGG — 35 characters before any extensions.
    static func parseB(_ line: ArraySlice<UInt8>) -> BRecord? {
        let s = line.startIndex
        guard line.count >= 35,
              let hh = digits(line, s + 1, 2), let mm = digits(line, s + 3, 2), let ss = digits(line, s + 5, 2),
              hh < 24, mm < 60, ss < 60,
              let latDeg = digits(line, s + 7, 2), let latMinThousandths = digits(line, s + 9, 5),
              let lonDeg = digits(line, s + 15, 3), let lonMinThousandths = digits(line, s + 18, 5)
        else { return nil }
        let ns = line[s + 14], ew = line[s + 23], validity = line[s + 24]
        guard ns == UInt8(ascii: "N") || ns == UInt8(ascii: "S"), ew == UInt8(ascii: "E") || ew == UInt8(ascii: "W"),
              validity == UInt8(ascii: "A") || validity == UInt8(ascii: "V"),
              latDeg <= 90, lonDeg <= 180, latMinThousandths < 60_000, lonMinThousandths < 60_000
        else { return nil }
        var latitude = Double(latDeg) + Double(latMinThousandths) / 60_000
        var longitude = Double(lonDeg) + Double(lonMinThousandths) / 60_000
        if ns == UInt8(ascii: "S") { latitude = -latitude }
        if ew == UInt8(ascii: "W") { longitude = -longitude }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let pressure = signedAltitude(line, s + 25)
        let gnss = signedAltitude(line, s + 30)
        return BRecord(secondsOfDay: hh * 3600 + mm * 60 + ss, latitude: latitude, longitude: longitude,
                       valid: validity == UInt8(ascii: "A"),
                       pressureAltitudeMeters: pressure == 0 ? nil : pressure,
                       gnssAltitudeMeters: gnss == 0 && pressure == 0 ? nil : gnss)
    }
}
