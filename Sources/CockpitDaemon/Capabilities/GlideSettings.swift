public import CockpitCore

/// Reach: glide performance, safety margins, wind, the engine-out switch and the terrain tiles' memory (docs/glide.md).
public struct GlideSettings: SettingsGroup {
    public static let title = "Within glide"
    public var glide = GlideConfiguration()
    /// The glide ratio and speed as set; nil: the profile's default (the core fills in the other half from it).
    public var glideRatio: Double?
    public var glideSpeedKnots: Double?
    /// The most the terrain tiles read for reach may map (each SRTM 3″ tile is 2.75 MiB, a 1″ tile 24.7 MiB).
    public var terrainCacheMiB = 24

    public init(mode: RunMode) {}

    public static let options: [SettingOption<GlideSettings>] = [
        .init("glide-ratio", .value(name: "L/D"), replay: .recorded,
              help: "Best glide ratio, or 'profile' for the --profile's own (powered 9, glider 35, hang-glider 12, paraglider 8).",
              set: { $0.glideRatio = $1 == "profile" ? nil : try SettingValue.number($1, 2...80) },
              show: { $0.glideRatio.map(SettingValue.format) ?? "profile" }),
        .init("glide-speed-knots", .value(name: "KT"), replay: .recorded,
              help: "Best glide true airspeed in knots, or 'profile' (powered 70, glider 55, hang-glider 27, paraglider 20).",
              set: { $0.glideSpeedKnots = $1 == "profile" ? nil : try SettingValue.number($1, 10...200) },
              show: { $0.glideSpeedKnots.map(SettingValue.format) ?? "profile" }),
        .init("glide-polar", .value(name: "KMH:MPS,KMH:MPS,KMH:MPS"), replay: .recorded,
              help: "Polar: three points (speed km/h : sink m/s), flown at the MacCready 0 speed to fly in the wind; 'profile' (glider: the ASK 21; others none unless glide-ratio or glide-speed-knots is set) or 'none'.",
              set: { $0.glide.polar = try parsePolar($1) }, show: { showPolar($0.glide.polar) }),
        .init("terrain-clearance-meters", .value(name: "M"), replay: .recorded,
              help: "Reach: the glide line stays this high above the terrain all the way (XCSoar's default 150).",
              set: { $0.glide.margins.terrainClearanceMeters = try SettingValue.number($1, 0...2_000) },
              show: { SettingValue.format($0.glide.margins.terrainClearanceMeters) }),
        .init("arrival-height-meters", .value(name: "M"), replay: .recorded,
              help: "Reach: a field counts as within glide when arriving at least this high over it (XCSoar's default 300).",
              set: { $0.glide.margins.arrivalHeightMeters = try SettingValue.number($1, 0...3_000) },
              show: { SettingValue.format($0.glide.margins.arrivalHeightMeters) }),
        .init("glide-wind", .value(name: "DEG/KT"), replay: .recorded,
              help: "Wind for reach, FROM true degrees / knots (e.g. 270/15), 'calm', or 'circling' (the default): the wind worked out while circling, calm until then.",
              set: { $0.glide.wind = try parseWind($1) },
              show: { settings in
                  guard let wind = settings.glide.wind else { return "circling" }
                  return wind.speedKnots == 0 ? "calm" : SettingValue.format(wind.fromTrueDegrees) + "/" + SettingValue.format(wind.speedKnots)
              }),
        .init("glide-mc", .value(name: "M/S"), replay: .recorded,
              help: "MacCready setting in m/s (0–10): the speed to fly between thermals is shown for it; reach stays at MacCready 0. Also `cockpitctl glide mc 1.5` in flight.",
              set: { $0.glide.macCreadyMetersPerSecond = try SettingValue.number($1, 0...GlideConfiguration.maximumMacCready) },
              show: { SettingValue.format($0.glide.macCreadyMetersPerSecond) }),
        .init("glide-bugs-percent", .value(name: "PERCENT"), replay: .recorded,
              help: "Bugs: the polar's sink rates this many percent higher (0 clean, 0–50).",
              set: { $0.glide.bugsPercent = try SettingValue.number($1, 0...50) }, show: { SettingValue.format($0.glide.bugsPercent) }),
        .init("glide-mass-kg", .value(name: "KG"), replay: .recorded,
              help: "Flying mass with water ballast, kg, or 'polar': the polar is scaled by the square root of this over the polar's mass (glide-polar-mass-kg, or the glider type's).",
              set: { $0.glide.massKilograms = $1 == "polar" ? nil : try SettingValue.number($1, 50...1_500) },
              show: { $0.glide.massKilograms.map(SettingValue.format) ?? "polar" }),
        .init("glide-polar-mass-kg", .value(name: "KG"), replay: .recorded,
              help: "The mass the polar is given at, kg, or 'type' (the glider type's reference mass; unknown for the ASK 21 default).",
              set: { $0.glide.polarMassKilograms = $1 == "type" ? nil : try SettingValue.number($1, 50...1_500) },
              show: { $0.glide.polarMassKilograms.map(SettingValue.format) ?? "type" }),
        .init("glider-type", .value(name: "TYPE"), replay: .recorded,
              help: "The glider type, for its polar from the table (docs/glider-polars.md), or 'none'; a replayed IGC file's HFGTYGLIDERTYPE otherwise.",
              set: { settings, text in
                  guard text.utf8.count <= 64 else { throw SettingError("a glider type is at most 64 characters") }
                  settings.glide.gliderType = text == "none" || text.isEmpty ? nil : text
              },
              show: { $0.glide.gliderType ?? "none" }),
        .init("engine-out", .flag, replay: .recorded,
              help: "Powered profile: the engine is out, so say the nearest field within glide (docs/glide.md).",
              set: { $0.glide.engineOut = try SettingValue.flag($1) }, show: { SettingValue.yesNo($0.glide.engineOut) }),
        .init("glide-callout-below-feet", .value(name: "FT"), replay: .recorded,
              help: "Glider, hang-glider and paraglider profiles: say the nearest field within glide below this height above ground.",
              set: { $0.glide.calloutBelowHeightAboveGroundFeet = try SettingValue.number($1, 0...20_000) },
              show: { SettingValue.format($0.glide.calloutBelowHeightAboveGroundFeet) }),
        .init("terrain-cache-mib", .value(name: "MIB"),
              help: "The most the terrain tiles read for reach may map, in MiB (least recently used tiles go first).",
              set: { $0.terrainCacheMiB = try SettingValue.integer($1, 3...1_024) }, show: { String($0.terrainCacheMiB) }),
    ]

