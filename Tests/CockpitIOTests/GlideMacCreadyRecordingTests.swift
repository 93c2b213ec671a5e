import Testing
@testable import CockpitCore
import CockpitIO
import CockpitWire

/// `cockpitctl glide mc 1.5` is a recorded input: written to a recording and read back as the same input, refused out
/// of range, and applied by the core so that a replay shows the same speed to fly.
@Suite("MacCready in flight, recorded")
struct GlideMacCreadyRecordingTests {
    @Test func theInputRoundTripsThroughARecording() throws {
        let input = TimedInput(time: MonotonicInstant(seconds: 12.5), input: .glideMacCready(metersPerSecond: 1.5))
        let line = RecordingFormat.encode(input)
        #expect(line.contains("\"k\":\"glide.mc\""))
        #expect(try RecordingFormat.decode(line, lineNumber: 2) == input)
        #expect(throws: RecordingFormat.Failure.self) {
            try RecordingFormat.decode(#"{"t":1,"k":"glide.mc","metersPerSecond":11}"#, lineNumber: 3)
        }
    }

    /// The core takes it: the status shows MacCready 1.5 and the ASK 21's speed to fly for it, 109.6 km/h (59 kt; worked
    /// by hand in GlidePolarMacCreadyTests); reach's polar is unchanged (MacCready 0).
    @Test func theCoreShowsTheSpeedToFlyForIt() {
        var configuration = CoreConfiguration()
        configuration.flightProfile = FlightProfile.profile(.glider)
        var engine = Engine(configuration: configuration)
        #expect(engine.snapshot.glideJSON["macCreadyMetersPerSecond"]?.doubleValue == 0)
        _ = engine.handle(.glideMacCready(metersPerSecond: 1.5), at: MonotonicInstant(seconds: 1))
        let glide = engine.snapshot.glideJSON
        #expect(glide["macCreadyMetersPerSecond"]?.doubleValue == 1.5)
        #expect(glide["speedToFlyMacCreadyKilometersPerHour"]?.doubleValue == 110)
        #expect(glide["speedToFlyMacCreadyKnots"]?.doubleValue == 59)
        #expect(engine.configuration.glide.performance(for: .glider).polar == GlidePolar.ask21)
    }
}
