public import CockpitCore

/// A value and the caller's monotonic time at which it arrived.
public struct RadioTimed<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value
    public var at: MonotonicInstant

    public init(_ value: Value, at: MonotonicInstant) {
        self.value = value
        self.at = at
    }
}

/// An SBS address: 24 bits and whether it is an ICAO address (a `~` address is another aircraft than the ICAO one
/// with the same bits).
public struct SBSAddress: Hashable, Sendable {
    public var value: UInt32
    public var isICAO: Bool

    public init(_ value: UInt32, isICAO: Bool = true) {
        self.value = value & 0xFF_FFFF
        self.isICAO = isICAO
    }
}

/// The latest of each part of one aircraft's state, as SBS messages gave them, each with the time it arrived.
public struct SBSAircraftState: Sendable, Equatable {
    public struct Position: Sendable, Equatable {
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
    }

    public struct Velocity: Sendable, Equatable {
        public var groundSpeedKnots: Double?
        public var trackDegreesTrue: Double?
    }

    public let address: SBSAddress
    public var callSign: RadioTimed<String>?
    public var position: RadioTimed<Position>?
    /// Barometric (standard-pressure) altitude, feet; see `SBSMessage.pressureAltitudeFeet`.
    public var pressureAltitudeFeet: RadioTimed<Int>?
    /// GNSS height above the WGS-84 ellipsoid, feet, when the receiver sends it (`H` suffix).
    public var geometricAltitudeFeet: RadioTimed<Int>?
    public var velocity: RadioTimed<Velocity>?
    public var verticalRateFeetPerMinute: RadioTimed<Int>?
    public var squawk: RadioTimed<String>?
    public var emergency: RadioTimed<Bool>?
    public var identActive: RadioTimed<Bool>?
    public var onGround: RadioTimed<Bool>?
    /// The last message of any kind from this address, and how many there were.
    public var lastMessageAt: MonotonicInstant
    public var messageCount: Int

    init(address: SBSAddress, at: MonotonicInstant) {
        self.address = address
        lastMessageAt = at
        messageCount = 0
    }

    /// Takes every field the message carries; leaves the others as they were.
    mutating func fold(_ message: SBSMessage, at: MonotonicInstant) {
        if at > lastMessageAt { lastMessageAt = at }
        messageCount += 1
        if let sign = message.callSign { callSign = RadioTimed(sign, at: at) }
        if let lat = message.latitudeDegrees, let lon = message.longitudeDegrees {
            position = RadioTimed(Position(latitudeDegrees: lat, longitudeDegrees: lon), at: at)
        }
        if let feet = message.pressureAltitudeFeet { pressureAltitudeFeet = RadioTimed(feet, at: at) }
        if let feet = message.geometricAltitudeFeet { geometricAltitudeFeet = RadioTimed(feet, at: at) }
        if message.groundSpeedKnots != nil || message.trackDegreesTrue != nil {
            velocity = RadioTimed(Velocity(groundSpeedKnots: message.groundSpeedKnots, trackDegreesTrue: message.trackDegreesTrue), at: at)
        }
        if let rate = message.verticalRateFeetPerMinute { verticalRateFeetPerMinute = RadioTimed(rate, at: at) }
        if let code = message.squawk { squawk = RadioTimed(code, at: at) }
        if let flag = message.emergency { emergency = RadioTimed(flag, at: at) }
        if let flag = message.identActive { identActive = RadioTimed(flag, at: at) }
        if let flag = message.onGround { onGround = RadioTimed(flag, at: at) }
    }
}

/// Folds SBS messages by address into one latest-state record per aircraft: dump1090 sends an aircraft's position,
/// velocity and identity in separate lines (MSG,3 / MSG,4 / MSG,1), so no single line is a target. Pure: the time of
/// each message is the caller's monotonic clock, passed in. Bounded: at most `capacity` aircraft; a new one beyond
/// that replaces the one heard least recently, counted in `evictedCount`.
public struct SBSAircraftMerge: Sendable {
    public let capacity: Int
    public private(set) var aircraft: [SBSAddress: SBSAircraftState] = [:]
    public private(set) var evictedCount = 0

    public init(capacity: Int = 500) { self.capacity = max(1, capacity) }

    /// Folds one message in and answers the aircraft's state after it.
    @discardableResult
    public mutating func fold(_ message: SBSMessage, at: MonotonicInstant) -> SBSAircraftState {
        let key = SBSAddress(message.address, isICAO: message.addressIsICAO)
        if aircraft[key] == nil, aircraft.count >= capacity, let oldest = aircraft.values.min(by: { $0.lastMessageAt < $1.lastMessageAt }) {
            aircraft[oldest.address] = nil
            evictedCount += 1
        }
        var state = aircraft[key] ?? SBSAircraftState(address: key, at: at)
        state.fold(message, at: at)
        aircraft[key] = state
        return state
    }

    /// Forgets every aircraft not heard since `instant`; answers how many.
    @discardableResult
    public mutating func removeAircraft(notHeardSince instant: MonotonicInstant) -> Int {
        let before = aircraft.count
        aircraft = aircraft.filter { $0.value.lastMessageAt >= instant }
        return before - aircraft.count
    }
}
