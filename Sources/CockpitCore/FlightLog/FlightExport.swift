/// Files pilots' tools read, made from a logged flight (pure: text in, text out).
/// - IGC (FAI IGC technical specification, appendix A): B records with pressure altitude (the cabin's, ISA) and
///   GNSS altitude; `X` manufacturer code as for an unregistered logger; cockpitd replays it. A flight whose cabin was
///   evidently pressurised gets no pressure altitude (00000, as for a logger without one) and an `L` record saying why:
///   its cabin altitude is not the aircraft's pressure altitude, which airspace checks read from that field.
/// - GPX 1.1 (topografix.com/GPX/1/1): one track, a point per sample with `ele` (metres MSL) and `time`.
/// - KML 2.2 (OGC 07-147r2): an extruded LineString at absolute altitude (above sea level), takeoff and landing
///   placemarks.
/// GPX and KML have no field for the datum and mean sea level: a flight whose fixes had only ellipsoid heights (an
/// IGC file that declares them) is written with those, and the file's description says so.
public enum FlightExport {
    public enum Format: String, Sendable, CaseIterable {
        case igc, gpx, kml, svg
        public var fileExtension: String { rawValue }
    }

    public static func render(_ format: Format, flight: FlightLogFlight, samples: [FlightLogSample],
                              alerts: [FlightLogAlert], software: String) -> String {
        switch format {
        case .igc: igc(flight: flight, samples: samples, software: software)
        case .gpx: gpx(flight: flight, samples: samples, software: software)
        case .kml: kml(flight: flight, samples: samples)
        case .svg: FlightProfileSVG.render(flight: flight, samples: samples, alerts: alerts)
        }
    }

    /// Samples with a position, one per GPS fix (a tick without a new fix repeats the previous one).
    public static func fixes(_ samples: [FlightLogSample]) -> [FlightLogSample] {
        var result: [FlightLogSample] = []
        result.reserveCapacity(samples.count)
        for sample in samples where sample.latitudeDegrees != nil && sample.longitudeDegrees != nil {
            if let last = result.last, let fix = sample.fixUTC, last.fixUTC == fix { continue }
            result.append(sample)
        }
        return result
    }

    // MARK: IGC

