/// The pure core. Feed it timestamped events; it updates its state, appends effects for the shell
/// to carry out, and can be asked for an immutable snapshot at any time. Same events in, same
/// state and effects out — which is what makes replay trustworthy.
public struct Engine: Sendable {
    public let configuration: CoreConfiguration
    public private(set) var gps = GPSState()
    public private(set) var baro = BaroState()
    public private(set) var hypoxia = HypoxiaState()
    public private(set) var airfields = AirfieldsState()
    public private(set) var glide = GlideState()
    public private(set) var flight = FlightState()
    public private(set) var traffic = TrafficState()
    public private(set) var radioTraffic = RadioTrafficState()
    /// FIS-B weather from UAT uplinks: the newest METAR/TAF of every station heard.
    public private(set) var weather = WeatherReception()
    public private(set) var encounters = TrafficEncounters()
    public private(set) var callouts = TrafficCallouts()
    public private(set) var alerts = AlertBoard()
    /// The terrain under the next fix, when the shell has looked it up.
    private var terrain: TerrainSample?
    public private(set) var now: MonotonicInstant?
    public private(set) var lastTickAt: MonotonicInstant?
    public private(set) var eventsHandled: Int64 = 0
    /// Bumped on every event that changes what a status reader would see.
    public private(set) var revision: Int64 = 0

    public init(configuration: CoreConfiguration = CoreConfiguration()) {
        self.configuration = configuration
    }

    /// Applies one event at monotonic time `time`. Events must arrive in non-decreasing time order;
    /// an event stamped earlier than the last one is treated as happening at the last known time.
    ///
    /// Each kind of event has a method of its own: a method as large as the whole switch is past the size up to which
    /// the optimiser inlines, and every small getter it called (`flight.isAirborne`, `gps.currentFix`) then cost a copy
    /// of its whole state (FlightState is over 4 KB) and every helper of the engine a copy of the engine.
    public mutating func handle(_ event: Event, at time: MonotonicInstant, effects: inout [Effect]) {
        let at = max(time, now ?? time)
        now = at
        let firstEffect = effects.count
        eventsHandled += 1
        var rebuild = false
        var changesStatus = true
        switch event {
        case .gps(let report):
            applyGPS(report, at: at, effects: &effects)
        case .gpsSource(let sourceEvent):
            gps.apply(sourceEvent, at: at, effects: &effects)
        case .baro(let sample):
            baro.apply(sample, at: at, effects: &effects, staleAfterSeconds: configuration.baroStaleAfterSeconds)
        case .baroSource(let sourceEvent):
            baro.apply(sourceEvent, effects: &effects)
        case .command(let command):
            rebuild = true
            apply(command, at: at, effects: &effects)
        case .facility(let status):
            rebuild = true
            if alerts.apply(status) {
                let name = status.facility.rawValue
                effects.append(.log(status.stoppedReason.map { LogLine(.warning, "\(name) stopped: \($0)") } ?? LogLine(.notice, "\(name) writing again")))
            }
        case .terrain(let sample):
            terrain = sample
            changesStatus = false   // terrain alone changes nothing a reader sees
        case .trafficReport(let report):
            traffic.receive(report, at: at, ourUTC: gps.utc(at: at), configuration: configuration.traffic)
        case .trafficReply(let reply):
            traffic.receive(reply, at: at, ourUTC: gps.utc(at: at), configuration: configuration.traffic)
        case .trafficRejected(let reason):
            traffic.rejectedDatagram(reason)
        case .radio(let radioEvent):
            applyRadio(radioEvent, at: at, effects: &effects)
        case .muteTraffic(let seconds):
            rebuild = true
            callouts.mute(seconds: seconds, at: at, effects: &effects)
        case .glideMacCready(let metersPerSecond):
            glide.setMacCready(metersPerSecond)
            effects.append(.log(LogLine(.info, "glide: MacCready \(FixedText.format(metersPerSecond, decimals: 1)) m/s")))
        case .endOfInput:
            encounters.closeAll(effects: &effects)
            flight.inputEnded(effects: &effects)
        case .airfields(let update):
            airfields.apply(update, at: at)
        case .glide(let update):
            glide.apply(update, at: at)
        case .tick:
            rebuild = true
            tick(at: at, effects: &effects)
        }
        if changesStatus { revision += 1 }
        updateAlerts(rebuild: rebuild, at: at, effects: &effects, from: firstEffect)
    }

