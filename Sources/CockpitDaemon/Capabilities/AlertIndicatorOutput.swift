public import CockpitCore
import CockpitIO
public import CockpitDevices
public import CockpitWire
import Glibc
import Logging
import Synchronization

/// What the LED and the buzzer show, as pure functions of time, so the patterns are tested without waiting.
public enum IndicatorPattern {
    public enum Light: String, Sendable, Equatable { case steady, slowBlink = "slow-blink", fastBlink = "fast-blink" }

    /// Fast blink: an unacknowledged warning; slow blink: a degraded sensor (a configured GPS or barometer not valid,
    /// or a sensor-loss or stopped-facility alert); steady: all good.
    public static func light(_ snapshot: StatusSnapshot) -> Light {
        let alerts = snapshot.alerts.active
        if alerts.contains(where: { $0.priority == .warning && !$0.acknowledged }) { return .fastBlink }
        let sources = snapshot.configuration.sources
        let degraded = (sources.gps && snapshot.gpsValidity != .valid) || (sources.baro && snapshot.baroValidity != .valid)
            || alerts.contains(where: \.degradesTheBox)
        return degraded ? .slowBlink : .steady
    }

    /// Slow: 1 s on, 1 s off. Fast: 100 ms on, 100 ms off (the rate Stratux uses for its error light).
    public static func ledOn(_ light: Light, millisecondsSinceStart t: Int64) -> Bool {
        switch light {
        case .steady: true
        case .slowBlink: t % 2_000 < 1_000
        case .fastBlink: t % 200 < 100
        }
    }

    /// (on, off) milliseconds of the beeps that go with an announcement: warning three long, caution two short,
    /// advisory one short.
    public static func beeps(_ priority: AlertBoard.Priority) -> [(on: Int64, off: Int64)] {
        switch priority {
        case .warning: [(300, 100), (300, 100), (300, 100)]
        case .caution: [(150, 150), (150, 150)]
        case .advisory: [(100, 0)]
        }
    }

    /// Whether the buzzer is on `t` ms after the pattern for `priority` began; nil once the pattern is over.
    public static func buzzerOn(_ priority: AlertBoard.Priority, millisecondsSinceStart t: Int64) -> Bool? {
        var start: Int64 = 0
        for beep in beeps(priority) {
            if t < start + beep.on { return t >= start }
            if t < start + beep.on + beep.off { return false }
            start += beep.on + beep.off
        }
        return nil
    }
}

/// Debounces the acknowledge button: an edge less than `debounceMilliseconds` after the last accepted edge is a
/// bounce; a press is accepted once per press (a release must come between).
public struct ButtonDebouncer: Sendable {
    public var debounceMilliseconds: Int64 = 50
    /// Held down now (after debouncing).
    public private(set) var pressed = false
    private var lastEdge: Int64?
    public init() {}

    /// True when this edge is a new press.
    public mutating func edge(pressed now: Bool, atMilliseconds t: Int64) -> Bool {
        if let lastEdge, t - lastEdge < debounceMilliseconds { return false }
        guard now != pressed else { return false }
        pressed = now
        lastEdge = t
        return now
    }
}

/// Drives LED and buzzer from the core's state and announcements, and turns button presses into `alerts.ack`; a
/// press held for `longPressMilliseconds` also mutes the traffic callouts for `longPressMuteSeconds` (said by the
/// voice; hypoxia is never muted).
/// `step` does one round (set lines that changed, read the button) at a given time; the thread calls it every 20 ms
/// with the monotonic clock, tests call it with scripted times against a fake line driver.
public final class IndicatorDriver: Sendable {
    struct State: Sendable {
        var light = IndicatorPattern.Light.steady
        var lightSince: Int64?
        var beep: (priority: AlertBoard.Priority, since: Int64?)?
        var led: Bool?, buzzer: Bool?
        var presses: Int64 = 0, bounces: Int64 = 0, failures: Int64 = 0
        var lastError: String?
        var debouncer = ButtonDebouncer()
        var pressedSince: Int64?
        var longPressDone = false
        var longPresses: Int64 = 0
    }
    public static let longPressMilliseconds: Int64 = 1_500
    public static let longPressMuteSeconds = 300.0
    let driver: any GPIOLineDriver
    let onPress: @Sendable () -> Void
    let onLongPress: @Sendable () -> Void
    private let state = Mutex(State())

    public init(driver: any GPIOLineDriver, onPress: @escaping @Sendable () -> Void, onLongPress: @escaping @Sendable () -> Void = {}) {
        self.driver = driver
        self.onPress = onPress
        self.onLongPress = onLongPress
    }

    public func show(_ light: IndicatorPattern.Light) {
        state.withLock { if $0.light != light { $0.light = light; $0.lightSince = nil } }
    }
    public func beep(_ priority: AlertBoard.Priority) { state.withLock { $0.beep = (priority, nil) } }
    public func silence() { state.withLock { $0.beep = nil } }

