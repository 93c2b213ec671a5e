import ArgumentParser
import CockpitProtocol
import CockpitWeb
import Glibc

/// cockpit-web: the pilot's page on a phone or tablet, from cockpitd's control socket (docs/web.md).
@main
struct CockpitWebCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cockpit-web",
        abstract: "The pilot's page on the cabin Wi-Fi, served from cockpitd's control socket (docs/web.md).",
        discussion: "Under systemd socket activation (LISTEN_FDS) it serves the socket it is given and ignores --listen and --port.",
        version: "cockpit-web \(CockpitVersion.version)")

    @Option(name: .long, help: "cockpitd's control socket.")
    var socket: String = ControlSocketPaths.clientDefault
    @Option(name: .long, help: "Address to listen on.")
    var listen: String = "0.0.0.0"
    @Option(name: .long, help: "TCP port (0: the kernel picks one and it is printed).")
    var port: Int = 8080
    @Option(name: .long, help: .hidden)
    var testScript: String?
    @Option(name: .long, help: .hidden)
    var testReport: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port: 0…65535") }
    }

    func run() throws {
        SignalStop.block()
        signal(SIGPIPE, SIG_IGN)
        var script: String?
        if let testScript {
            guard let text = Self.read(testScript) else { throw ValidationError("--test-script: cannot read \(testScript)") }
            script = text
        }
        let server = WebServer(options: .init(socketPath: socket, testScript: script, testReportPath: testReport))
        let channel = try server.start(host: listen, port: port, boundSocket: Self.activatedSocket())
        // The bound address as a person writes it (`127.0.0.1:8080`, not NIO's `[IPv4]127.0.0.1/127.0.0.1:8080`),
        // then the URLs to open: this address's, or for a wildcard each of the box's addresses.
        let address = channel.localAddress?.ipAddress ?? listen, boundPort = channel.localAddress?.port ?? port
        print("cockpit-web \(CockpitVersion.version): serving on \(ServingURLs.hostPort(address: address, port: boundPort)), cockpitd at \(socket)")
        let interfaces = ServingURLs.isWildcard(address) ? ServingURLs.currentInterfaces() : []
        for line in ServingURLs.lines(listening: address, port: boundPort, interfaces: interfaces) { print("  " + line) }
        fflush(nil)   // every stream: stdout is a file or pipe under a test or systemd
        SignalStop.wait()
        try? channel.close().wait()
        server.stop()
    }

    /// The listening socket systemd passed (sd_listen_fds(3): LISTEN_PID is this process, the first one is fd 3).
    static func activatedSocket() -> Int32? {
        guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
              let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count >= 1 else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        return 3
    }

    static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Blocks until SIGINT or SIGTERM (both blocked in every thread first, then taken with sigwait).
enum SignalStop {
    static func wait() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        var received: Int32 = 0
        sigwait(&set, &received)
    }

    /// Called first thing, before any thread starts, so that the signals wait for sigwait.
    static func block() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
