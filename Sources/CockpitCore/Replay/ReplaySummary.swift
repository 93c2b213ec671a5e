/// Accumulates what a replay shows: how many events of each kind, the span of GPS time, and the
/// maxima. Pure and deterministic, so the same file always yields the same summary bytes.
public struct ReplaySummary: Sendable {
    public private(set) var inputEvents = 0
    public private(set) var ticks = 0
    public private(set) var gpsReports = 0
    public private(set) var gpsFixes = 0
    public private(set) var gpsReportsWithoutFix = 0
    public private(set) var malformedGPSReports = 0
    public private(set) var baroSamples = 0
    public private(set) var otherEvents = 0
    public private(set) var firstFixUTC: UTCInstant?
    public private(set) var lastFixUTC: UTCInstant?
    public private(set) var maxAltitudeMSLFeet: Double?
    public private(set) var maxAltitudeHAEFeet: Double?
    public private(set) var maxCabinAltitudeFeet: Double?

    public init() {}

    public mutating func observe(_ event: Event) {
        switch event {
        case .tick:
            ticks += 1
            return
        case .gps(let report):
            gpsReports += 1
            switch report {
            case .fix(let fix) where fix.hasValidPosition:
                gpsFixes += 1
                if let utc = fix.utc {
                    if firstFixUTC == nil { firstFixUTC = utc }
                    lastFixUTC = utc
                }
                if let msl = fix.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:)) {
                    maxAltitudeMSLFeet = max(maxAltitudeMSLFeet ?? msl, msl)
                }
                if let hae = fix.altitudeHAEMeters.map(UnitConversions.feet(fromMeters:)) {
                    maxAltitudeHAEFeet = max(maxAltitudeHAEFeet ?? hae, hae)
                }
            case .fix: gpsReportsWithoutFix += 1
            case .malformed: malformedGPSReports += 1
            case .satellites, .ignored: break
            }
        case .baro(let sample):
            baroSamples += 1
            if let feet = StandardAtmosphere.pressureAltitudeFeet(pressurePascals: sample.pressurePascals) {
                maxCabinAltitudeFeet = max(maxCabinAltitudeFeet ?? feet, feet)
            }
        case .gpsSource, .baroSource, .command:
            otherEvents += 1
        }
        inputEvents += 1
    }

    public var flightTimeSpanSeconds: Double? {
        guard let first = firstFixUTC, let last = lastFixUTC else { return nil }
        return last.seconds(since: first)
    }

    public func json(source: String, format: String) -> JSONObject {
        [
            "source": .string(source),
            "format": .string(format),
            "events": .integer(Int64(inputEvents)),
            "gpsReports": .integer(Int64(gpsReports)),
            "gpsFixes": .integer(Int64(gpsFixes)),
            "gpsReportsWithoutFix": .integer(Int64(gpsReportsWithoutFix)),
            "malformedGpsReports": .integer(Int64(malformedGPSReports)),
            "baroSamples": .integer(Int64(baroSamples)),
            "otherEvents": .integer(Int64(otherEvents)),
            "ticks": .integer(Int64(ticks)),
            "firstFixUTC": .optional(firstFixUTC),
            "lastFixUTC": .optional(lastFixUTC),
            "flightTimeSpanSeconds": .number(flightTimeSpanSeconds, decimals: 3),
            "maxGpsAltitudeMSLFeet": .number(maxAltitudeMSLFeet, decimals: 0),
            "maxGpsAltitudeHAEFeet": .number(maxAltitudeHAEFeet, decimals: 0),
            "maxCabinAltitudeFeet": .number(maxCabinAltitudeFeet, decimals: 0),
            "takeoffs": .null,
            "landings": .null,
            "hypoxiaAlerts": .null,
            "datagramsSent": .null,
        ]
    }
}
