/// The glide section's wind (set, worked out while circling, or unknown), MacCready, ballast, bugs and glider type.
extension StatusSnapshot {
    var glideWindJSON: JSONObject {
        let glideConfiguration = configuration.glide
        let (wind, source) = glide.wind(glideConfiguration, at: monotonic)
        var object: JSONObject = [
            "windFromTrueDegrees": .number(wind.fromTrueDegrees, decimals: 0),
            "windKnots": .number(wind.speedKnots, decimals: 0),
        ]
        let circling = glide.circlingWind
        object["circlingWind"] = .object([
            "circles": .integer(Int64(circling.circles)),
            "circlesRefused": .integer(Int64(circling.circlesRefused)),
            "lastRefusal": Self.optionalString(circling.lastRefusal),
            "circlingNow": .bool(circling.turnDirection != 0),
            "estimate": circling.estimate(at: monotonic).map { .object($0.json) } ?? .null,
        ])
        switch source {
        case .set:
            object["windFrom"] = .string("set")
            object["windText"] = .string(wind.speedKnots == 0 ? "wind calm (set)"
                : "wind \(Self.threeDigits(wind.fromTrueDegrees))/\(Int(wind.speedKnots.rounded())) (set)")
        case .circling(let estimate):
            object["windFrom"] = .string("circling")
            object["windText"] = .string(estimate.text)
        case .unknown:
            object["windFrom"] = .string("unknown")
            object["windText"] = .string("wind unknown (no circling yet): reach assumes calm")
        }
        return object
    }

    func glidePerformanceJSON(_ performance: GlidePerformance, kind: FlightProfile.Kind) -> JSONObject {
        let glideConfiguration = configuration.glide
        let macCready = glide.macCready(glideConfiguration)
        var object: JSONObject = [
            "macCreadyMetersPerSecond": .number(macCready, decimals: 1),
            "bugsPercent": .number(glideConfiguration.bugsPercent, decimals: 0),
            "massKilograms": .number(glideConfiguration.massKilograms, decimals: 0),
        ]
        if let polar = performance.polar {
            let speed = polar.macCreadySpeedMetersPerSecond(macCready: macCready)
            object["speedToFlyMacCreadyKnots"] = .number(UnitConversions.knots(fromMetersPerSecond: speed), decimals: 0)
            object["speedToFlyMacCreadyKilometersPerHour"] = .number(speed * 3.6, decimals: 0)
        } else {
            object["speedToFlyMacCreadyKnots"] = .null
        }
        let ratio = glideConfiguration.massRatio(referenceMass: glideConfiguration.gliderTypeEntry?.referenceMassKilograms)
        object["wingLoadingRatio"] = .number(ratio, decimals: 3)
        if glideConfiguration.massKilograms != nil && ratio == nil {
            object["ballastNote"] = .string("mass not applied: the polar's reference mass is not known (glide-polar-mass-kg)")
        }
        object["gliderType"] = Self.optionalString(glideConfiguration.gliderTypeName)
        object["gliderTypeFrom"] = Self.optionalString(glideConfiguration.gliderType != nil ? "setting"
            : glideConfiguration.gliderTypeFromFile != nil ? "IGC file header" : nil)
        object["gliderTypeKnown"] = .bool(glideConfiguration.gliderTypeEntry != nil)
        object["gliderTypeText"] = Self.optionalString(Self.gliderTypeText(glideConfiguration, kind: kind))
        return object
    }

    /// What the type named means for the polar: "Discus 2 (from the IGC file header): unknown type, ASK 21 default polar used".
    static func gliderTypeText(_ glide: GlideConfiguration, kind: FlightProfile.Kind) -> String? {
        guard let name = glide.gliderTypeName else { return nil }
        let from = glide.gliderType != nil ? "set" : "from the IGC file header"
        if glide.gliderTypeEntry != nil {
            return kind == .glider ? "\(name) (\(from)): its polar" : "\(name) (\(from)): known, but the \(kind.rawValue) profile is flown"
        }
        switch glide.polar {
        case .set: return "\(name) (\(from)): unknown type, the polar set used"
        case .none: return "\(name) (\(from)): unknown type, no polar"
        case .profile:
            return kind == .glider && glide.performance == nil ? "\(name) (\(from)): unknown type, ASK 21 default polar used"
                : "\(name) (\(from)): unknown type"
        }
    }

    static func optionalString(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    static func threeDigits(_ degrees: Double) -> String {
        let value = Int(degrees.rounded()) % 360
        return value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}

extension WindEstimate {
    public var json: JSONObject {
        [
            "fromTrueDegrees": .number(wind.fromTrueDegrees, decimals: 0),
            "knots": .number(wind.speedKnots, decimals: 1),
            "circles": .integer(Int64(circles)),
            "standardErrorKnots": .number(standardErrorKnots, decimals: 1),
            "quality": .number(quality, decimals: 2),
            "ageSeconds": .number(ageSeconds, decimals: 0),
            "old": .bool(old),
            "text": .string(text),
        ]
    }
}
