import ArgumentParser
import CockpitCore
import CockpitDaemon
import CockpitIO
import Dispatch
import Glibc
import Logging

// Option groups shared by `run` and `replay`.

struct LoggingOptions: ParsableArguments {
    @Option(name: .long, help: "Lowest log level written: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func makeLogger(label: String) throws -> Logger {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown --log-level '\(logLevel)'")
        }
        let sink = LogSink.detect()
        var logger = Logger(label: label) { label in JournalLogHandler(label: label, sink: sink, level: level) }
        logger.logLevel = level
        return logger
    }
}

struct HypoxiaOptions: ParsableArguments {
    @Option(name: .long, help: "Oxygen rule set for advisories: faa (14 CFR 91.211) or easa (NCO.OP.190).")
    var rules: String = "faa"

    @Option(name: .long, help: "Percent of the time of useful consciousness at which CHECK OXYGEN fires (at most 50).")
    var hypoxiaAlertPercent: Double = 50

    @Flag(name: .long, help: "Use GPS altitude for the hypoxia timer when the cabin barometer is unknown (unpressurised aircraft only).")
    var hypoxiaGpsFallback = false

    @Flag(name: .long, help: "Do not raise hypoxia alerts or advisories (the status still shows cabin altitude and dose).")
    var noHypoxiaAlerts = false

    func validate() throws {
        guard HypoxiaConfiguration.RuleSet(rawValue: rules) != nil else { throw ValidationError("--rules must be faa or easa") }
        guard hypoxiaAlertPercent > 0, hypoxiaAlertPercent <= 50 else {
            throw ValidationError("--hypoxia-alert-percent must be above 0 and at most 50 (the alert may come earlier, never later)")
        }
    }

    var configuration: HypoxiaConfiguration {
        var configuration = HypoxiaConfiguration()
        configuration.ruleSet = HypoxiaConfiguration.RuleSet(rawValue: rules) ?? .faa
        configuration.setAlertFraction(hypoxiaAlertPercent / 100)
        configuration.useGPSAltitudeWhenCabinUnknown = hypoxiaGpsFallback
        configuration.alertsEnabled = !noHypoxiaAlerts
        return configuration
    }
}

struct AirfieldOptions: ParsableArguments {
    @Option(name: .long, help: "Airfield database (built by `cockpitd airfields import`). Default: /var/lib/cockpit/airfields.sqlite, /usr/share/cockpit/airfields.sqlite or ./Data/airfields.sqlite, the first that exists.")
    var airfields: String?

    @Option(name: .long, help: "Airborne-detection profile: powered, glider, hang-glider or paraglider (docs/flight-state.md).")
    var profile: String = "powered"

    @Option(name: .long, help: "Directory of SRTM .hgt tiles for height above ground (e.g. /var/lib/cockpit/terrain).")
    var terrain: String?

    @Option(name: .long, help: "EGM96 geoid grid (GTX, e.g. /usr/share/proj/egm96_15.gtx) for receivers that report only ellipsoid height.")
    var geoid: String?

    @Option(name: .long, help: "Aircraft profile for 'best suitable airfield': minimum runway length in feet.")
    var minRunwayFeet: Double = 2_000

    @Flag(name: .long, help: "Aircraft profile: hard-surface runways only.")
    var hardSurfaceRequired = false

    func validate() throws {
        guard minRunwayFeet >= 0, minRunwayFeet <= 20_000 else { throw ValidationError("--min-runway-feet must be 0…20000") }
        guard FlightProfile.Kind(rawValue: profile) != nil else { throw ValidationError("--profile must be powered, glider, hang-glider or paraglider") }
        if let airfields, access(airfields, R_OK) != 0 { throw ValidationError("--airfields \(airfields): cannot read the file") }
    }

    var path: String? {
        if let airfields { return airfields }
        return ["/var/lib/cockpit/airfields.sqlite", "/usr/share/cockpit/airfields.sqlite", "Data/airfields.sqlite"]
            .first { access($0, R_OK) == 0 }
    }

    var aircraftProfile: AircraftProfile {
        var profile = AircraftProfile()
        profile.minimumRunwayFeet = minRunwayFeet
        profile.hardSurfaceRequired = hardSurfaceRequired
        return profile
    }
}

struct TrafficOptions: ParsableArguments {
    @Option(name: .long, help: "Send own traffic reports while airborne to HOST:PORT (repeatable; a subnet broadcast address works).")
    var trafficTo: [String] = []

    @Option(name: .long, help: "Seconds between own reports while airborne (0.2–5).")
    var trafficInterval: Double = 1

    @Flag(name: .long, help: "On the ground, ask relays for traffic with a coarse (0.1°) position and a one-time identifier.")
    var trafficGroundQuery = false

    @Option(name: .long, help: "File with the traffic key (hex, at least 16 bytes): tags own reports, rejects untagged ones.")
    var trafficKeyFile: String?

    func validate() throws {
        for target in trafficTo where TrafficSender.Destination(parsing: target) == nil {
            throw ValidationError("--traffic-to must be HOST:PORT, not '\(target)'")
        }
        guard trafficInterval >= 0.2, trafficInterval <= 5 else { throw ValidationError("--traffic-interval must be 0.2…5 s") }
        if trafficKeyFile != nil { _ = try key() }
    }

    func key() throws -> [UInt8]? {
        guard let trafficKeyFile else { return nil }
        guard let bytes = try? LineReader.readAll(path: trafficKeyFile, limitBytes: 4096),
              let key = Hex.decode(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }), key.count >= 16 else {
            throw ValidationError("--traffic-key-file \(trafficKeyFile): needs at least 16 bytes of hex")
        }
        return key
    }

    var destinations: [TrafficSender.Destination] { trafficTo.compactMap(TrafficSender.Destination.init(parsing:)) }
}

