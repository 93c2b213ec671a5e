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
    /// Fixes whose UTC was earlier than the fix before (a receiver clock jump, logs spliced together): then the data
    /// has no single time span.
    public private(set) var fixUTCStepsBackwards = 0
    public private(set) var maxAltitudeMSLFeet: Double?
    public private(set) var maxAltitudeHAEFeet: Double?
    /// Fixes whose MSL altitude was worked out from the ellipsoid height and EGM96 (`--geoid`), not reported.
    public private(set) var fixesWithMSLFromGeoidModel = 0
    public private(set) var maxCabinAltitudeFeet: Double?
    public private(set) var alerts: [Alert] = []
    /// Time with the published cabin altitude at or above 10,000 ft (summed over heartbeat ticks), and when it began.
    public private(set) var secondsAbove10000Feet = 0.0
    public private(set) var firstAbove10000FeetUTC: UTCInstant?
    private var lastTick: MonotonicInstant?
    /// Radio traffic (ADS-B, FLARM, OGN): messages about an aircraft, lines refused, and the aircraft heard with a
    /// position (the first 10,000 addresses).
    public private(set) var radioObservations = 0
    public private(set) var radioRejected = 0
    public private(set) var radioAircraftWithPosition: Set<RadioAddress> = []

    public init() {}

    public private(set) var datagramsSent = 0
    /// What the voice was asked to say, in order (the first 200), and how many were cut off.
    public private(set) var announcements: [Announcement] = []
    public private(set) var announcementsCancelled = 0
    public private(set) var takeoffs: [FlightState.Transition] = []
    public private(set) var landings: [FlightState.Transition] = []
    /// Close encounters with traffic (the first 200), as the flight log keeps them.
    public private(set) var encounters: [FlightLogEncounter] = []

    public mutating func observe(_ effect: Effect) {
        switch effect {
        case .alert(let alert): alerts.append(alert)
        case .sendDatagram: datagramsSent += 1
        case .announce(let announcement): if announcements.count < 200 { announcements.append(announcement) }
        case .cancelAnnouncement: announcementsCancelled += 1
        case .trafficEncounter(let encounter): if encounters.count < 200 { encounters.append(encounter) }
        case .flightTransition(let transition):
            if transition.kind == .takeoff { takeoffs.append(transition) } else { landings.append(transition) }
        default: break
        }
    }

    /// Called after each tick with the cabin altitude the core published for it.
    public mutating func observeTick(at time: MonotonicInstant, cabinAltitudeFeet: Double?, utc: UTCInstant?) {
        defer { lastTick = time }
        guard let cabinAltitudeFeet, cabinAltitudeFeet >= 10_000 else { return }
        if firstAbove10000FeetUTC == nil { firstAbove10000FeetUTC = utc }
        if let lastTick { secondsAbove10000Feet += min(2, time.seconds(since: lastTick)) }
    }

    public mutating func observe(_ event: Event) {
        switch event {
        case .tick:
            ticks += 1
            return
        case .gps(var report):
            gpsReports += 1
            // The same refusal as the core's (PlausibleRange): an implausible fix is malformed here too.
            if case .fix(let fix) = report, let problem = PlausibleRange.problem(with: fix) { report = .malformed(reason: problem) }
            switch report {
            case .fix(let fix) where fix.hasValidPosition:
                gpsFixes += 1
                if let utc = fix.utc {
                    if firstFixUTC == nil { firstFixUTC = utc }
                    if let last = lastFixUTC, utc < last { fixUTCStepsBackwards += 1 }
                    lastFixUTC = utc
                }
                if let msl = fix.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:)) {
                    maxAltitudeMSLFeet = max(maxAltitudeMSLFeet ?? msl, msl)
                    if fix.altitudeMSLFromGeoidModel { fixesWithMSLFromGeoidModel += 1 }
                }
                if let hae = fix.altitudeHAEMeters.map(UnitConversions.feet(fromMeters:)) {
                    maxAltitudeHAEFeet = max(maxAltitudeHAEFeet ?? hae, hae)
                }
            case .fix: gpsReportsWithoutFix += 1
            case .malformed: malformedGPSReports += 1
            case .satellites, .receiverList, .receiverChange, .ignored: break
            }
        case .baro(let sample):
            baroSamples += 1
            // Only what the core uses: a refused reading (42.8 hPa from a bus fault) is no cabin altitude.
            if BaroState.problem(with: sample) == nil,
               let feet = StandardAtmosphere.pressureAltitudeFeet(pressurePascals: sample.pressurePascals) {
                maxCabinAltitudeFeet = max(maxCabinAltitudeFeet ?? feet, feet)
            }
        case .airfields, .glide, .endOfInput, .terrain, .facility:
            return   // derived, not an input
        case .trafficReport, .trafficReply, .trafficRejected:
            otherEvents += 1
            inputEvents += 1
            return
        case .radio(let radio):
            switch radio {
            case .observation(let observation):
                radioObservations += 1
                if observation.latitudeDegrees != nil || observation.relativeNorthMeters != nil, radioAircraftWithPosition.count < 10_000 {
                    radioAircraftWithPosition.insert(observation.address)
                }
            case .rejected: radioRejected += 1
            case .other, .connected, .disconnected, .device, .uplink: otherEvents += 1
            }
        case .gpsSource, .baroSource, .command, .muteTraffic, .glideMacCready:
            otherEvents += 1
        }
        inputEvents += 1
    }

    /// Last fix − first fix; unknown (nil) when the fixes' UTC ever went backwards.
    public var flightTimeSpanSeconds: Double? {
        guard let first = firstFixUTC, let last = lastFixUTC, fixUTCStepsBackwards == 0 else { return nil }
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
            "fixUTCStepsBackwards": .integer(Int64(fixUTCStepsBackwards)),
            "maxGpsAltitudeMSLFeet": .number(maxAltitudeMSLFeet, decimals: 0),
            "maxGpsAltitudeHAEFeet": .number(maxAltitudeHAEFeet, decimals: 0),
            "fixesWithMSLFromGeoidModel": .integer(Int64(fixesWithMSLFromGeoidModel)),
            "maxCabinAltitudeFeet": .number(maxCabinAltitudeFeet, decimals: 0),
            "takeoffs": .array(takeoffs.map { .object($0.json) }),
            "landings": .array(landings.map { .object($0.json) }),
            "timeAbove10000FeetSeconds": .number(secondsAbove10000Feet, decimals: 0),
            "firstAbove10000FeetUTC": .optional(firstAbove10000FeetUTC),
            "hypoxiaAlerts": .array(alerts.map { alert in
                .object(["utc": .optional(alert.utc), "kind": .string(alert.kind.name), "message": .string(alert.message)])
            }),
            "datagramsSent": .integer(Int64(datagramsSent)),
            "announcements": .array(announcements.map { .object(["id": .string($0.id), "priority": .string($0.priority.rawValue),
                                                                 "text": .string($0.text)]) }),
            "announcementsCancelled": .integer(Int64(announcementsCancelled)),
            "radioTraffic": .object([
                "observations": .integer(Int64(radioObservations)),
                "rejectedLines": .integer(Int64(radioRejected)),
                "aircraftWithPosition": .array(radioAircraftWithPosition.sorted().map { .string("\($0.type.rawValue) \($0.hex)") }),
            ]),
            "trafficEncounters": .array(encounters.map { .object($0.json) }),
        ]
    }
}
