import Testing
@testable import CockpitCore

/// A polled source's values arrive after they were heard (`aircraft.json`'s `seen` and `seen_pos`): the target keeps
/// each at the time it was heard, an older value never replaces a newer one from another source, and the staleness
/// limit counts from when the aircraft was heard, not from the poll.
@Suite struct RadioHeardAgoTests {
    static let address = RadioAddress(type: .icao, value: 0x400B83)

    static func apply(_ o: RadioObservation, atSeconds: Double, to state: inout RadioTrafficState) {
        state.apply(.observation(o), at: MonotonicInstant(seconds: atSeconds), own: nil, ownPressureAltitudeFeet: nil,
                    configuration: RadioTrafficConfiguration())
    }

    @Test func valuesKeepTheTimeTheyWereHeard() throws {
        var state = RadioTrafficState()
        // 400b83 of the London snapshot, read at t = 100 s: last message 3.5 s before, position 10.9 s before.
        var polled = RadioObservation(source: .adsbJSON, address: Self.address)
        polled.latitudeDegrees = 51.477264
        polled.longitudeDegrees = -0.510716
        polled.pressureAltitudeFeet = 1_700
        polled.heardSecondsAgo = 3.5
        polled.positionHeardSecondsAgo = 10.9
        Self.apply(polled, atSeconds: 100, to: &state)
        let target = try #require(state.targets[Self.address])
        #expect(target.position?.at == MonotonicInstant(seconds: 89.1))
        #expect(target.pressureAltitudeFeet?.at == MonotonicInstant(seconds: 96.5))
        #expect(target.heardAt[.adsbJSON] == MonotonicInstant(seconds: 96.5))

        // SBS heard it at 99 s at 1,750 ft; the same poll's older 1,700 ft (96.5 s) arriving later does not win.
        var streamed = RadioObservation(source: .adsbSBS, address: Self.address)
        streamed.pressureAltitudeFeet = 1_750
        Self.apply(streamed, atSeconds: 99, to: &state)
        Self.apply(polled, atSeconds: 100, to: &state)
        #expect(state.targets[Self.address]?.pressureAltitudeFeet?.value == 1_750)
        #expect(state.targets[Self.address]?.pressureAltitudeFeet?.source == .adsbSBS)

        // Stale 20 s after it was last heard by each source: SBS at 99 s, aircraft.json at 96.5 s.
        var effects: [Effect] = []
        state.tick(at: MonotonicInstant(seconds: 118.9), effects: &effects)
        #expect(state.targets[Self.address] != nil)
        state.tick(at: MonotonicInstant(seconds: 119.1), effects: &effects)
        #expect(state.targets[Self.address] == nil && state.agedOut == 1)
    }

    @Test func aPolledTargetAgesOutFromWhenItWasHeard() {
        var state = RadioTrafficState()
        var polled = RadioObservation(source: .adsbJSON, address: Self.address)
        polled.groundSpeedKnots = 161.1
        polled.heardSecondsAgo = 15
        Self.apply(polled, atSeconds: 100, to: &state)
        var effects: [Effect] = []
        state.tick(at: MonotonicInstant(seconds: 104.9), effects: &effects)
        #expect(state.targets[Self.address] != nil)
        state.tick(at: MonotonicInstant(seconds: 105.1), effects: &effects)
        #expect(state.targets[Self.address] == nil)
    }
}
