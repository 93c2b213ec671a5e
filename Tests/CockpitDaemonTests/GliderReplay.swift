import CockpitCore
@testable import CockpitDaemon
import CockpitTestSupport

/// One full-speed replay of a file as `cockpitd replay FILE --profile glider --airfields DATABASE --geoid GRID` runs
/// it (`ReplayRunner.run`, the README demo's settings), with the status as the control socket serves it every
/// `everySeconds` of replayed time and once at the end, and the replay's summary. Worked out once per file and spacing
/// in a test process: the suites that read the same replay (the panel at 80 columns, the panel and radar wording, the
/// printed summary) each check their own thing in it instead of replaying the flight again.
struct GliderReplay: Sendable {
    var statuses: [JSONValue]
    var summary: JSONObject

    static let database = Fixtures.directory + "/../../Data/airfields.sqlite"
    static let geoid = Fixtures.path("geoid/egm96_15.gtx")

    static func of(_ path: String, everySeconds: Double = 60) throws -> GliderReplay {
        try replays.value("\(everySeconds) \(path)") { try replay(path, everySeconds: everySeconds) }
    }

    private static let replays = SharedResults<String, GliderReplay>()

    private static func replay(_ path: String, everySeconds: Double) throws -> GliderReplay {
        var settings = Settings(mode: .replay)
        try settings.give("airfields", database)
        try settings.give("geoid", geoid)
        try settings.give("profile", "glider")
        var observed: [(snapshot: StatusSnapshot, outputs: JSONObject, now: MonotonicInstant)] = []
        var replayRunner: CoreRunner?
        var nextObservation: MonotonicInstant?
        func observe(_ runner: CoreRunner) {
            observed.append((runner.snapshot, runner.outputsJSON, runner.lastInputTime ?? .zero))
        }
        let result = try ReplayRunner.run(ReplayOptions(path: path, settings: settings), logger: quietLogger) { runner, time in
            replayRunner = runner
            let due = nextObservation ?? time.adding(seconds: everySeconds)
            if time > due {
                runner.advanceClock(to: due)
                observe(runner)
                nextObservation = due.adding(seconds: everySeconds)
            } else if nextObservation == nil {
                nextObservation = due
            }
        }
        if let replayRunner { observe(replayRunner) }
        let format = result.summary["format"]?.stringValue ?? "?"
        let info = DaemonInfo(mode: .replay(file: path, format: format, speed: 60), startedAt: .zero)
        return GliderReplay(statuses: observed.map { DaemonStatus.json(snapshot: $0.snapshot, info: info, outputs: $0.outputs, now: $0.now) },
                            summary: result.summary)
    }
}
