import Testing
@testable import CockpitIO

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
        #expect(sink.format(level: .error, message: "another message", now: 101) != nil)
        #expect(sink.format(level: .error, message: "I2C read failed: EIO", now: 111)
                == "<3>I2C read failed: EIO (50 identical messages suppressed)\n")
    }

    @Test func consoleLinesHaveUptime() {
        let sink = LogSink(style: .console, fileDescriptor: -1)
        #expect(sink.format(level: .notice, message: "hello", now: 12.345) == "[12.345] notice: hello\n")
    }
}
