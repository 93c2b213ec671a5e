/// OurAirports airport types kept in the database.
public enum AirfieldType: String, Sendable, Equatable, CaseIterable {
    case largeAirport = "large_airport"
    case mediumAirport = "medium_airport"
    case smallAirport = "small_airport"
    case heliport
    case seaplaneBase = "seaplane_base"
    case closed
    /// A land airport that is a firefighting base (`AirfieldPlausibility.storedType`): shown with `--all` only. Last, so
    /// that the stored codes of the other types stay as they were.
    case firefightingBase = "firefighting_base"

    /// The runway length the filters' minimum is tested against, given the longest runway and its surface. A water lane
    /// counts only at a seaplane base: at a land airport or heliport it is no runway for the aircraft the filters serve
    /// (OurAirports lists lanes as runways; KOLD's 8,400 ft lane lies beside its 4,000 ft paved runway). The importer
    /// stores the longest land runway for such airports; this also keeps out a lane that an older importer stored.
    @inlinable
    public func runwayFeetForFilters<Feet>(longest: Feet?, surface: SurfaceClass) -> Feet? {
        surface == .water && self != .seaplaneBase ? nil : longest
    }
}

/// Runway surfaces, normalised from OurAirports' free text.
public enum SurfaceClass: String, Sendable, Equatable {
    case hard, soft, water, unknown

    /// Classifies by the first recognisable component ("ASPH-G" → hard, "Turf/Gravel" → soft).
    public static func classify(_ raw: String) -> SurfaceClass {
        let text = raw.uppercased()
        guard !text.isEmpty else { return .unknown }
        let hard = ["ASP", "BIT", "CON", "PEM", "PAV", "TAR", "MAC", "CEMENT", "BRICK", "METAL", "STEEL", "ALUM", "PSP", "HARD", "SEALED", "TARMAC", "BITUMEN", "PAVED"]
        if text == "G" { return .soft }   // OurAirports' one-letter grass/gravel
        let soft = ["GVL", "GRS", "GRASS", "TURF", "DIRT", "GRV", "GRAV", "SAND", "CLAY", "SOIL", "EARTH", "LAT", "COR", "SNOW", "ICE", "GRE", "MAT", "SOD", "LOAM", "SHALE", "UNPAVED", "ROOF"]
        let water = ["WATER", "WAT"]
        let tokens = text.split(whereSeparator: { !$0.isLetter })
        for token in tokens {
            if water.contains(where: { token.hasPrefix($0) }) { return .water }
            if token.hasPrefix("UNPAV") { return .soft }
            if hard.contains(where: { token.hasPrefix($0) }) { return .hard }
            if soft.contains(where: { token.hasPrefix($0) }) { return .soft }
        }
        return .unknown
    }
}

/// Frequency types, normalised from OurAirports' `type`/`description`, in the order a pilot wants them.
public enum FrequencyKind: String, Sendable, Equatable, CaseIterable {
    case tower = "TWR"
    case ctaf = "CTAF"
    case unicom = "UNICOM"
    case afis = "AFIS"
    case atis = "ATIS"
    case awos = "AWOS/ASOS"
    case approach = "APP"
    case ground = "GND"
    case departure = "DEP"
    case clearance = "CLD"
    case other = "other"

    /// 0: talk to the field (TWR/CTAF/UNICOM, and AFIS where that is the field's service), 1: weather (ATIS/AWOS),
    /// 2: approach, 3: ground, 4: everything else.
    public var usefulnessGroup: Int {
        switch self {
        case .tower, .ctaf, .unicom, .afis: 0
        case .atis, .awos: 1
        case .approach: 2
        case .ground: 3
        case .departure, .clearance, .other: 4
        }
    }

