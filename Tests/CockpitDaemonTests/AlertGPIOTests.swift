import Dispatch
import Glibc
import Logging
import Synchronization
import Testing
import CockpitCore
@testable import CockpitDaemon
import CockpitIO
import CockpitDevices
import CockpitWire
import CockpitTestSupport

/// A line driver that records every write with the scripted time, and plays back scripted button edges.
final class RecordingLineDriver: GPIOLineDriver, Sendable {
    struct Log: Sendable { var writes: [(t: Int64, line: String, value: Bool)] = []; var edges: [Bool] = []; var closed = false }
    let log = Mutex(Log())
    let clock = Mutex<Int64>(0)

    func setLED(_ on: Bool) throws(GPIOError) { let t = clock.withLock { $0 }; log.withLock { $0.writes.append((t, "led", on)) } }
    func setBuzzer(_ on: Bool) throws(GPIOError) { let t = clock.withLock { $0 }; log.withLock { $0.writes.append((t, "buzzer", on)) } }
    let edgeArrived = DispatchSemaphore(value: 0)
    /// Whether a wait for an edge waits (for a press, at most its timeout), as on a thread of the output's own; when
    /// the test steps the scripted clock itself, a wait is over at once.
    let waitsForEdges: Bool

    init(waitsForEdges: Bool = false) { self.waitsForEdges = waitsForEdges }

    func buttonEdges(timeoutMilliseconds: Int) throws(GPIOError) -> [Bool] {
        if waitsForEdges, timeoutMilliseconds > 0, log.withLock({ $0.edges.isEmpty }) {
            _ = edgeArrived.wait(timeout: .now() + .milliseconds(timeoutMilliseconds))
        }
        return log.withLock { log in defer { log.edges = [] }; return log.edges }
    }
    func close() { log.withLock { $0.closed = true } }
    func press(_ edges: [Bool]) {
        log.withLock { $0.edges += edges }
        edgeArrived.signal()
    }
    func writes(_ line: String) -> [(Int64, Bool)] { log.withLock { $0.writes.filter { $0.line == line }.map { ($0.t, $0.value) } } }
}

@Suite("Alert LED, buzzer and button")
struct AlertGPIOTests {
    /// Steps the driver every 10 ms from `from` to `to` (scripted time; nothing waits).
    static func run(_ indicators: IndicatorDriver, _ fake: RecordingLineDriver, from: Int64, to: Int64) {
        var t = from
        while t < to {
            fake.clock.withLock { $0 = t }
            indicators.step(atMilliseconds: t, edgeTime: { fake.clock.withLock { $0 } })
            t += 10
        }
    }

    @Test func ledPatterns() {
        let fake = RecordingLineDriver()
        let indicators = IndicatorDriver(driver: fake) {}
        Self.run(indicators, fake, from: 0, to: 3_000)
        #expect(fake.writes("led").map(\.1) == [true])   // steady: switched on once, never toggled
        indicators.show(.slowBlink)
        Self.run(indicators, fake, from: 3_000, to: 7_000)
        #expect(fake.writes("led").dropFirst().map(\.0) == [4_000, 5_000, 6_000])   // 1 s on, 1 s off
        indicators.show(.fastBlink)
        Self.run(indicators, fake, from: 7_000, to: 7_500)
        let fast = fake.writes("led").filter { $0.0 >= 7_000 }
        #expect(fast.map(\.0) == [7_000, 7_100, 7_200, 7_300, 7_400])   // 100 ms on, 100 ms off
        #expect(fast.map(\.1) == [true, false, true, false, true])
    }

    @Test func buzzerPatternPerPriority() {
        let fake = RecordingLineDriver()
        let indicators = IndicatorDriver(driver: fake) {}
        indicators.beep(.warning)
        Self.run(indicators, fake, from: 0, to: 2_000)
        #expect(fake.writes("buzzer").map(\.0) == [0, 300, 400, 700, 800, 1_100])
        indicators.beep(.caution)
        Self.run(indicators, fake, from: 2_000, to: 3_000)
        #expect(fake.writes("buzzer").filter { $0.0 >= 2_000 }.map(\.0) == [2_000, 2_150, 2_300, 2_450])
        indicators.beep(.warning)
        Self.run(indicators, fake, from: 3_000, to: 3_150)
        indicators.silence()   // the announcement was cut off: the buzzer stops at once
        Self.run(indicators, fake, from: 3_150, to: 4_000)
        #expect(fake.writes("buzzer").filter { $0.0 >= 3_000 }.map(\.0) == [3_000, 3_150])
    }

    @Test func buttonIsDebounced() {
        let fake = RecordingLineDriver()
        let presses = Mutex(0)
        let indicators = IndicatorDriver(driver: fake) { presses.withLock { $0 += 1 } }
        fake.press([true])                         // t = 0: press
        Self.run(indicators, fake, from: 0, to: 20)
        fake.press([false, true, false, true])     // contact bounce within 50 ms
        Self.run(indicators, fake, from: 20, to: 200)
        fake.press([false])                        // released
        Self.run(indicators, fake, from: 200, to: 400)
        fake.press([true])                         // a second press
        Self.run(indicators, fake, from: 400, to: 500)
        #expect(presses.withLock { $0 } == 2)
        #expect(indicators.counters.bounces >= 1)
    }