    static func parsePolar(_ text: String) throws(SettingError) -> GlideConfiguration.PolarChoice {
        if text == "profile" { return .profile }
        if text == "none" { return .none }
        var points: [GlidePolar.Point] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pair.count == 2 else { throw SettingError("must be three KMH:MPS points (e.g. 80:0.7,120:1.2,160:2.2), 'profile' or 'none', not \"\(text)\"") }
            points.append(GlidePolar.Point(speedKilometersPerHour: try SettingValue.number(String(pair[0]), 20...350),
                                           sinkMetersPerSecond: try SettingValue.number(String(pair[1]), 0.1...20)))
        }
        guard points.count == 3 else { throw SettingError("must be three KMH:MPS points, not \(points.count)") }
        guard let polar = GlidePolar(points: points) else {
            throw SettingError("\"\(text)\" is not a polar: three different speeds whose sink rates make a curve with a lowest sink above zero")
        }
        return .set(polar)
    }

    static func showPolar(_ choice: GlideConfiguration.PolarChoice) -> String {
        switch choice {
        case .profile: "profile"
        case .none: "none"
        case .set(let polar):
            polar.points.map { SettingValue.format($0.speedKilometersPerHour) + ":" + SettingValue.format($0.sinkMetersPerSecond) }
                .joined(separator: ",")
        }
    }

    static func parseWind(_ text: String) throws(SettingError) -> GlideWind? {
        if text == "circling" { return nil }
        if text == "calm" { return GlideWind() }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw SettingError("must be DEG/KT (e.g. 270/15), 'calm' or 'circling', not \"\(text)\"") }
        let direction = try SettingValue.number(String(parts[0]), 0...360)
        let speed = try SettingValue.number(String(parts[1]), 0...150)
        return GlideWind(fromTrueDegrees: direction == 360 ? 0 : direction, speedKnots: speed)
    }

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        var glide = self.glide
        if glideRatio != nil || glideSpeedKnots != nil {
            let defaults = GlidePerformance.defaults(for: core.flightProfile.kind)
            glide.performance = GlidePerformance(bestGlideRatio: glideRatio ?? defaults.bestGlideRatio,
                                                 bestGlideSpeedKnots: glideSpeedKnots ?? defaults.bestGlideSpeedKnots)
        }
        core.glide = glide
    }
}
