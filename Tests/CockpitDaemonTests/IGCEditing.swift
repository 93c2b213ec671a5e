import CockpitCore
import CockpitIO
import CockpitTestSupport
import Synchronization

private let sharedLogs = Mutex<[String: IGCLog]>([:])

enum IGCLogError: Error { case outOfOrder(String) }

/// A bundled IGC log edited at the text level, the way a logger that dropped out (a gap) or a wing flying slower into
/// wind (a re-timed approach) would have written it. B records are read here independently of `IGCParser`
/// (FAI IGC specification, appendix A: `B HHMMSS DDMMmmmN DDDMMmmmE V PPPPP GGGGG`) and written back in the same form;
/// extensions are dropped. The edited bytes then go through the real parser, replay source and runner.
struct IGCLog {
    struct B {
        var seconds: Int   // since the log's midnight (no fixture crosses UTC midnight)
        var latitude: Double
        var longitude: Double
        var valid: Bool
        var pressureMeters: Int
        var gnssMeters: Int
    }

    var headers: [String]
    var records: [B]

    init(fixture file: String) throws {
        let text = String(decoding: try LineReader.readAll(path: Fixtures.path("flights/" + file)), as: UTF8.self)
        headers = []
        records = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = Array(raw.utf8)
            if line.first == UInt8(ascii: "H") { headers.append(String(raw)); continue }
            guard line.first == UInt8(ascii: "B"), line.count >= 35 else { continue }
            func number(_ from: Int, _ count: Int) -> Int { Int(String(decoding: line[from..<(from + count)], as: UTF8.self))! }
            func signed(_ from: Int) -> Int {
                line[from] == UInt8(ascii: "-") ? -number(from + 1, 4) : number(from, 5)
            }
            var latitude = Double(number(7, 2)) + Double(number(9, 5)) / 60_000
            var longitude = Double(number(15, 3)) + Double(number(18, 5)) / 60_000
            if line[14] == UInt8(ascii: "S") { latitude = -latitude }
            if line[23] == UInt8(ascii: "W") { longitude = -longitude }
            records.append(B(seconds: number(1, 2) * 3600 + number(3, 2) * 60 + number(5, 2), latitude: latitude, longitude: longitude,
                             valid: line[24] == UInt8(ascii: "A"), pressureMeters: signed(25), gnssMeters: signed(30)))
        }
        if zip(records, records.dropFirst()).contains(where: { $0.seconds > $1.seconds }) { throw IGCLogError.outOfOrder(file) }
    }

    /// The bundled log `file`, read once per test process: the suites that edit the same flight many times share it
    /// (a value: each edit is a copy).
    static func shared(_ file: String) throws -> IGCLog {
        if let log = sharedLogs.withLock({ $0[file] }) { return log }
        let log = try IGCLog(fixture: file)
        sharedLogs.withLock { $0[file] = log }
        return log
    }

    static func seconds(_ time: String) -> Int {
        let parts = time.split(separator: ":").map { Int($0)! }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    /// The log with no B record strictly inside `(start, start + length)`: a gap of `length` seconds after the fix at
    /// `start` (the fix at `start + length`, the first after the gap, is kept).
    func cutting(from start: Int, seconds length: Int) -> IGCLog {
        var copy = self
        copy.records.removeAll { $0.seconds > start && $0.seconds < start + length }
        return copy
    }

    /// The first record at or after `seconds` (the last record when none is): a binary search, the records being in
    /// time order (every bundled log is; `init` refuses one that is not).
    func index(at seconds: Int) -> Int {
        var low = 0, high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].seconds < seconds { low = middle + 1 } else { high = middle }
        }
        return low < records.count ? low : records.count - 1
    }

    /// Re-times the path flown from `from` to `to` (record indices) so that the ground speed along it follows
    /// `knots(t)`; one record a second, positions and altitudes interpolated along the original path. Returns the log and
    /// the new time of the record at `to`.
    func retiming(from: Int, to: Int, knots: (Double) -> Double) -> (log: IGCLog, newTime: Int) {
        var cumulative = [0.0]
        for index in (from + 1)...to {
            let a = records[index - 1], b = records[index]
            cumulative.append(cumulative.last! + GreatCircle.distanceMeters(latitude1: a.latitude, longitude1: a.longitude,
                                                                            latitude2: b.latitude, longitude2: b.longitude))
        }
        let total = cumulative.last!
        var path: [B] = [records[from]]
        var travelled = 0.0
        var second = 0
        var segment = 0
        while true {
            travelled += UnitConversions.metersPerSecond(fromKnots: knots(Double(second)))
            second += 1
            if travelled >= total { break }
            while cumulative[segment + 1] < travelled { segment += 1 }
            let a = records[from + segment], b = records[from + segment + 1]
            let span = cumulative[segment + 1] - cumulative[segment]
            let f = span > 0 ? (travelled - cumulative[segment]) / span : 0
            path.append(B(seconds: records[from].seconds + second, latitude: a.latitude + f * (b.latitude - a.latitude),
                          longitude: a.longitude + f * (b.longitude - a.longitude), valid: true,
                          pressureMeters: Int((Double(a.pressureMeters) + f * Double(b.pressureMeters - a.pressureMeters)).rounded()),
                          gnssMeters: Int((Double(a.gnssMeters) + f * Double(b.gnssMeters - a.gnssMeters)).rounded())))
        }
        let newTime = records[from].seconds + second
        let shift = newTime - records[to].seconds
        var copy = self
        copy.records = Array(records[..<from]) + path + records[to...].map { var record = $0; record.seconds += shift; return record }
        return (copy, newTime)
    }

    var bytes: [UInt8] {
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        func signed(_ value: Int) -> String { value < 0 ? "-" + digits(-value, 4) : digits(value, 5) }
        func angle(_ value: Double, _ width: Int, _ positive: String, _ negative: String) -> String {
            var thousandths = Int((abs(value) * 60_000).rounded())
            let degrees = thousandths / 60_000
            thousandths -= degrees * 60_000
            return digits(degrees, width) + digits(thousandths, 5) + (value < 0 ? negative : positive)
        }
        var lines = headers
        for record in records {
            let s = record.seconds % 86_400
            lines.append("B" + digits(s / 3600, 2) + digits(s / 60 % 60, 2) + digits(s % 60, 2)
                + angle(record.latitude, 2, "N", "S") + angle(record.longitude, 3, "E", "W") + (record.valid ? "A" : "V")
                + signed(record.pressureMeters) + signed(record.gnssMeters))
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }
}
