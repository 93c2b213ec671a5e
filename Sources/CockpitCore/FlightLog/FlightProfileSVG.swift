/// A post-flight altitude profile as SVG 1.1: GPS altitude, cabin altitude, the 10,000 ft line (where the hypoxia
/// timer starts), takeoff and landing, and a mark at every alert. Feet on the vertical axis, UTC along the bottom.
public enum FlightProfileSVG {
    static let width = 900.0, height = 360.0
    static let left = 70.0, right = 20.0, top = 30.0, bottom = 40.0

    public static func render(flight: FlightLogFlight, samples: [FlightLogSample], alerts: [FlightLogAlert]) -> String {
        let start = samples.first?.utc ?? flight.takeoff.utc
        let end = samples.last?.utc ?? flight.lastSampleUTC ?? flight.takeoff.utc
        let span = max(60, end.seconds(since: start))
        let datum = FlightLogSample.gpsDatum(of: samples)
        let gpsLabel = datum == .ellipsoid ? "GPS altitude (ellipsoid)" : "GPS altitude (MSL)"
        func gps(_ sample: FlightLogSample) -> Double? { datum.flatMap { sample.gpsAltitudeFeet($0) } }
        var highest = 10_500.0, lowest = 0.0
        // The axis spans what a flight can reach; a value past it (only a damaged log holds one) is drawn at the edge,
        // and the grid below has at most a dozen lines whatever the values.
        let axisLimits = -3_000.0...60_000.0
        for sample in samples {
            for value in [gps(sample), sample.cabinAltitudeFeet].compactMap({ $0 }) where value.isFinite {
                highest = max(highest, min(value, axisLimits.upperBound))
                lowest = min(lowest, max(value, axisLimits.lowerBound))
            }
        }
        let step = axisStep(highest - lowest)
        highest = (highest / step).rounded(.up) * step
        lowest = (lowest / step).rounded(.down) * step
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func x(_ utc: UTCInstant) -> Double { left + utc.seconds(since: start) / span * plotWidth }
        func y(_ feet: Double) -> Double {
            top + (highest - min(max(feet.isFinite ? feet : lowest, lowest), highest)) / (highest - lowest) * plotHeight
        }
        func f(_ value: Double) -> String { FixedText.format(value, decimals: 1) }

        var parts = [
            ##"<?xml version="1.0" encoding="UTF-8"?>"##,
            ##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="sans-serif" font-size="12">"##,
            ##"<rect x="0" y="0" width="\##(Int(width))" height="\##(Int(height))" fill="white"/>"##,
            ##"<text x="\##(f(left))" y="18" font-size="14">\##(FlightExport.xmlEscaped(FlightExport.title(flight)))</text>"##,
        ]
        var level = lowest
        var gridLines = 0
        while level <= highest + 0.5, gridLines < 12 {
            gridLines += 1
            parts.append(##"<line x1="\##(f(left))" y1="\##(f(y(level)))" x2="\##(f(width - right))" y2="\##(f(y(level)))" stroke="#dddddd"/>"##)
            parts.append(##"<text x="\##(f(left - 6))" y="\##(f(y(level) + 4))" text-anchor="end">\##(FixedText.integer(level, in: -99_999...99_999)) ft</text>"##)
            level += step
        }
        for fraction in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let utc = start.adding(seconds: span * fraction)
            parts.append(##"<text x="\##(f(x(utc)))" y="\##(f(height - bottom + 16))" text-anchor="middle">\##(utc.civil.timeOfDay)</text>"##)
        }
        parts.append(##"<text x="\##(f(width - right))" y="\##(f(height - 6))" text-anchor="end">UTC</text>"##)
        parts.append(##"<line x1="\##(f(left))" y1="\##(f(y(10_000)))" x2="\##(f(width - right))" y2="\##(f(y(10_000)))" stroke="#cc0000" stroke-dasharray="6,4"/>"##)
        parts.append(##"<text x="\##(f(width - right - 4))" y="\##(f(y(10_000) - 4))" text-anchor="end" fill="#cc0000">10,000 ft</text>"##)
        parts.append(polyline(samples.compactMap { s in gps(s).map { (x(s.utc), y($0)) } }, colour: "#1f4e9c", label: gpsLabel))
        parts.append(polyline(samples.compactMap { s in s.cabinAltitudeFeet.map { (x(s.utc), y($0)) } }, colour: "#e07b00", label: "cabin altitude"))
        for (name, place) in [("takeoff", flight.takeoff), (flight.end == .landed ? "landing" : "end", flight.landing)] {
            guard let place else { continue }
            parts.append(##"<line x1="\##(f(x(place.utc)))" y1="\##(f(top))" x2="\##(f(x(place.utc)))" y2="\##(f(height - bottom))" stroke="#2a8a2a"/>"##)
            parts.append(##"<text x="\##(f(x(place.utc) + 3))" y="\##(f(top + 12))" fill="#2a8a2a">\##(name)\##(FlightExport.xmlEscaped(place.nearestAirfield.map { " " + $0 } ?? ""))</text>"##)
        }
        for alert in alerts {
            let position = x(alert.utc)
            parts.append(##"<g><title>\##(FlightExport.xmlEscaped(alert.utc.civil.timeOfDay + " " + alert.message))</title>"##
                         + ##"<line x1="\##(f(position))" y1="\##(f(top))" x2="\##(f(position))" y2="\##(f(height - bottom))" stroke="#cc0000" stroke-width="2"/>"##
                         + ##"<path d="M \##(f(position - 6)) \##(f(top)) L \##(f(position + 6)) \##(f(top)) L \##(f(position)) \##(f(top + 10)) Z" fill="#cc0000"/></g>"##)
        }
        parts.append(##"<text x="\##(f(left + 8))" y="\##(f(height - bottom - 8))" fill="#1f4e9c">\##(gpsLabel)</text>"##)
        parts.append(##"<text x="\##(f(left + 190))" y="\##(f(height - bottom - 8))" fill="#e07b00">cabin altitude</text>"##)
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }

    static func polyline(_ points: [(Double, Double)], colour: String, label: String) -> String {
        guard !points.isEmpty else { return "<!-- no \(label) -->" }
        let text = points.map { FixedText.format($0.0, decimals: 1) + "," + FixedText.format($0.1, decimals: 1) }.joined(separator: " ")
        return ##"<polyline fill="none" stroke="\##(colour)" stroke-width="1.5" points="\##(text)"><title>\##(label)</title></polyline>"##
    }

    /// A round step giving 4–10 grid lines.
    static func axisStep(_ range: Double) -> Double {
        for step in [500.0, 1_000, 2_000, 2_500, 5_000, 10_000] where range / step <= 10 { return step }
        return 20_000
    }
}