    public static func igc(flight: FlightLogFlight, samples: [FlightLogSample], software: String) -> String {
        let points = fixes(samples)
        let first = (points.first?.fixUTC ?? points.first?.utc ?? flight.takeoff.utc).civil
        let haeAvailable = points.contains { $0.gpsAltitudeHAEFeet != nil }
        let pressurised = pressurisedCabin(samples)
        var lines = [
            "AXCKCPD cockpitd flight log \(flight.id)",
            "HFDTEDATE:\(FixedText.padded(first.day, width: 2))\(FixedText.padded(first.month, width: 2))\(FixedText.padded(first.year % 100, width: 2)),01",
            "HFPLTPILOTINCHARGE:",
            "HFGTYGLIDERTYPE:",
            "HFGIDGLIDERID:",
            "HFDTMGPSDATUM:WGS84",
            "HFRFWFIRMWAREVERSION:\(software)",
            "HFFTYFRTYPE:cockpitd,unregistered",
            // GNSS altitude above the ellipsoid (the IGC default) when the fixes had it, else above the geoid.
            "HFALGALTGPS:\(haeAvailable ? "ELL" : "GEO")",
            "HFALPALTPRESSURE:ISA",
        ]
        if let pressurised {
            // Three records: the IGC specification limits a line to 76 characters (one record of 177 did not fit).
            lines.append("LXCKcabin pressurised: cabin \(FixedText.integer(pressurised.differenceFeet, in: 0...99_999)) ft below GPS altitude for over "
                         + "\(Int(BaroState.pressurisationPersistenceSeconds)) s")
            lines.append("LXCKfrom \(pressurised.utc.iso8601): no pressure altitude in the B records")
            lines.append("LXCK(the cabin's altitude is not the aircraft's pressure altitude)")
        }
        lines.reserveCapacity(lines.count + points.count + 4)
        for point in points {
            guard let latitude = point.latitudeDegrees, let longitude = point.longitudeDegrees else { continue }
            let time = (point.fixUTC ?? point.utc).civil
            let cabinFeet = pressurised == nil ? point.cabinAltitudeFeet : nil
            let pressureMeters = cabinFeet.map { FixedText.integer(UnitConversions.meters(fromFeet: $0), in: -9_999...99_999) } ?? 0
            let gnssFeet = haeAvailable ? point.gpsAltitudeHAEFeet : point.gpsAltitudeMSLFeet
            let gnssMeters = gnssFeet.map { FixedText.integer(UnitConversions.meters(fromFeet: $0), in: -9_999...99_999) } ?? 0
            lines.append("B" + FixedText.padded(time.hour, width: 2) + FixedText.padded(time.minute, width: 2)
                         + FixedText.padded(time.second, width: 2) + igcAngle(latitude, degreeDigits: 2, positive: "N", negative: "S")
                         + igcAngle(longitude, degreeDigits: 3, positive: "E", negative: "W")
                         + (gnssFeet == nil ? "V" : "A") + igcAltitude(pressureMeters) + igcAltitude(gnssMeters))
        }
        for alert in flightAlertsComment(flight) { lines.append(alert) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The daemon's pressurisation rule (`BaroState`) applied to the logged samples: the cabin altitude at least 2,000 ft
    /// below GPS altitude (MSL, else the ellipsoid height) for over 60 s. Returns where it was first seen; nil when
    /// never (an unpressurised cabin's altitude is the aircraft's pressure altitude, give or take the cabin's venting).
    public static func pressurisedCabin(_ samples: [FlightLogSample]) -> (utc: UTCInstant, differenceFeet: Double)? {
        var since: UTCInstant?
        for sample in samples {
            guard let cabin = sample.cabinAltitudeFeet, let gps = sample.gpsAltitudeMSLFeet ?? sample.gpsAltitudeHAEFeet else { continue }
            let difference = gps - cabin
            guard difference >= BaroState.pressurisationMarginFeet else { since = nil; continue }
            let start = since ?? sample.utc
            since = start
            if sample.utc.seconds(since: start) > BaroState.pressurisationPersistenceSeconds { return (sample.utc, difference) }
        }
        return nil
    }

    static func flightAlertsComment(_ flight: FlightLogFlight) -> [String] {
        var lines = ["LXCKtakeoff \(flight.takeoff.utc.iso8601) \(flight.takeoff.nearestAirfield ?? "")"]
        if let landing = flight.landing { lines.append("LXCK\(flight.end?.rawValue ?? "landed") \(landing.utc.iso8601) \(landing.nearestAirfield ?? "")") }
        return lines
    }

    /// DDMMmmm (or DDDMMmmm) and the hemisphere letter: minutes in thousandths, rounded.
    static func igcAngle(_ degrees: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = degrees.isFinite ? min(abs(degrees), 180) : 0
        var whole = Int(magnitude)
        var thousandths = FixedText.integer((magnitude - Double(whole)) * 60_000, in: 0...60_000)
        if thousandths >= 60_000 {
            whole += 1
            thousandths -= 60_000
        }
        return FixedText.padded(whole, width: degreeDigits) + FixedText.padded(thousandths, width: 5)
            + (degrees < 0 ? negative : positive)
    }

    /// Five characters, negative values as `-0012`; clamped to what fits.
    static func igcAltitude(_ meters: Int) -> String {
        FixedText.padded(min(99_999, max(-9_999, meters)), width: 5)
    }

    // MARK: GPX and KML

    /// What the file's description says about its altitudes.
    static func altitudeNote(_ datum: GPSAltitudeDatum?) -> String {
        switch datum {
        case .msl: "GPS altitude above mean sea level"
        case .ellipsoid: "GPS altitude above the WGS-84 ellipsoid, not mean sea level: the fixes had no MSL altitude"
        case nil: "no GPS altitude"
        }
    }

    public static func gpx(flight: FlightLogFlight, samples: [FlightLogSample], software: String) -> String {
        let datum = FlightLogSample.gpsDatum(of: samples)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<gpx version="1.1" creator="\#(xmlEscaped(software))" xmlns="http://www.topografix.com/GPX/1/1">"#,
            "<metadata><name>\(xmlEscaped(title(flight)))</name><desc>ele: \(altitudeNote(datum))</desc>"
                + "<time>\(flight.takeoff.utc.iso8601)</time></metadata>",
            "<trk><name>\(xmlEscaped(title(flight)))</name><trkseg>",
        ]
        // One point per GPS fix, at the fix's own time (GPX 1.1: "the time that the point was recorded"), as the IGC
        // B records; a new segment where reception was lost (GPX 1.1 trksegType). Not every 1 Hz sample at the
        // sample's time: that puts a fix a second late, and repeats the last fix through a GPS gap or between an 8 s
        // logger's fixes (1,300 kt between two points).
        let points = fixes(samples)
        let gapSeconds = segmentGapSeconds(points)
        var previous: UTCInstant?
        for sample in points {
            guard let latitude = sample.latitudeDegrees, let longitude = sample.longitudeDegrees else { continue }
            let time = sample.fixUTC ?? sample.utc
            if let previous, time.seconds(since: previous) > gapSeconds { lines.append("</trkseg><trkseg>") }
            previous = time
            var point = #"<trkpt lat="\#(FixedText.format(latitude, decimals: 7))" lon="\#(FixedText.format(longitude, decimals: 7))">"#
            if let feet = datum.flatMap({ sample.gpsAltitudeFeet($0) }) { point += "<ele>\(FixedText.format(UnitConversions.meters(fromFeet: feet), decimals: 1))</ele>" }
            point += "<time>\(time.iso8601)</time></trkpt>"
            lines.append(point)
        }
        lines += ["</trkseg></trk>", "</gpx>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A gap between fixes longer than this is lost reception: 3 times the flight's usual (median) fix interval,
    /// at least 5 s (1 Hz receivers: 5 s; an 8 s IGC logger: 24 s).
    static func segmentGapSeconds(_ points: [FlightLogSample]) -> Double {
        let times = points.map { $0.fixUTC ?? $0.utc }
        guard times.count > 2 else { return 5 }
        var intervals = zip(times.dropFirst(), times).map { $0.seconds(since: $1) }
        intervals.sort()
        return max(5, 3 * intervals[intervals.count / 2])
    }

    public static func kml(flight: FlightLogFlight, samples: [FlightLogSample]) -> String {
        let datum = FlightLogSample.gpsDatum(of: samples)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<kml xmlns="http://www.opengis.net/kml/2.2">"#,
            "<Document><name>\(xmlEscaped(title(flight)))</name><description>Track: \(altitudeNote(datum))</description>",
            #"<Style id="track"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle><PolyStyle><color>4d0000ff</color></PolyStyle></Style>"#,
        ]
        lines.append(placemark("Takeoff", flight.takeoff))
        if let landing = flight.landing { lines.append(placemark(flight.end == .landed ? "Landing" : "End (\(flight.end?.rawValue ?? "open"))", landing)) }
        lines += ["<Placemark><name>Track</name><styleUrl>#track</styleUrl>",
                  "<LineString><extrude>1</extrude><tessellate>0</tessellate><altitudeMode>absolute</altitudeMode><coordinates>"]
        // A point without an altitude in the track's datum is left out (not drawn at sea level).
        for sample in samples {
            guard let latitude = sample.latitudeDegrees, let longitude = sample.longitudeDegrees,
                  let feet = datum.flatMap({ sample.gpsAltitudeFeet($0) }) else { continue }
            let meters = UnitConversions.meters(fromFeet: feet)
            lines.append("\(FixedText.format(longitude, decimals: 7)),\(FixedText.format(latitude, decimals: 7)),\(FixedText.format(meters, decimals: 1))")
        }
        lines += ["</coordinates></LineString></Placemark>", "</Document>", "</kml>"]
        return lines.joined(separator: "\n") + "\n"
    }

    static func placemark(_ name: String, _ place: FlightLogPlace) -> String {
        guard let latitude = place.latitudeDegrees, let longitude = place.longitudeDegrees else { return "" }
        let label = name + (place.nearestAirfield.map { " " + $0 } ?? "") + " " + place.utc.iso8601
        return "<Placemark><name>\(xmlEscaped(label))</name><TimeStamp><when>\(place.utc.iso8601)</when></TimeStamp>"
            + "<Point><coordinates>\(FixedText.format(longitude, decimals: 7)),\(FixedText.format(latitude, decimals: 7)),0</coordinates></Point></Placemark>"
    }

    static func title(_ flight: FlightLogFlight) -> String {
        var text = "Flight \(flight.id) \(flight.takeoff.utc.iso8601)"
        if let from = flight.takeoff.nearestAirfield { text += " from \(from)" }
        if flight.end == .landed, let to = flight.landing?.nearestAirfield { text += " to \(to)" }
        return text
    }

    public static func xmlEscaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                if let ascii = character.asciiValue, ascii < 0x20, ascii != 0x09, ascii != 0x0A { continue }
                result.append(character)
            }
        }
        return result
    }
}