    public static func classify(type: String, description: String) -> FrequencyKind {
        let t = type.uppercased().trimmingSpaces
        let d = description.uppercased()
        switch t {
        case "TWR", "TOWER", "TWR/CTAF": return .tower
        case "CTAF", "MULTICOM", "A/G", "AG", "CTAF/UNICOM", "ARCAL", "TRAFFIC", "TRAF", "PCL": return .ctaf
        case "UNIC", "UNICOM": return .unicom
        case "AFIS", "FIS", "INFO", "RDO", "RADIO": return .afis
        case "ATIS", "D-ATIS", "DATIS": return .atis
        case "AWOS", "ASOS", "AWIB", "AWIS", "AWOS-3", "ASOS/AWOS", "VOLMET", "METEO", "WX", "WEATHER": return .awos
        case "APP", "APPR", "APPROACH", "A/D", "ARR", "RADAR", "DIR", "TMA", "CTR": return .approach
        case "GND", "GROUND", "SMC", "APRON", "RAMP": return .ground
        case "DEP", "DEPARTURE": return .departure
        case "CLD", "CLNC", "DEL", "CLR", "CLEARANCE", "CLNC DEL": return .clearance
        default: break
        }
        if d.contains("TOWER") { return .tower }
        if d.contains("CTAF") { return .ctaf }
        if d.contains("UNICOM") { return .unicom }
        if d.contains("ATIS") { return .atis }
        if d.contains("AWOS") || d.contains("ASOS") { return .awos }
        if d.contains("APPROACH") || d.contains("APP") { return .approach }
        if d.contains("GROUND") { return .ground }
        return .other
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}

public struct Frequency: Sendable, Equatable {
    public var kind: FrequencyKind
    public var description: String
    public var megahertz: Double
    public init(kind: FrequencyKind, description: String, megahertz: Double) {
        self.kind = kind
        self.description = description
        self.megahertz = megahertz
    }

    /// Usefulness order: group, then kind, then frequency.
    public static func usefulnessOrder(_ a: Frequency, _ b: Frequency) -> Bool {
        if a.kind.usefulnessGroup != b.kind.usefulnessGroup { return a.kind.usefulnessGroup < b.kind.usefulnessGroup }
        let kinds = FrequencyKind.allCases
        let ia = kinds.firstIndex(of: a.kind)!, ib = kinds.firstIndex(of: b.kind)!
        if ia != ib { return ia < ib }
        return a.megahertz < b.megahertz
    }
}

public struct RunwayEnd: Sendable, Equatable {
    public var ident: String
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    public var elevationFeet: Double?
    /// True heading of the runway from this end (OurAirports `*_heading_degT`).
    public var headingTrueDegrees: Double?
    public var displacedThresholdFeet: Double?
    public init(ident: String, latitudeDegrees: Double? = nil, longitudeDegrees: Double? = nil, elevationFeet: Double? = nil,
                headingTrueDegrees: Double? = nil, displacedThresholdFeet: Double? = nil) {
        self.ident = ident
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationFeet = elevationFeet
        self.headingTrueDegrees = headingTrueDegrees
        self.displacedThresholdFeet = displacedThresholdFeet
    }
}

public struct Runway: Sendable, Equatable {
    public var lengthFeet: Double?
    public var widthFeet: Double?
    public var surface: SurfaceClass
    public var surfaceRaw: String
    public var lighted: Bool
    public var closed: Bool
    public var ends: [RunwayEnd]
    public init(lengthFeet: Double?, widthFeet: Double?, surface: SurfaceClass, surfaceRaw: String, lighted: Bool, closed: Bool,
                ends: [RunwayEnd]) {
        self.lengthFeet = lengthFeet
        self.widthFeet = widthFeet
        self.surface = surface
        self.surfaceRaw = surfaceRaw
        self.lighted = lighted
        self.closed = closed
        self.ends = ends
    }
}

/// An airfield as the nearest query returns it (runways and frequencies are loaded for `airfield IDENT`).
public struct Airfield: Sendable, Equatable {
    public var id: Int64
    public var ident: String
    public var name: String
    public var type: AirfieldType
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    public var elevationFeet: Double?
    public var country: String
    public var municipality: String
    /// Longest open runway, and its surface. At a land airport or heliport: the longest that is not a water lane, unless
    /// water lanes are all it has (a file from an older importer may still hold a lane; the filters ignore it).
    public var longestRunwayFeet: Double?
    public var longestRunwaySurface: SurfaceClass
    /// Longest open hard-surface runway.
    public var longestHardRunwayFeet: Double?
    /// Frequencies in usefulness order.
    public var frequencies: [Frequency]
    public var runways: [Runway]

