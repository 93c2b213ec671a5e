import CGPIOD
import Glibc
import CockpitIO

/// The seam between the alert indicators and GPIO hardware: two output lines (LED, buzzer) and one input line with
/// edge events (the acknowledge button). The libgpiod adapter drives a real chip; tests use a recording fake.
public protocol GPIOLineDriver: AnyObject, Sendable {
    func setLED(_ on: Bool) throws(GPIOError)
    func setBuzzer(_ on: Bool) throws(GPIOError)
    /// Waits up to `timeoutMilliseconds` for button edges; returns them (true = pressed) in order.
    func buttonEdges(timeoutMilliseconds: Int) throws(GPIOError) -> [Bool]
    func close()
}

public struct GPIOError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Which chip and lines (offsets on that chip). The chip is a label (`pinctrl-rp1` on a Pi 5, `pinctrl-bcm2711` on a
/// Pi 4), a name (`gpiochip0`), a path or a number — libgpiod's lookup accepts all four.
public struct GPIOConfiguration: Sendable, Equatable {
    public var chip: String
    public var ledLine: Int?
    public var buzzerLine: Int?
    public var buttonLine: Int?
    /// The button pulls the line to ground (pull-up bias, active low), the usual wiring of a panel push button.
    public var buttonActiveLow = true
    public init(chip: String, ledLine: Int? = nil, buzzerLine: Int? = nil, buttonLine: Int? = nil) {
        self.chip = chip
        self.ledLine = ledLine
        self.buzzerLine = buzzerLine
        self.buttonLine = buttonLine
    }
}

/// libgpiod 1.6 (Debian 12 `libgpiod-dev`) through the CGPIOD module map: the character device, never sysfs.
public final class LibgpiodLineDriver: GPIOLineDriver, @unchecked Sendable {
    private let chip: OpaquePointer
    private let led: OpaquePointer?
    private let buzzer: OpaquePointer?
    private let button: OpaquePointer?
    public let chipName: String
    public let chipLabel: String
    private let buttonActiveLow: Bool
    private var closed = false

    public init(_ configuration: GPIOConfiguration, consumer: String = "cockpitd") throws(GPIOError) {
        guard let chip = gpiod_chip_open_lookup(configuration.chip) ?? gpiod_chip_open_by_label(configuration.chip) else {
            throw GPIOError("GPIO chip \(configuration.chip): \(String(cString: strerror(errno)))")
        }
        self.chip = chip
        chipName = String(cString: gpiod_chip_name(chip))
        chipLabel = String(cString: gpiod_chip_label(chip))
        buttonActiveLow = configuration.buttonActiveLow
        func line(_ offset: Int?, _ role: String) throws(GPIOError) -> OpaquePointer? {
            guard let offset else { return nil }
            guard offset >= 0, offset < Int(gpiod_chip_num_lines(chip)), let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
                throw GPIOError("\(role) line \(offset) is not on \(configuration.chip) (\(gpiod_chip_num_lines(chip)) lines)")
            }
            return line
        }
        do throws(GPIOError) {
            led = try line(configuration.ledLine, "LED")
            buzzer = try line(configuration.buzzerLine, "buzzer")
            button = try line(configuration.buttonLine, "button")
            for (output, role) in [(led, "LED"), (buzzer, "buzzer")] {
                if let output, gpiod_line_request_output(output, consumer, 0) != 0 {
                    throw GPIOError("\(role) line: \(String(cString: strerror(errno))) (in use by another program?)")
                }
            }
            if let button {
                let flags = Int32(configuration.buttonActiveLow ? GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP : GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
                if gpiod_line_request_both_edges_events_flags(button, consumer, flags) != 0 {
                    throw GPIOError("button line: \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            gpiod_chip_close(chip)
            throw error
        }
    }

    public func setLED(_ on: Bool) throws(GPIOError) { try set(led, on, "LED") }
    public func setBuzzer(_ on: Bool) throws(GPIOError) { try set(buzzer, on, "buzzer") }

    private func set(_ line: OpaquePointer?, _ on: Bool, _ role: String) throws(GPIOError) {
        guard let line else { return }
        if gpiod_line_set_value(line, on ? 1 : 0) != 0 { throw GPIOError("\(role): \(String(cString: strerror(errno)))") }
    }

    public func buttonEdges(timeoutMilliseconds: Int) throws(GPIOError) -> [Bool] {
        guard let button else {
            usleep(UInt32(max(0, timeoutMilliseconds)) * 1_000)
            return []
        }
        var timeout = timespec(tv_sec: timeoutMilliseconds / 1_000, tv_nsec: (timeoutMilliseconds % 1_000) * 1_000_000)
        let ready = gpiod_line_event_wait(button, &timeout)
        guard ready >= 0 else { throw GPIOError("button: \(String(cString: strerror(errno)))") }
        guard ready == 1 else { return [] }
        var event = gpiod_line_event()
        guard gpiod_line_event_read(button, &event) == 0 else { throw GPIOError("button: \(String(cString: strerror(errno)))") }
        let rising = event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE)
        return [rising != buttonActiveLow]
    }

    public func close() {
        guard !closed else { return }
        closed = true
        _ = try? setLED(false)
        _ = try? setBuzzer(false)
        gpiod_chip_close(chip)   // releases every requested line
    }
}
