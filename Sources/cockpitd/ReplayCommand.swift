import ArgumentParser
import CockpitCore
import CockpitDaemon
import CockpitIO
import Dispatch
import Glibc
import Logging

struct Replay: ParsableCommand {
    /// Built once: ArgumentParser reads `configuration` many times while parsing any command line (17 help texts,
    /// ≈ 6.4 million instructions each, would be 3 % of a whole replay).
    static let settingsHelp = SettingsSchema.helpText(mode: .replay)

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            abstract: "Replay a recorded flight through the same core as live mode and print a summary.",
            usage: "cockpitd replay FILE [OPTIONS]",
            discussion: """
                FILE is a cockpitd recording, a plain `gpspipe -w` log, or an IGC flight log (B records become GPS \
                fixes; pressure altitude becomes barometer samples through the inverse standard atmosphere). At a \
                finite --speed the replay serves the control socket (so `cockpitctl watch` works against it) and, \
                with --traffic-port, receives traffic: two replays can be flown against each other on the bench.
                \(settingsHelp)
                """)
    }

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        if SettingsCommandLine.wantsHelp(arguments) {
            print(Replay.helpMessage())
            return
        }
        let file: String, settings: Settings
        do {
            (file, settings) = try SettingsCommandLine.replay(arguments)
        } catch {
            if case .usage(let message) = error { printError("cockpitd replay: \(message)") }
            printError("Run `cockpitd replay --help` for the options.")
            throw ExitCode(2)
        }
        let logger = settings[LoggingSettings.self].makeLogger(label: "cockpitd.replay")
        defer { logger.writeHeldBackRepeats(all: true) }   // a replay outruns the rate limit's window: nothing held back is lost
        let options = ReplayOptions(path: file, settings: settings)
        let started = MonotonicClock.now()
        let result: ReplayResult
        do {
            result = try ReplayRunner.run(options, logger: logger)
        } catch {
            logger.error("\(error)")
            throw ExitCode(1)
        }
        let elapsed = MonotonicClock.now().seconds(since: started)
        if result.skippedLines > 0 {
            logger.warning("\(result.skippedLines) unreadable lines skipped (last: \(result.lastSkipReason ?? "?"))")
        }
        if settings[ReplaySettings.self].json {
            print(JSONWriter.string(.object(result.summary)))
        } else {
            print(SummaryText.render(result.summary))
        }
        let span = result.summary["flightTimeSpanSeconds"]?.doubleValue ?? 0
        let events = result.summary["events"]?.doubleValue ?? 0
        let rate = elapsed > 0 ? Int(events / elapsed) : 0
        let factor = elapsed > 0 ? Int(span / elapsed) : 0
        logger.info("replayed in \(Int(elapsed * 1000)) ms: \(rate) events/s, \(factor)× real time")
        // Nothing in it decoded (a text file whose lines merely look like a gpspipe log): not a flight, and a bench
        // tester must not read "exit 0" as a good replay (it said 318 malformed reports and succeeded).
        let summary = result.summary
        let malformed = summary["malformedGpsReports"]?.doubleValue ?? 0
        if (summary["gpsReports"]?.doubleValue ?? 0) == malformed, (summary["baroSamples"]?.doubleValue ?? 0) == 0,
           (summary["otherEvents"]?.doubleValue ?? 0) == 0 {
            logger.error("\(file): no GPS report, barometer sample or traffic datagram could be read (\(Int(malformed)) malformed, \(result.skippedLines) lines skipped): not a flight")
            throw ExitCode(1)
        }
    }
}
