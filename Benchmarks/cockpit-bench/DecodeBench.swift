import CockpitCore
import CockpitIO
import CockpitTestSupport
import CockpitWire

/// `cockpit-bench decode`: one gpsd TPV line through the daemon's decoder (as live mode and replay decode it) and through
/// libgps's gps_unpack (`LibgpsReportDecoder`, the reference for the live path's CPU per fix).
func decodeBenchmark() {
    let line = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2024-04-03T12:00:01.000Z","ept":0.005,"lat":46.209683333,"lon":12.828316667,"altHAE":1088.5472,"altMSL":1045.0000,"alt":1045.0000,"track":242.7000,"magtrack":246.2372,"magvar":3.5,"speed":10.083,"climb":-1.000,"geoidSep":43.547,"eph":19.000}"#
    let count = 200_000
    for (name, decode) in [("the daemon's GPSDReportDecoder", GPSDReportDecoder().decode), ("libgps gps_unpack", LibgpsReportDecoder().decode)] {
        var sink = 0
        let start = MonotonicClock.now()
        for _ in 0..<count { if case .fix(let fix) = decode(line) { sink &+= Int(fix.mode.rawValue) } }
        print("gpsd TPV decode (\(name)): \(Int(MonotonicClock.now().seconds(since: start) / Double(count) * 1e9)) ns per line (checksum \(sink % 7))")
    }
}