    /// A GPS report. Only a measured position the GPS state took (plausible, from the receiver in use, not older than
    /// the last, not the same epoch again unchanged) reaches anything else; the rest is counted there.
    private mutating func applyGPS(_ report: GPSReport, at: MonotonicInstant, effects: inout [Effect]) {
        let used = gps.apply(report, at: at, effects: &effects, staleAfterSeconds: configuration.gpsStaleAfterSeconds)
        guard used, case .fix(let fix) = report else { return }
        let nearest = airfields.last?.nearest.first
        let (height, source) = HeightAboveGround.estimate(fix: fix, terrain: terrain, nearest: nearest)
        terrain = nil
        let takeoffsBefore = flight.takeoffs.count
        flight.update(at: at, fix: fix, heightAboveGroundFeet: height, heightSource: source,
                      nearestAirfield: nearest.flatMap { $0.distanceNauticalMiles <= 5 ? $0.airfield.ident : nil },
                      cabinAltitudeFeet: baro.currentCabinAltitudeFeet(at: at, staleAfterSeconds: configuration.baroStaleAfterSeconds),
                      gapAfterSeconds: configuration.gpsStaleAfterSeconds,
                      profile: configuration.flightProfile, effects: &effects)
        if flight.takeoffs.count > takeoffsBefore { hypoxia.flightStarted(effects: &effects) }
        glide.observe(fix, at: at, airborne: flight.isAirborne)
        traffic.afterFix(at: at, fix: fix, airborne: flight.isAirborne, configuration: configuration.traffic, effects: &effects)
    }

    private mutating func apply(_ command: Command, at: MonotonicInstant, effects: inout [Effect]) {
        switch command {
        case .acknowledgeHypoxia:
            if !hypoxia.acknowledge(at: at, effects: &effects) {
                effects.append(.log(LogLine(.info, "hypoxia acknowledge: no alert to acknowledge")))
            }
        case .acknowledgeAlerts:
            let acknowledged = hypoxia.acknowledge(at: at, effects: &effects)
            alerts.silenceVoice(effects: &effects)
            effects.append(.log(LogLine(.info, acknowledged ? "alerts acknowledged" : "alerts acknowledge: voice silenced, nothing to acknowledge")))
        case .testAnnouncement:
            if !alerts.test(at: at, configuration: configuration.alerts, effects: &effects) {
                effects.append(.log(LogLine(.info, "alerts test: the voice is busy with an alert")))
            }
        }
    }

    private mutating func applyRadio(_ radioEvent: RadioInputEvent, at: MonotonicInstant, effects: inout [Effect]) {
        let previousSelfTest: RadioDeviceReport? = if case .device(let source, _) = radioEvent { radioTraffic.sources[source]?.selfTest } else { nil }
        let ownPressureAltitudeFeet = baro.pressurisedCabinInferred
            ? nil : baro.currentCabinAltitudeFeet(at: at, staleAfterSeconds: configuration.baroStaleAfterSeconds)
        radioTraffic.apply(radioEvent, at: at, own: gps.currentFix(at: at, staleAfterSeconds: configuration.gpsStaleAfterSeconds),
                           ownPressureAltitudeFeet: ownPressureAltitudeFeet, configuration: configuration.radioTraffic)
        switch radioEvent {
        case .connected(let source, let endpoint):
            effects.append(.log(LogLine(.notice, "\(source.rawValue): connected to \(endpoint)")))
        case .disconnected(let source, let reason):
            effects.append(.log(LogLine(.warning, "\(source.rawValue): no traffic from this receiver: \(reason)")))
        case .uplink(_, let uplink):
            weather.receive(uplink, at: at)
            effects.append(.forwardUplink(uplink))
        case .device(let source, let report):
            // A device's self-test result is said when it changes (a FLARM sends it at start and on request).
            if report.errorSeverity != nil, previousSelfTest != report {
                effects.append(.log(report.problem.map { LogLine(.warning, "\(source.rawValue) device: \($0)") }
                                    ?? LogLine(.info, "\(source.rawValue) device: self-test passed")))
            }
        default: break
        }
    }