    /// Held for 1.5 s, the button also mutes the traffic callouts for five minutes — once per press; a short press
    /// only acknowledges. The acknowledge comes at once, on the press itself.
    @Test func aLongPressMutesTrafficOnce() {
        let fake = RecordingLineDriver()
        let events = Mutex<[String]>([])
        let indicators = IndicatorDriver(driver: fake, onPress: { events.withLock { $0.append("ack") } },
                                         onLongPress: { events.withLock { $0.append("mute") } })
        fake.press([true])                         // t = 0: a short press
        Self.run(indicators, fake, from: 0, to: 300)
        fake.press([false])
        Self.run(indicators, fake, from: 300, to: 2_500)
        #expect(events.withLock { $0 } == ["ack"])
        fake.press([true])                         // t = 2,500: held
        Self.run(indicators, fake, from: 2_500, to: 3_990)
        #expect(events.withLock { $0 } == ["ack", "ack"], "not yet 1.5 s")
        Self.run(indicators, fake, from: 3_990, to: 8_000)
        #expect(events.withLock { $0 } == ["ack", "ack", "mute"], "once, however long it is held")
        fake.press([false])
        Self.run(indicators, fake, from: 8_000, to: 8_200)
        #expect(indicators.counters.longPresses == 1)
        #expect(IndicatorDriver.longPressMuteSeconds == 300)
    }

    /// The LED follows the core: fast blink for an unacknowledged CHECK OXYGEN, steady once acknowledged with the
    /// sensors valid.
    @Test func lightFollowsTheCore() {
        var script = AlertScriptLite()
        script.hold(95, feet: 25_000)
        #expect(IndicatorPattern.light(script.engine.snapshot) == .fastBlink)
        _ = script.engine.handle(.command(.acknowledgeAlerts), at: MonotonicInstant(seconds: script.time))
        #expect(IndicatorPattern.light(script.engine.snapshot) != .fastBlink)
    }

    /// The button reaches the core as `alerts.ack` through the output's command inlet (the daemon connects it to its
    /// loop, where the command is recorded like any control request).
    @Test func buttonPressBecomesAnAcknowledgeCommand() {
        let fake = RecordingLineDriver(waitsForEdges: true)
        let inlet = CommandInlet()
        let received = Mutex<[RawInput]>([])
        inlet.connect { input in received.withLock { $0.append(input) } }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let output = AlertIndicatorOutput(configuration: GPIOConfiguration(chip: "fake", ledLine: 1, buzzerLine: 2, buttonLine: 3),
                                          commands: inlet, logger: logger) { _ throws(GPIOError) in fake }
        defer { output.stop() }
        fake.press([true])
        #expect(waitFor(seconds: 5) { received.withLock { $0 } == [.command(.acknowledgeAlerts)] })
        #expect(output.status().sent == 1)
    }

    /// libgpiod itself: a chip that is not there is a clear error (this runs everywhere).
    @Test func libgpiodReportsAMissingChip() {
        #expect(throws: GPIOError.self) { try LibgpiodLineDriver(GPIOConfiguration(chip: "no-such-gpio-chip", ledLine: 0)) }
    }

    static let realChip: String? = (0..<8).map { "/dev/gpiochip\($0)" }.first { access($0, R_OK | W_OK) == 0 }

    /// Against a real chip when one exists (a Pi, or gpio-sim): drive a line and read it back through libgpiod.
    @Test(.enabled(if: realChip != nil, "no /dev/gpiochip* in this machine (no GPIO hardware, and the gpio-sim kernel module cannot be loaded in this container)"))
    func libgpiodDrivesARealChip() throws {
        let chip = try #require(Self.realChip)
        let driver = try LibgpiodLineDriver(GPIOConfiguration(chip: chip, ledLine: 0))
        defer { driver.close() }
        try driver.setLED(true)
        try driver.setLED(false)
        #expect(driver.chipName.hasPrefix("gpiochip"))
    }
}

/// The hypoxia part of the core at 1 Hz (cabin altitude only).
struct AlertScriptLite {
    var engine = Engine()
    var time = 0.0
    mutating func hold(_ seconds: Int, feet: Double) {
        for _ in 0..<seconds {
            time += 1
            let pascals = StandardAtmosphere.pressurePascals(pressureAltitudeFeet: feet)
            _ = engine.handle(.baro(BaroSample(pressurePascals: pascals, temperatureCelsius: 20)), at: MonotonicInstant(seconds: time - 0.5))
            _ = engine.handle(.tick, at: MonotonicInstant(seconds: time))
        }
    }
}