    public init(id: Int64, ident: String, name: String, type: AirfieldType, latitudeDegrees: Double, longitudeDegrees: Double,
                elevationFeet: Double?, country: String, municipality: String, longestRunwayFeet: Double?,
                longestRunwaySurface: SurfaceClass, longestHardRunwayFeet: Double?, frequencies: [Frequency], runways: [Runway] = []) {
        self.id = id
        self.ident = ident
        self.name = name
        self.type = type
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationFeet = elevationFeet
        self.country = country
        self.municipality = municipality
        self.longestRunwayFeet = longestRunwayFeet
        self.longestRunwaySurface = longestRunwaySurface
        self.longestHardRunwayFeet = longestHardRunwayFeet
        self.frequencies = frequencies
        self.runways = runways
    }
}

/// What to look for.
public struct AirfieldFilter: Sendable, Equatable {
    public var maximumCount = 10
    public var radiusNauticalMiles = 100.0
    /// Nil: airports of every kind (heliports and seaplane bases only when not excluded below).
    public var types: Set<AirfieldType>?
    public var minimumRunwayFeet: Double?
    public var hardSurfaceOnly = false
    public var excludeHeliports = false
    public var excludeSeaplaneBases = false

    public init() {}

    public func accepts(_ airfield: Airfield) -> Bool {
        accepts(type: airfield.type,
                longestRunwayFeet: airfield.type.runwayFeetForFilters(longest: airfield.longestRunwayFeet, surface: airfield.longestRunwaySurface),
                longestHardRunwayFeet: airfield.longestHardRunwayFeet)
    }

    /// The same test on the raw columns (the nearest query's hot loop builds no Airfield values); `longestRunwayFeet` is
    /// already the length the filters count (`AirfieldType.runwayFeetForFilters`).
    @inlinable
    public func accepts(type: AirfieldType, longestRunwayFeet: Double?, longestHardRunwayFeet: Double?) -> Bool {
        if let types, !types.contains(type) { return false }
        if excludeHeliports && type == .heliport { return false }
        if excludeSeaplaneBases && type == .seaplaneBase { return false }
        if hardSurfaceOnly {
            guard let hard = longestHardRunwayFeet else { return false }
            if let minimum = minimumRunwayFeet, hard < minimum { return false }
        } else if let minimum = minimumRunwayFeet {
            guard let longest = longestRunwayFeet, longest >= minimum else { return false }
        }
        return true
    }

    /// What the filter lets through, in a pilot's words: "land airports (…), hard runway ≥ 6000 ft, within 80 nm,
    /// nearest 12". An airfield whose runway length is not in the database fails any runway minimum.
    public var summary: String {
        var parts: [String] = []
        if let types {
            if types == [.smallAirport, .mediumAirport, .largeAirport] {
                parts.append("land airports (no heliports, seaplane bases, firefighting bases or closed fields)")
            } else {
                parts.append(AirfieldType.allCases.filter(types.contains).map(\.rawValue).joined(separator: ", "))
            }
        } else {
            var excluded: [String] = []
            if excludeHeliports { excluded.append("heliports") }
            if excludeSeaplaneBases { excluded.append("seaplane bases") }
            parts.append("every kind of airfield" + (excluded.isEmpty ? "" : " but " + excluded.joined(separator: " and ")))
        }
        let minimum = minimumRunwayFeet.map { " ≥ \(Int($0.rounded())) ft" } ?? ""
        if hardSurfaceOnly {
            parts.append("hard runway" + minimum)
        } else if !minimum.isEmpty {
            parts.append("runway" + minimum)
        }
        let radius = radiusNauticalMiles.rounded() == radiusNauticalMiles ? String(Int(radiusNauticalMiles)) : String(radiusNauticalMiles)
        parts.append("within \(radius) nm")
        parts.append("nearest \(maximumCount)")
        return parts.joined(separator: ", ")
    }
}

/// One answer of the nearest query.
public struct NearestAirfield: Sendable, Equatable {
    public var airfield: Airfield
    public var distanceNauticalMiles: Double
    public var bearingTrueDegrees: Double
    public var bearingMagneticDegrees: Double?
    public var declinationDegrees: Double?
    /// Time en route at the current ground speed (nil when not moving or speed unknown).
    public var estimatedTimeEnRouteSeconds: Double?

    public init(airfield: Airfield, distanceNauticalMiles: Double, bearingTrueDegrees: Double, bearingMagneticDegrees: Double?,
                declinationDegrees: Double?, estimatedTimeEnRouteSeconds: Double?) {
        self.airfield = airfield
        self.distanceNauticalMiles = distanceNauticalMiles
        self.bearingTrueDegrees = bearingTrueDegrees
        self.bearingMagneticDegrees = bearingMagneticDegrees
        self.declinationDegrees = declinationDegrees
        self.estimatedTimeEnRouteSeconds = estimatedTimeEnRouteSeconds
    }
}