    /// The heartbeat. The current fix, UTC, the cabin altitude and whether airborne are read once each: nothing in
    /// between changes what they are read from (`gps` after its tick, `baro` after its tick, `flight` after its tick).
    private mutating func tick(at: MonotonicInstant, effects: inout [Effect]) {
        gps.tick(at: at, previous: lastTickAt, effects: &effects, staleAfterSeconds: configuration.gpsStaleAfterSeconds)
        let currentFix = gps.currentFix(at: at, staleAfterSeconds: configuration.gpsStaleAfterSeconds)
        let utc = gps.utc(at: at)
        let gpsAltitudeFeet = currentFix?.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:))
        // Pressurisation is a 2,000 ft margin: an ellipsoid height (within 350 ft of MSL anywhere) serves when a
        // source has no MSL altitude (an IGC file). The hypoxia fallback takes MSL only.
        baro.tick(at: at, previous: lastTickAt, effects: &effects, staleAfterSeconds: configuration.baroStaleAfterSeconds,
                  gpsAltitudeFeet: gpsAltitudeFeet ?? currentFix?.altitudeHAEMeters.map(UnitConversions.feet(fromMeters:)))
        let cabinAltitudeFeet = baro.currentCabinAltitudeFeet(at: at, staleAfterSeconds: configuration.baroStaleAfterSeconds)
        hypoxia.tick(at: at, cabinAltitudeFeet: cabinAltitudeFeet, gpsAltitudeMSLFeet: gpsAltitudeFeet, utc: utc,
                     airborne: flight.isAirborne, configuration: configuration.hypoxia, effects: &effects)
        flight.tick(at: at, gpsCurrent: currentFix != nil, cabinAltitudeFeet: cabinAltitudeFeet)
        let airborne = flight.isAirborne
        traffic.tick(at: at, ourUTC: utc, configuration: configuration.traffic)
        radioTraffic.tick(at: at, effects: &effects)
        weather.tick()
        // No traffic (most seconds of most flights): the picture is empty whatever the own fix.
        let picture = traffic.targets.isEmpty && radioTraffic.targets.isEmpty ? TrafficPicture(targets: [])
            : TrafficPicture(relay: traffic, radio: radioTraffic, own: currentFix.flatMap { $0.hasValidPosition ? $0 : nil },
                             ownPressureAltitudeFeet: baro.pressurisedCabinInferred ? nil : cabinAltitudeFeet,
                             now: at, utc: utc, airborne: airborne, configuration: configuration.traffic)
        callouts.update(picture, own: currentFix, airborne: airborne,
                        inCircuit: Self.isInCircuit(own: currentFix, nearest: airfields.nearestPlace,
                                                    lastTakeoff: flight.takeoffs.last, heightAboveGroundFeet: flight.heightAboveGroundFeet),
                        at: at, effects: &effects)
        encounters.tick(picture, threats: callouts.threats, utc: utc, airborne: airborne, configuration: configuration.traffic, effects: &effects)
        airfields.tick(at: at, fix: currentFix, utc: utc, profile: configuration.aircraft, kind: configuration.flightProfile.kind, effects: &effects)
        glide.tick(at: at, fix: currentFix, airborne: airborne, declinationDegrees: airfields.last?.lookup.declinationDegrees,
                   kind: configuration.flightProfile.kind, configuration: configuration.glide, effects: &effects)
        lastTickAt = at
    }

    /// Notes alerts and transitions as they happen and rebuilds the active alerts once a second, after an
    /// acknowledgement, and whenever something was raised (`rebuild`: the event itself asks for it).
    private mutating func updateAlerts(rebuild: Bool, at: MonotonicInstant, effects: inout [Effect], from firstEffect: Int) {
        var rebuild = rebuild
        for index in firstEffect..<effects.count {
            switch effects[index] {
            case .alert(let alert):
                alerts.note(alert.kind.name, alert.message, at: at, utc: alert.utc ?? gps.utc(at: at))
                rebuild = true
            case .flightTransition(let transition):
                let place = transition.nearestAirfield.map { " at \($0)" } ?? ""
                alerts.note(transition.kind.rawValue, (transition.kind == .takeoff ? "Takeoff" : "Landing") + place, at: at,
                            utc: transition.utc ?? gps.utc(at: at))
                rebuild = true
            default:
                break
            }
        }
        if rebuild {
            var conditions = alertConditions(at: at)
            if let glide = glideCondition(at: at) { conditions.append(glide) }
            alerts.rebuild(conditions, at: at, utc: gps.utc(at: at), configuration: configuration.alerts, effects: &effects)
        }
    }

    /// Convenience for tests and tools: handle one event and return its effects.
    public mutating func handle(_ event: Event, at time: MonotonicInstant) -> [Effect] {
        var effects: [Effect] = []
        handle(event, at: time, effects: &effects)
        return effects
    }

    /// An immutable view of everything a status reader may see, as of the last event.
    public var snapshot: StatusSnapshot { StatusSnapshot(self) }

    /// The cabin barometer's pressure altitude when fresh and the cabin is not inferred pressurised: the only own
    /// altitude on ADS-B's barometric datum. (`applyRadio` and `tick` work it out in place: called from them, a method
    /// of the engine would be handed a copy of the whole engine.)
    func ownPressureAltitudeFeet(at: MonotonicInstant) -> Double? {
        baro.pressurisedCabinInferred ? nil : baro.currentCabinAltitudeFeet(at: at, staleAfterSeconds: configuration.baroStaleAfterSeconds)
    }

    /// Every source's traffic, fused and placed relative to the current fix.
    func trafficPicture(at: MonotonicInstant) -> TrafficPicture {
        let own = gps.currentFix(at: at, staleAfterSeconds: configuration.gpsStaleAfterSeconds).flatMap { $0.hasValidPosition ? $0 : nil }
        return TrafficPicture(relay: traffic, radio: radioTraffic, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet(at: at),
                              now: at, utc: gps.utc(at: at), airborne: flight.isAirborne, configuration: configuration.traffic)
    }
}