    /// One round at `t` ms: outputs, then the button edges that arrived (waiting up to `waitMilliseconds`).
    public func step(atMilliseconds t: Int64, waitMilliseconds: Int = 0, edgeTime: () -> Int64) {
        let (led, buzzer) = state.withLock { state -> (Bool?, Bool?) in
            let since = state.lightSince ?? t
            state.lightSince = since
            let led = IndicatorPattern.ledOn(state.light, millisecondsSinceStart: t - since)
            var buzzer = false
            if let beep = state.beep {
                let began = beep.since ?? t
                state.beep = (beep.priority, began)
                if let on = IndicatorPattern.buzzerOn(beep.priority, millisecondsSinceStart: t - began) { buzzer = on } else { state.beep = nil }
            }
            defer { state.led = led; state.buzzer = buzzer }
            return (state.led == led ? nil : led, state.buzzer == buzzer ? nil : buzzer)
        }
        do {
            if let led { try driver.setLED(led) }
            if let buzzer { try driver.setBuzzer(buzzer) }
            for pressed in try driver.buttonEdges(timeoutMilliseconds: waitMilliseconds) {
                let at = edgeTime()
                let press = state.withLock { state in
                    let accepted = state.debouncer.edge(pressed: pressed, atMilliseconds: at)
                    if accepted { state.presses += 1; state.pressedSince = at; state.longPressDone = false } else if pressed { state.bounces += 1 }
                    if !state.debouncer.pressed { state.pressedSince = nil }
                    return accepted
                }
                if press { onPress() }
            }
            let long = state.withLock { state -> Bool in
                guard let since = state.pressedSince, !state.longPressDone, t - since >= Self.longPressMilliseconds else { return false }
                state.longPressDone = true
                state.longPresses += 1
                return true
            }
            if long { onLongPress() }
        } catch {
            state.withLock { $0.failures += 1; $0.lastError = error.description }
        }
    }

    var counters: (presses: Int64, bounces: Int64, failures: Int64, lastError: String?, light: IndicatorPattern.Light, longPresses: Int64) {
        state.withLock { ($0.presses, $0.bounces, $0.failures, $0.lastError, $0.light, $0.longPresses) }
    }
}

/// The GPIO output: opens the chip at start (a failure is a status error and a log line; the daemon flies on), then
/// a thread steps the indicator driver every 20 ms. Without GPIO settings this output does not exist.
final class AlertIndicatorOutput: RunnerOutput {
    let name = "alerts-gpio"
    var wantsTicks: Bool { true }
    private let indicators: IndicatorDriver?
    private let openError: String?
    private let configuration: GPIOConfiguration
    private let running = RunFlag()

    init(configuration: GPIOConfiguration, commands: CommandInlet, logger: Logger,
         open: (GPIOConfiguration) throws(GPIOError) -> any GPIOLineDriver) {
        self.configuration = configuration
        var started: IndicatorDriver?, failure: String?
        do {
            let driver = try open(configuration)
            let indicators = IndicatorDriver(driver: driver, onPress: { commands.submit(.acknowledgeAlerts) },
                                             onLongPress: { commands.submitMute(seconds: IndicatorDriver.longPressMuteSeconds) })
            let running = self.running
            do {
                try BackgroundThread.start(name: "cockpitd-gpio") {
                    let milliseconds = { MonotonicClock.now().nanoseconds / 1_000_000 }
                    while running.value.load(ordering: .relaxed) {
                        indicators.step(atMilliseconds: milliseconds(), waitMilliseconds: 20, edgeTime: milliseconds)
                    }
                    driver.close()
                }
                started = indicators
            } catch {
                driver.close()
                failure = error.description
            }
        } catch {
            failure = error.description
        }
        indicators = started
        openError = failure
        if let failure {
            logger.error("alert GPIO unavailable, LED/buzzer/button not working: \(failure)")
        } else {
            logger.notice("alert GPIO on \(configuration.chip): LED \(configuration.ledLine.map(String.init) ?? "-"), buzzer \(configuration.buzzerLine.map(String.init) ?? "-"), button \(configuration.buttonLine.map(String.init) ?? "-")")
        }
    }

    func handle(_ event: OutputEvent) {
        guard let indicators else { return }
        switch event {
        case .effect(.announce(let announcement), _): indicators.beep(announcement.priority)
        case .effect(.cancelAnnouncement, _): indicators.silence()
        case .tick(let snapshot), .finished(let snapshot): indicators.show(IndicatorPattern.light(snapshot))
        default: break
        }
    }

    func status() -> OutputStatus {
        var status = OutputStatus(unit: "button presses")
        status.details["chip"] = .string(configuration.chip)
        guard let indicators else {
            status.failed = 1
            status.lastError = openError
            return status
        }
        let counters = indicators.counters
        status.sent = counters.presses
        status.failed = counters.failures
        status.lastError = counters.lastError
        status.details["light"] = .string(counters.light.rawValue)
        status.details["bounces"] = .integer(counters.bounces)
        status.details["longPresses"] = .integer(counters.longPresses)
        return status
    }

    func stop() { running.value.store(false, ordering: .relaxed) }
}

/// Lets an output feed a command to the core (the GPIO button: acknowledge, and held, the traffic mute). The daemon
/// connects it to its loop once it exists; unconnected (a full-speed replay), commands are dropped.
public final class CommandInlet: Sendable {
    private let sink = Mutex<(@Sendable (RawInput) -> Void)?>(nil)
    public init() {}
    public func connect(_ body: @escaping @Sendable (RawInput) -> Void) { sink.withLock { $0 = body } }
    public func submit(_ command: Command) { sink.withLock { $0 }?(.command(command)) }
    public func submitMute(seconds: Double) { sink.withLock { $0 }?(.muteTraffic(seconds: seconds)) }
}

/// A stop flag shared with the GPIO thread.
final class RunFlag: Sendable {
    let value = Atomic<Bool>(true)
}
