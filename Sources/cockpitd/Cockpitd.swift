import ArgumentParser
import CMalloc
import CockpitCore
import Dispatch
import CockpitDaemon
import CockpitIO
import CockpitProtocol
import Glibc
import Logging

@main
struct Cockpitd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cockpitd",
        abstract: "Cockpit appliance daemon: GPS, cabin pressure, hypoxia timer, airfields, traffic. Not certified avionics.",
        discussion: """
            Without a subcommand, runs the live daemon. `cockpitd replay FILE` feeds a recorded flight \
            (a cockpitd recording, a gpspipe -w log or an IGC file) through the same core.
            """,
        version: CockpitVersion.full,
        subcommands: [Run.self, Replay.self, Baro.self, Airfields.self, DataCommands.self, SettingsTable.self, FlightLog.self, SourcesCommand.self],
        defaultSubcommand: Run.self)
}

struct Run: ParsableCommand {
    /// Built once: ArgumentParser reads `configuration` many times while parsing any command line (17 help texts,
    /// ≈ 6.4 million instructions each, would be 3 % of a whole replay).
    static let settingsHelp = SettingsSchema.helpText(mode: .run)

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            abstract: "Run the live daemon until SIGINT or SIGTERM.",
            usage: "cockpitd [run] [OPTIONS]",
            discussion: """
                Settings come from defaults, then the configuration file (every key is one of these options without \
                the dashes; see Systemd/cockpitd.conf), then the command line, which wins.
                \(settingsHelp)
                """)
    }

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        // glibc keeps 128 KiB spare at the top of every malloc arena after a free (M_TOP_PAD): the daemon's threads
        // have an arena each, and the airfield check's arena alone kept 128 KiB it had used once at start-up. With 0
        // an arena shrinks to what it holds; no extra system call on the per-fix path (strace over 1,070 fixes:
        // no brk, mmap, munmap, madvise or mprotect either way). It also keeps glibc's mmap threshold at 128 KiB: a
        // bigger block is mapped on its own and unmapped when freed. docs/performance.md, "Each thread's malloc arena".
        _ = mallopt(M_TOP_PAD, 0)
        if SettingsCommandLine.wantsHelp(arguments) {
            print(Run.helpMessage())
            return
        }
        let checking = arguments.contains("--check-config")
        let settings: Settings
        do {
            settings = try SettingsCommandLine.run(arguments)
        } catch {
            switch error {
            case .file(let message):
                printError("cockpitd: \(message)")
                throw ExitCode(1)
            case .usage(let message):
                printError("cockpitd: \(message)")
                if !checking { printError("Run `cockpitd run --help` for the options.") }
                throw ExitCode(checking ? 1 : 2)
            }
        }
        let degraded = SettingsBuilder.degradedFeatures(settings)
        if settings[ConfigSettings.self].check {
            // The daemon would start, but without these features: not OK for an installer.
            if !degraded.isEmpty {
                printError("cockpitd: " + degraded.joined(separator: "\n"))
                throw ExitCode(1)
            }
            print("configuration OK")
            for line in SettingsBuilder.effectiveListing(settings) { print(line) }
            return
        }
        let logger = settings[LoggingSettings.self].makeLogger(label: "cockpitd")
        for problem in degraded { logger.warning("\(problem)") }   // flies on without the feature
        let signals = SignalWaiter()
        let daemon: LiveDaemon
        do {
            daemon = try LiveDaemon(options: LiveOptions(settings: settings), logger: logger)
            try daemon.start(runsChecksOnCaller: true)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(1)
        }
        if getenv("COCKPITD_TEST_WEDGE_ON_SIGUSR2") != nil {
            // The watchdog's test hook, kept out of the settings (no option, no configuration key, not in --help):
            // SIGUSR2 wedges the event loop for 10 s, so a test can see the pings stop and SIGTERM still end it.
            signal(SIGUSR2, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
            source.setEventHandler { daemon.stallCoreForTesting(seconds: 10) }
            source.resume()
            Run.keepAlive = source
        }
        let gps = settings[GPSSettings.self].gpsd?.description ?? "nowhere (--gpsd none)"
        let baro = settings[BaroSettings.self].sourceBackend?.description ?? "nowhere (--baro none)"
        logger.notice("\(CockpitVersion.full) running (not certified avionics); GPS from \(gps), cabin pressure from \(baro)")
        // The airfield database's quick_check, here after READY=1 rather than on a thread of its own: its memory comes
        // from the main arena, and malloc_trim gives it back to the system at once. Freed in a short-lived thread's
        // arena, it stayed resident when a later thread took that arena over (docs/performance.md, "The quick_check's
        // memory"). A signal in the meantime is handled when the check is done (≈ 15–150 ms).
        daemon.runDeferredChecks()
        _ = malloc_trim(0)
        let number = signals.wait()
        logger.notice("stopping on signal \(number)")
        SystemdNotifier().stopping()
        // A wedged core or a stuck adapter thread must not keep the daemon from stopping: whatever is not done
        // within the grace period is abandoned (the recorder and flight log flush on their own threads first).
        // A thread of its own, not Dispatch: at the unit's task limit libdispatch sleeps in the caller until it gets
        // a worker thread, and the stop would hang there (reproducible with `prlimit --nproc=3`). Without a thread,
        // SIGALRM's default action ends the process at the same time instead (without the log line).
        do {
            try BackgroundThread.start(name: "stop-grace") {
                var left = UInt32(Run.stopGraceSeconds)
                while left > 0 { left = sleep(left) }   // a second SIGTERM delivered to this thread cuts a sleep short
                logger.critical("still stopping after \(Run.stopGraceSeconds) s (a stuck thread): exiting now")
                _exit(1)
            }
        } catch {
            signal(SIGALRM, SIG_DFL)
            alarm(UInt32(Run.stopGraceSeconds))
        }
        daemon.stop()
        logger.writeHeldBackRepeats(all: true)   // the last word on each sensor, even if the rate limit held it back
    }
}

extension Run {
    nonisolated(unsafe) static var keepAlive: (any DispatchSourceSignal)?
    /// How long a stop may take before the process exits regardless (systemd's TimeoutStopSec is longer).
    static let stopGraceSeconds = 5

}

/// Prints the settings table of docs/configuration.md from the declaration (the docs are checked against it).
struct SettingsTable: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "settings-table", abstract: "Print the settings table (Markdown).",
                                                    shouldDisplay: false)
    func run() throws { print(SettingsSchema.markdownTable()) }
}
