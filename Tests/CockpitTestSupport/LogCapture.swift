import Glibc
import CockpitIO
public import Logging

/// A logger that writes as the daemon's own does (`JournalLogHandler` on a console-style `LogSink`: the line format, the
/// rate limit, the held-back repeats) into a file, so a test that runs a command's work in this process reads the
/// lines `cockpitd` would print on its standard error.
public final class LogCapture {
    public let logger: Logger
    private let path: String
    private let descriptor: Int32

    public init(level: Logger.Level = .info) {
        path = temporaryPath(".log")
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let sink = LogSink(style: .console, fileDescriptor: descriptor)
        var logger = Logger(label: "cockpitd") { JournalLogHandler(label: $0, sink: sink, level: level) }
        logger.logLevel = level
        self.logger = logger
    }

    /// Every line written, the held-back repeats last, as a command writes them when it ends.
    public func finish() -> String {
        logger.writeHeldBackRepeats(all: true)
        return readFile(path)
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
