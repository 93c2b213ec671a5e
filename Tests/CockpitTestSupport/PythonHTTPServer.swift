import Glibc

/// Python's own `http.server` serving a folder on loopback: an HTTP/1.x server written by others (Content-Length,
/// `Date`, `Last-Modified`), the reference the `adsb-json` poller's hand-written GET is held to.
public final class PythonHTTPServer {
    public static let python = "/usr/bin/python3"
    public let port: UInt16
    public let directory: String
    private var pid: pid_t = 0

    public init(directory: String) {
        self.directory = directory
        let listener = loopbackTCPListener(backlog: 1)
        close(listener.descriptor)
        port = listener.port
    }

    deinit { stop() }

    /// Starts it and returns once it accepts connections (false after 5 s).
    @discardableResult
    public func start() -> Bool {
        pid = startProcess(Self.python, ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory])
        return waitFor(seconds: 5) { loopbackAccepts(port: port) }
    }

    public func stop() { terminateAndWait(&pid) }

    /// `http://127.0.0.1:PORT/` + `path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/" + path }
}
