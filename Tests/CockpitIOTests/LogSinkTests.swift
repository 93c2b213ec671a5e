import Testing
@testable import CockpitIO
import CockpitCore
import CockpitTestSupport

@Suite("Journal logging")
struct LogSinkTests {
    @Test func journalLinesCarryPriorityAndNoTimestamp() {
        let sink = LogSink(style: .journal, fileDescriptor: -1)
        #expect(sink.format(level: .warning, message: "gpsd disconnected", now: 1) == "<4>gpsd disconnected\n")
        #expect(sink.format(level: .error, message: "a\nb", now: 1) == "<3>a b\n")
        #expect(sink.format(level: .info, message: "x", now: 1) == "<6>x\n")
        #expect(sink.format(level: .critical, message: "y", now: 1) == "<2>y\n")
    }

    @Test func identicalMessagesAreRateLimited() {
        let sink = LogSink(style: .journal, fileDescriptor: -1, rateLimitWindowSeconds: 10)
        #expect(sink.format(level: .error, message: "I2C read failed: EIO", now: 100) != nil)
        for step in 1...50 { #expect(sink.format(level: .error, message: "I2C read failed: EIO", now: 100 + Double(step) / 10) == nil) }
        #expect(sink.formatHeldBack(now: 109.9, all: false) == nil)   // the window has not ended
        #expect(sink.format(level: .error, message: "I2C read failed: EIO", now: 111)
                == "<3>I2C read failed: EIO (50 identical messages suppressed)\n")
    }

