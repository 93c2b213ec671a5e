import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitProtocol

struct Nearest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Nearest airfields from the aircraft's position, or from --at for planning (works without a GPS fix).")
    @OptionGroup var global: GlobalOptions

    @Option(name: .short, help: "How many (1–50).")
    var n: Int = 10
    @Option(name: .long, help: "Minimum runway length in feet.")
    var minRunway: Double?
    @Flag(name: .long, help: "Hard-surface runways only.")
    var hard = false
    @Option(name: .long, help: "Search radius in nautical miles.")
    var radius: Double?
    @Option(name: .long, help: "Search from this position instead of the aircraft: LAT,LON in degrees, e.g. 47.46,8.55, -33.95,151.18 or 33.95S,151.18E.")
    var at: String?
    @Flag(name: .long, help: "Every kind of airfield, heliports and seaplane bases included (default: what the aircraft can use).")
    var all = false
    @Flag(name: .long, help: "Fields within glide over the terrain, reachable ones first with the height to spare, -n of them (docs/glide.md).")
    var glide = false

    func validate() throws {
        guard (1...50).contains(n) else { throw ValidationError("-n must be 1…50") }
        // Checked here too, so a mistyped radius is a usage error (exit 2), not the daemon's refusal (exit 4).
        if let radius, !(radius > 0 && radius <= 1_000) { throw ValidationError("--radius must be above 0 and at most 1000 nm") }
        if let at, PositionText.parse(at) == nil {
            throw ValidationError("--at must be LAT,LON in degrees, e.g. 47.46,8.55, -33.95,151.18 or 33.95S,151.18E; not '\(at)'")
        }
    }

    func run() throws {
        if glide {
            let section = try cockpitctlRequest(global, RequestName.glide, arguments: GlideRequest(count: n).arguments)["glide"] ?? .null
            print(global.json ? JSONWriter.string(section) : GlideTable.text(section))
            return
        }
        var request = NearestRequest()
        request.count = n
        request.minimumRunwayFeet = minRunway
        request.hardSurface = hard
        request.radiusNauticalMiles = radius
        request.all = all
        if let at, let point = PositionText.parse(at) {
            request.at = NearestRequest.GeoPoint(latitudeDegrees: point.latitude, longitudeDegrees: point.longitude)
        }
        let answer = try cockpitctlRequest(global, RequestName.nearest, arguments: request.arguments)["nearest"] ?? .null
        print(global.json ? JSONWriter.string(answer) : AirfieldText.nearest(answer))
    }
}

struct AirfieldInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "airfield",
        abstract: "One airfield: runways with headings and dimensions, frequencies, elevation; with --metar, wind components.")
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Identifier (ICAO, IATA, FAA or OurAirports ident).")
    var ident: String
    @Option(name: .long, help: "METAR, SPECI or TAF text (quoted); METAR is preferred when several are given.")
    var metar: String?
    @Flag(name: .long, help: "Reach to this field from the aircraft, over the terrain, as of the last lookup (docs/glide.md).")
    var glide = false

    func run() throws {
        if glide {
            let section = try cockpitctlRequest(global, RequestName.glide, arguments: GlideRequest(ident: ident).arguments)["glide"] ?? .null
            print(global.json ? JSONWriter.string(section) : GlideTable.text(section))
            return
        }
        let request = AirfieldRequest(ident: ident, weather: metar)
        let answer = try cockpitctlRequest(global, RequestName.airfield, arguments: request.arguments)["airfield"] ?? .null
        print(global.json ? JSONWriter.string(answer) : AirfieldText.airfield(answer))
    }
}

