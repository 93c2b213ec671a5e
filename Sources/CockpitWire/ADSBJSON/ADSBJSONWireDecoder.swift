public import CockpitCore

/// readsb's, dump1090-fa's or dump1090-mutability's `aircraft.json`, polled, as a line source (`adsb-json`): each line
/// is one aircraft that `AircraftJSONFramer` cut out of a document with the document's `now` (and its age when read, if
/// known), or a refusal. An aircraft becomes one observation, its values heard `seen` seconds and its position
/// `seen_pos` seconds before the document was written. A position already passed on (the same coordinates heard at the same time, polled again) is left out; one
/// heard longer ago than the source's staleness limit is not fresh traffic and is left out too, as is an aircraft not
/// heard for that long.
public struct ADSBJSONWireDecoder: RadioLineDecoder {
    public static let kind = RadioSourceKind.adsbJSON
    /// The longest line: an aircraft at its limit and the envelope around it.
    static let maximumLineBytes = AircraftJSONFramer.maximumAircraftBytes + 64

    struct PassedPosition: Equatable {
        var atReceiverSeconds: Double
        var latitudeDegrees: Double
        var longitudeDegrees: Double
    }

    /// The last position passed on for each aircraft, on the receiver's clock (`now − seen_pos`).
    private var positions: [RadioAddress: PassedPosition] = [:]
    private var latestNow = -Double.infinity
    /// Kept at most this many; beyond it, those not heard for a minute are forgotten.
    static let maximumRemembered = 2_000

    public init() {}

    public mutating func decode(_ line: String) -> Event? {
        switch read(line) {
        case .failure(let rejection): .radio(.rejected(source: Self.kind, reason: rejection.rawValue))
        case .success(let observation?): .radio(.observation(observation))
        case .success(nil): .radio(.other(source: Self.kind))
        }
    }

    /// The observation a line gives; nil when it says nothing fresh.
    mutating func read(_ line: String) -> Result<RadioObservation?, AircraftJSONRejection> {
        let bytes = Array(line.utf8)
        guard bytes.count <= Self.maximumLineBytes else { return .failure(.aircraftTooLong) }
        guard let envelope = (try? JSONParser.parse(bytes: bytes))?.objectValue else { return .failure(.aircraftNotJSON) }
        if let refused = envelope["refused"] {
            return .failure(refused.stringValue.flatMap(AircraftJSONRejection.init(rawValue:)) ?? .notJSON)
        }
        guard let now = envelope["now"]?.doubleValue, now.isFinite else { return .failure(.now) }
        var documentAgeSeconds = 0.0
        if let value = envelope["age"] {
            guard let seconds = value.doubleValue, seconds >= 0, seconds <= 60 else { return .failure(.now) }
            documentAgeSeconds = seconds
        }
        guard let object = envelope["aircraft"]?.objectValue else { return .failure(.notObject) }
        let aircraft: AircraftJSONAircraft
        switch AircraftJSONAircraft.read(object) {
        case .failure(let rejection): return .failure(rejection)
        case .success(let read): aircraft = read
        }
        let staleSeconds = Self.kind.staleAfterSeconds
        guard documentAgeSeconds + aircraft.seenSeconds <= staleSeconds else { return .success(nil) }
        var o = RadioObservation(source: Self.kind, address: aircraft.address)
        o.heardSecondsAgo = documentAgeSeconds + aircraft.seenSeconds
        if let lat = aircraft.latitudeDegrees, let lon = aircraft.longitudeDegrees, let age = aircraft.positionSeenSeconds,
           documentAgeSeconds + age <= staleSeconds {
            let position = PassedPosition(atReceiverSeconds: now - age, latitudeDegrees: lat, longitudeDegrees: lon)
            if !isPassed(position, address: aircraft.address) {
                o.latitudeDegrees = lat
                o.longitudeDegrees = lon
                o.positionHeardSecondsAgo = documentAgeSeconds + age
                remember(position, address: aircraft.address, now: now)
            }
        }
        o.pressureAltitudeFeet = aircraft.pressureAltitudeFeet
        o.geometricAltitudeHAEFeet = aircraft.geometricAltitudeHAEFeet
        o.onGround = aircraft.onGround
        o.groundSpeedKnots = aircraft.groundSpeedKnots
        o.trackTrueDegrees = aircraft.trackTrueDegrees
        o.verticalRateFeetPerMinute = aircraft.verticalRateFeetPerMinute
        o.callsign = aircraft.callSign
        o.squawk = aircraft.squawk
        o.emitterCategory = aircraft.emitterCategory
        return .success(o.saysAnything ? o : nil)
    }

    /// The same coordinates heard at the same time (the writer rounds `now` and `seen_pos` to 0.1 s each).
    private func isPassed(_ position: PassedPosition, address: RadioAddress) -> Bool {
        guard let last = positions[address] else { return false }
        return last.latitudeDegrees == position.latitudeDegrees && last.longitudeDegrees == position.longitudeDegrees
            && abs(last.atReceiverSeconds - position.atReceiverSeconds) <= 0.25
    }

    private mutating func remember(_ position: PassedPosition, address: RadioAddress, now: Double) {
        latestNow = max(latestNow, now)
        positions[address] = position
        if positions.count > Self.maximumRemembered {
            let cutoff = latestNow - 60
            positions = positions.filter { $0.value.atReceiverSeconds >= cutoff }
            if positions.count > Self.maximumRemembered { positions = [address: position] }
        }
    }
}