    /// Any other line written first writes what was held back (it happened before that line).
    @Test func heldBackRepeatsComeBeforeTheNextLine() {
        let sink = LogSink(style: .journal, fileDescriptor: -1, rateLimitWindowSeconds: 10)
        _ = sink.format(level: .error, message: "I2C read failed: EIO", now: 100)
        for step in 1...10 { _ = sink.format(level: .error, message: "I2C read failed: EIO", now: 100 + Double(step) / 10) }
        #expect(sink.format(level: .warning, message: "cabin pressure stale: no sample for 2 s", now: 101.5)
                == "<3>I2C read failed: EIO (10 identical messages suppressed, the last 0.5 s ago)\n<4>cabin pressure stale: no sample for 2 s\n")
        // Its window goes on: the next repeat is held back again, and reported when the window (opened at 100) ends.
        #expect(sink.format(level: .error, message: "I2C read failed: EIO", now: 102) == nil)
        #expect(sink.formatHeldBack(now: 109.9, all: false) == nil)
        #expect(sink.formatHeldBack(now: 110, all: false) == "<3>I2C read failed: EIO (1 identical message suppressed, the last 8.0 s ago)\n")
        #expect(sink.formatHeldBack(now: 110.25, all: false) == nil)
    }

    /// A GPS whose fix comes and goes: acquired at 0, lost at 5, acquired at 11 (its window ended at 10: written), lost
    /// again at 14 (inside the window opened at 5: held back). The journal must not end on "acquired".
    @Test func theLastTransitionIsWrittenWhenItsWindowEnds() {
        let sink = LogSink(style: .journal, fileDescriptor: -1, rateLimitWindowSeconds: 10)
        let acquired = "GPS fix acquired (3D)", lost = "GPS fix lost: no position for 3 s"
        #expect(sink.format(level: .notice, message: acquired, now: 0) == "<5>GPS fix acquired (3D)\n")
        #expect(sink.format(level: .warning, message: lost, now: 5) == "<4>GPS fix lost: no position for 3 s\n")
        #expect(sink.format(level: .notice, message: acquired, now: 11) == "<5>GPS fix acquired (3D)\n")
        #expect(sink.format(level: .warning, message: lost, now: 14) == nil)
        for heartbeat in stride(from: 14.25, through: 14.75, by: 0.25) { #expect(sink.formatHeldBack(now: heartbeat, all: false) == nil) }
        #expect(sink.formatHeldBack(now: 15, all: false)
                == "<4>GPS fix lost: no position for 3 s (1 identical message suppressed, the last 1.0 s ago)\n")
    }

    /// Held-back repeats of several messages come out in the order of their last occurrences, though only one window
    /// has ended.
    @Test func heldBackRepeatsKeepTheirOrder() {
        let sink = LogSink(style: .journal, fileDescriptor: -1, rateLimitWindowSeconds: 10)
        let connected = "gpsd connected at 127.0.0.1:2947", gone = "gpsd disconnected: closed by gpsd"
        _ = sink.format(level: .notice, message: connected, now: 0)
        _ = sink.format(level: .warning, message: gone, now: 1)
        #expect(sink.format(level: .warning, message: gone, now: 2) == nil)
        #expect(sink.format(level: .notice, message: connected, now: 3) == nil)
        #expect(sink.formatHeldBack(now: 10, all: false) == """
            <4>gpsd disconnected: closed by gpsd (1 identical message suppressed, the last 8.0 s ago)
            <5>gpsd connected at 127.0.0.1:2947 (1 identical message suppressed, the last 7.0 s ago)

            """)
        // "disconnected"'s window (opened at 1) goes on to 11; "connected"'s started again at 10.
        #expect(sink.format(level: .warning, message: gone, now: 10.5) == nil)
        #expect(sink.formatHeldBack(now: 11, all: false)
                == "<4>gpsd disconnected: closed by gpsd (1 identical message suppressed, the last 0.5 s ago)\n")
    }

    /// A steady flood, 10 messages a second for 30 s with the daemon's 250 ms heartbeat: one line a window, and every
    /// message accounted for (written, or counted in a line that was).
    @Test func aFloodIsOneLineAWindowAndNothingIsLost() {
        let sink = LogSink(style: .journal, fileDescriptor: -1, rateLimitWindowSeconds: 10)
        var written: [String] = []
        for tick in 0...1200 {   // 25 ms steps: a message every 4th, a heartbeat every 10th
            let now = Double(tick) / 40
            if tick % 4 == 0, let text = sink.format(level: .error, message: "I2C read failed: EIO", now: now) { written.append(text) }
            if tick % 10 == 0, let text = sink.formatHeldBack(now: now, all: false) { written.append(text) }
        }
        if let text = sink.formatHeldBack(now: 30.1, all: true) { written.append(text) }
        let lines = written.joined().split(separator: "\n")
        let accounted = lines.reduce(0) { total, line in
            guard let open = line.firstIndex(of: "(") else { return total + 1 }
            let count = Int(line[line.index(after: open)...].prefix { $0.isNumber })!
            return total + count + (line.hasSuffix(" ago)") ? 0 : 1)   // a line of held-back repeats is only them
        }
        #expect(lines.count == 4)   // at 0, then when each window ends at 10, 20 and 30
        #expect(accounted == 301)
    }

    /// At a stop everything held back is written, windows or not.
    @Test func everythingHeldBackIsWrittenAtTheEnd() {
        let sink = LogSink(style: .console, fileDescriptor: -1, rateLimitWindowSeconds: 10)
        _ = sink.format(level: .warning, message: "cabin pressure stale: no sample for 2 s", now: 1)
        #expect(sink.format(level: .warning, message: "cabin pressure stale: no sample for 2 s", now: 2) == nil)
        #expect(sink.formatHeldBack(now: 2.5, all: false) == nil)
        #expect(sink.formatHeldBack(now: 2.5, all: true)
                == "[2.500] warning: cabin pressure stale: no sample for 2 s (1 identical message suppressed, the last 0.5 s ago)\n")
        #expect(sink.formatHeldBack(now: 2.6, all: true) == nil)
    }

    /// A terminal's line says when in UTC, to the millisecond (always three digits, so that lines align); only a line
    /// formatted without a wall clock falls back to the seconds since boot.
    @Test func consoleLinesHaveTheUTCTime() {
        let sink = LogSink(style: .console, fileDescriptor: -1)
        let wall = UTCInstant(year: 2026, month: 11, day: 28, hour: 2, minute: 15, second: 25.123_4)
        #expect(sink.format(level: .notice, message: "hello", now: 12.345, wall: wall) == "[2026-11-28T02:15:25.123Z] notice: hello\n")
        let onTheSecond = UTCInstant(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        #expect(sink.format(level: .notice, message: "bye", now: 13, wall: onTheSecond) == "[2026-12-31T23:59:59.000Z] notice: bye\n")
        #expect(sink.format(level: .notice, message: "again", now: 14.5) == "[14.500] notice: again\n")
    }
}
