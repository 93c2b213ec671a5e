import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitRelay
import Logging

/// Search and rescue: where was this aircraft last, and who was near this point lately.
struct LastSeen: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "last-seen",
                                                    abstract: "Print the last stored position of a traffic identifier (hex, as cockpitctl shows it).")
    @Argument(help: "Identifier, 6 hex digits (e.g. A1B2C3).")
    var identifier: String
    @OptionGroup var database: DatabaseOption

    func validate() throws {
        guard Self.parse(identifier) != nil else {
            throw ValidationError("\(identifier): expected a 24-bit hex identifier, 1 to 6 hex digits, not 000000")
        }
    }

    /// Hex digits only: `UInt32(_:radix:)` also takes a leading `+` or `-`, which no identifier is written with.
    static func parse(_ text: String) -> UInt32? {
        guard (1...6).contains(text.utf8.count), text.utf8.allSatisfy(RelayState.isHexDigit),
              let value = UInt32(text, radix: 16), value > 0 else { return nil }
        return value
    }

    func run() throws {
        let url = try database.url(required: true)!
        let id = Self.parse(identifier)!
        let store = RelayStore(url: url, relayName: "last-seen", logger: quietLogger())
        let (sighting, failure) = runBlocking(store: store, url: url, "last-seen", deadlineSeconds: database.databaseTimeout) { try await $0.lastSeen(identifier: id) }
        if let failure { throw relayFailure("database: \(failure)") }
        guard let found = sighting ?? nil else {
            print("\(identifier.uppercased()): not in the history")
            throw ExitCode(2)
        }
        print(formatSighting(found))
    }
}

struct Near: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the aircraft whose track passed near a point lately, nearest first.")
    @Argument(help: ArgumentHelp("The point, as cockpitctl's --at takes it: 47.45,8.55 or 16.7S,179.9W (a leading minus sign needs `--` before it: near -- -16.7,-179.9).",
                                 valueName: "LAT,LON"))
    var point: String
    @Option(name: .long, help: "How far back: 90s, 30m, 2h, 1d.")
    var since = "2h"
    @Option(name: .long, help: "Radius, nautical miles.")
    var radiusNm = 30.0
    @OptionGroup var database: DatabaseOption

    /// Hemisphere letters as pilots write them (a leading minus sign reads as an option to the argument parser).
    var parsedPoint: (Double, Double)? {
        PositionText.parse(point).map { ($0.latitude, $0.longitude) }
    }

    func validate() throws {
        guard parsedPoint != nil else { throw ValidationError("\(point): expected LAT,LON") }
        guard parseDuration(since) != nil else {
            throw ValidationError("--since \(since): expected a number with s, m, h or d, at most 3660d (the longest history kept)")
        }
        try check("--radius-nm", radiusNm, 0.1...1_000)
    }

    func run() throws {
        let url = try database.url(required: true)!
        let (lat, lon) = parsedPoint!, seconds = parseDuration(since)!, radius = radiusNm
        let store = RelayStore(url: url, relayName: "near", logger: quietLogger())
        let (sightings, failure) = runBlocking(store: store, url: url, "near", deadlineSeconds: database.databaseTimeout) {
            try await $0.near(latitude: lat, longitude: lon, sinceSeconds: seconds, radiusNauticalMiles: radius)
        }
        if let failure { throw relayFailure("database: \(failure)") }
        let list = sightings ?? []
        if list.isEmpty { print("no aircraft within \(radiusNm) nm of \(point) in the last \(since)") }
        for sighting in list { print(formatSighting(sighting)) }
    }
}

/// Seconds, for a positive finite number with its unit, up to the longest history kept (3,650 days and some).
func parseDuration(_ text: String) -> Double? {
    guard let unit = text.last, let value = Double(text.dropLast()), value.isFinite, value > 0 else { return nil }
    let seconds: Double
    switch unit {
    case "s": seconds = value
    case "m": seconds = value * 60
    case "h": seconds = value * 3600
    case "d": seconds = value * 86_400
    default: return nil
    }
    return seconds <= 3_660 * 86_400 ? seconds : nil
}

/// One line per sighting; the position is printed at the precision the aircraft sent (5 decimals ≈ 1 m).
func formatSighting(_ s: RelayStore.Sighting) -> String {
    let id = String(s.identifier, radix: 16, uppercase: true)
    let padded = String(repeating: "0", count: max(0, 6 - id.count)) + id
    func fixed(_ value: Double, _ places: Int) -> String { FixedText.format(value, decimals: places) }
    var line = "\(padded)  \(s.utc.iso8601)  \(fixed(s.latitudeDegrees, 5)),\(fixed(s.longitudeDegrees, 5))"
    line += "  " + (s.altitudeFeet.map { "\(Int($0.rounded())) ft" } ?? "altitude unknown")
    if let distance = s.distanceNauticalMiles { line += "  \(fixed(distance, 1)) nm" }
    line += "  via \(s.relay)"
    return line
}

/// One-shot commands print answers, not the connection pool's chatter.
func quietLogger() -> Logger {
    var logger = Logger(label: "cockpit-relay")
    logger.logLevel = .error
    return logger
}
