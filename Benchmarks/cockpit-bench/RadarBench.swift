import CockpitClient
import CockpitCore
import CockpitIO

/// `cockpit-bench radar`: one radar frame (status JSON → picture → 80×24 and 200×60 UTF-8 text with colour), the work
/// `cockpitctl radar` does per status update.
func radarBenchmark() {
    var targets: [JSONValue] = []
    for index in 0..<20 {
        targets.append(.object([
            "identifier": .string("T\(index)"), "distanceNauticalMiles": .number(0.4 + Double(index) * 1.7),
            "bearingTrueDegrees": .integer(Int64(index * 47 % 360)), "relativeAltitudeFeet": .integer(Int64(index * 230 - 2_000)),
            "verticalSpeedFeetPerMinute": .integer(Int64(index % 3 == 0 ? 700 : 0)), "ageSeconds": .number(Double(index % 8)),
            "deadReckoned": .bool(true), "proximity": .bool(index == 0), "viaRelay": .bool(index % 5 == 0),
        ]))
    }
    let status = JSONValue.object([
        "gps": .object(["status": .string("valid"), "latitudeDegrees": .number(47), "trackTrueDegrees": .number(123.4)]),
        "traffic": .object(["available": .bool(true), "targets": .array(targets)]),
    ])
    let text = JSONWriter.string(status)
    for (width, height) in [(80, 24), (200, 60)] {
        let layout = RadarLayout(width: width, height: height)!
        let options = RadarOptions(symbols: .unicode, colour: true)
        let frames = 2_000
        var best = Double.infinity
        var bytes = 0
        for _ in 0..<5 {
            let start = MonotonicClock.now()
            var screen = TerminalScreen()
            for _ in 0..<frames {
                let picture = RadarPicture(status: (try? JSONParser.parse(text)) ?? .null)
                let frame = RadarRenderer.render(picture, layout: layout, options: options, previousRangeNauticalMiles: 20)
                bytes = screen.redraw(frame.lines, width: width, height: height).utf8.count
            }
            best = min(best, MonotonicClock.now().seconds(since: start))
        }
        print("radar: \(width)×\(height), 20 targets, parse + draw + redraw bytes: \(Int(best * 1e6 / Double(frames))) µs per frame, \(bytes) bytes written (best of 5 × \(frames))")
    }
}
