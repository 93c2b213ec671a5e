import Glibc
public import NIOCore
public import CockpitWire

/// A line-oriented serial device (a FLARM's data port on /dev/ttyUSB0 or a UART): opened raw at its baud rate on a
/// thread of its own, read with blocking reads (a serial line has nothing for an event loop to win), every line handed
/// verbatim to the loop as `RawInput.line` of its source, with the instant its chunk arrived. When the device is
/// missing or goes (unplugged), the source says so (`RawInput.lineSourceLink`) and opens it again once a second.
public final class SerialLineSource: Sendable {
    public let source: String
    public let path: String
    public let baudRate: Int
    private let maximumLineBytes: Int
    private let loop: any EventLoop
    private let deliver: @Sendable (TimedInput) -> Void
    private let stopSignal = StopSignal()

    /// The rates a FLARM data port is set to (FLARM's default is 19200).
    static let baudRates: [Int: speed_t] = [
        4800: speed_t(B4800), 9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400),
        57600: speed_t(B57600), 115200: speed_t(B115200),
    ]
    public static let reopenSeconds = 1.0

    public init(source: String, path: String, baudRate: Int, maximumLineBytes: Int, loop: any EventLoop,
                deliver: @escaping @Sendable (TimedInput) -> Void) {
        self.source = source
        self.path = path
        self.baudRate = baudRate
        self.maximumLineBytes = maximumLineBytes
        self.loop = loop
        self.deliver = deliver
    }

    public func start() {
        do {
            try BackgroundThread.start(name: "\(source)-serial") { [self] in run() }
        } catch {
            submit([.lineSourceLink(source: source, .disconnected(reason: error.description))])
        }
    }

    /// Asks the thread to stop; it notices within 200 ms.
    public func stop() { stopSignal.stop() }

    private var isStopped: Bool { stopSignal.isStopped }

    private func submit(_ inputs: [RawInput]) {
        guard !inputs.isEmpty else { return }
        let time = MonotonicClock.now(), deliver = self.deliver
        loop.execute { for input in inputs { deliver(TimedInput(time: time, input: input)) } }
    }

    private func run() {
        var reportedMissing = false
        while !isStopped {
            let fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
            if fd < 0 {
                if !reportedMissing {
                    submit([.lineSourceLink(source: source, .disconnected(reason: "cannot open \(path): \(String(cString: strerror(errno)))"))])
                    reportedMissing = true
                }
                stopSignal.wait(seconds: Self.reopenSeconds)
                continue
            }
            if let problem = configure(fd) {
                close(fd)
                submit([.lineSourceLink(source: source, .disconnected(reason: "cannot set up \(path): \(problem)"))])
                reportedMissing = true
                stopSignal.wait(seconds: Self.reopenSeconds)
                continue
            }
            submit([.lineSourceLink(source: source, .connected(endpoint: "\(path) at \(baudRate) baud"))])
            reportedMissing = false
            let reason = readLines(fd)
            close(fd)
            if isStopped { break }
            submit([.lineSourceLink(source: source, .disconnected(reason: reason))])
            reportedMissing = true
            stopSignal.wait(seconds: Self.reopenSeconds)
        }
    }

    /// Raw mode (no echo, no line editing, 8N1, no flow control) at the baud rate; nil when done.
    private func configure(_ fd: Int32) -> String? {
        guard let speed = Self.baudRates[baudRate] else { return "unsupported baud rate \(baudRate)" }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return "not a serial device (\(String(cString: strerror(errno))))" }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Reads until the device goes, an error, or stop; returns why it ended.
    private func readLines(_ fd: Int32) -> String {
        var framer = LineFramer(maximumLineBytes: maximumLineBytes)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let source = self.source
        while !isStopped {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready < 0 { if errno == EINTR { continue }; return "poll failed: \(String(cString: strerror(errno)))" }
            if ready == 0 { continue }
            if poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && poller.revents & Int16(POLLIN) == 0 {
                return "the device went away (unplugged?)"
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return "the device went away (unplugged?)" }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return "read failed: \(String(cString: strerror(errno)))"
            }
            var lines: [RawInput] = []
            framer.append(buffer[0..<count]) { lines.append(.line(source: source, text: $0)) }
            submit(lines)
        }
        return "stopped"
    }
}
