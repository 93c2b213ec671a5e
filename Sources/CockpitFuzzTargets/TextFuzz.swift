import CockpitCore
import CockpitIO
import CockpitDaemon

/// Text the pilot or the ground hands the daemon: weather reports, the configuration file, the OurAirports CSVs.
enum TextFuzz {
    /// LSZH's runways as OurAirports has them, one end without a true heading (so the number and the declination
    /// give it), one closed runway and a helipad.
    static let runways: [Runway] = [
        Runway(lengthFeet: 8_202, widthFeet: 197, surface: .hard, surfaceRaw: "CON", lighted: true, closed: false,
               ends: [RunwayEnd(ident: "10", headingTrueDegrees: 95.0), RunwayEnd(ident: "28", headingTrueDegrees: 275.0)]),
        Runway(lengthFeet: 10_827, widthFeet: 197, surface: .hard, surfaceRaw: "CON", lighted: true, closed: false,
               ends: [RunwayEnd(ident: "14", headingTrueDegrees: 137.0), RunwayEnd(ident: "32")]),
        Runway(lengthFeet: 12_139, widthFeet: 197, surface: .hard, surfaceRaw: "CON", lighted: true, closed: true,
               ends: [RunwayEnd(ident: "16"), RunwayEnd(ident: "34")]),
        Runway(lengthFeet: 60, widthFeet: 60, surface: .hard, surfaceRaw: "ASP", lighted: false, closed: false,
               ends: [RunwayEnd(ident: "H1")]),
    ]

    /// One or more METAR/SPECI/TAF texts: the wind chosen, every group parsed, the components on LSZH's runways.
    static func metarWind(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        for token in text.split(whereSeparator: { $0 == " " || $0.isNewline }).prefix(64) {
            _ = WindParser.parseGroup(String(token).uppercased())
        }
        guard let wind = WindParser.bestWind(in: text) else { return }
        for declination in [nil, 2.5, -179.9] as [Double?] {
            let components = WindComponents.components(wind: wind, runways: runways, declinationDegrees: declination)
            _ = WindComponents.recommended(components)
        }
    }

    /// A configuration file, read exactly as `cockpitd run --config FILE` reads it: syntax with the daemon's real
    /// keys, every value through its option's parser, then the settings' validation.
    static func configFile(_ bytes: [UInt8]) {
        var settings = Settings(mode: .run)
        do {
            let entries = try ConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: "fuzz.conf", keys: configKinds)
            try SettingsBuilder.apply(file: entries, path: "fuzz.conf", to: &settings)
        } catch {
            _ = error.description
            return
        }
        do { try SettingsBuilder.validate(settings) } catch { _ = error.message; return }
        _ = settings.coreConfiguration
        _ = SettingsBuilder.effectiveListing(settings)
    }

    /// The daemon's configuration keys, as `cockpitd run` builds them (once: the schema is constant).
    static let configKinds: [String: ConfigFile.Kind] = {
        var kinds: [String: ConfigFile.Kind] = [:]
        for option in SettingsSchema.configKeys { kinds[option.key] = option.isFlag ? .flag : option.isList ? .list : .value }
        return kinds
    }()

    /// OurAirports CSVs: mode byte (bit 0: include closed airfields), then airports.csv, runways.csv and
    /// airport-frequencies.csv cut at 0xFE bytes; a missing or empty part is the small real table below (LSZH).
    static func ourAirports(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        var options = AirfieldImporter.Options()
        options.includeClosed = input.byte() & 0x01 != 0
        let parts = input.restSplit(at: 0xFE)
        func part(_ index: Int, _ fallback: String) -> [UInt8] {
            index < parts.count && !parts[index].isEmpty ? parts[index] : Array(fallback.utf8)
        }
        do {
            let rows = try AirfieldImporter.parse(airports: part(0, airportsCSV), runways: part(1, runwaysCSV),
                                                  frequencies: part(2, frequenciesCSV), options: options)
            _ = rows.report.description
        } catch {
            _ = error.description
        }
    }

    // From OurAirports (ourairports.com, public domain), LSZH only.
    static let airportsCSV = """
        "id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region",\
        "municipality","scheduled_service","icao_code","iata_code","gps_code","local_code"
        2434,"LSZH","large_airport","Zürich Airport",47.458056,8.548056,1417,"EU","CH","CH-ZH","Zurich","yes","LSZH","ZRH","LSZH",

        """
    static let runwaysCSV = """
        "id","airport_ref","airport_ident","length_ft","width_ft","surface","lighted","closed","le_ident","le_latitude_deg",\
        "le_longitude_deg","le_elevation_ft","le_heading_degT","le_displaced_threshold_ft","he_ident","he_latitude_deg",\
        "he_longitude_deg","he_elevation_ft","he_heading_degT","he_displaced_threshold_ft"
        247426,2434,"LSZH",8202,197,"CON",1,0,"10",47.4612,8.5349,1391,95.0,,"28",47.4576,8.5706,1402,275.0,

        """
    static let frequenciesCSV = """
        "id","airport_ref","airport_ident","type","description","frequency_mhz"
        64033,2434,"LSZH","TWR","ZURICH TWR",118.1

        """
}
