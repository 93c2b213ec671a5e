public import CockpitCore

/// Something the runner hands the core's results to: the traffic sender (`TrafficOutput`, "traffic"), the EFB outputs
/// (`GDL90Output`, "gdl90"; `FLARMOutput`, "flarm"), alert annunciation (`AlertAudioOutput`, "alerts-audio";
/// `AlertIndicatorOutput`, "alerts-gpio") and the flight log (`FlightLogOutput`, "flight-log", which `history`,
/// `flights` and `export` read). Each capability's settings group makes its outputs (`makeOutputs`); they are made
/// once at start for every group in `Capabilities.all` and see the same stream in live mode and in replay.
///
/// `handle` is called on the core's thread for every effect and, if `wantsTicks`, once per heartbeat tick. It must
/// return at once: an output that does I/O that may block hands the work to its own worker (`BoundedHandOff`) and
/// counts what it had to drop, so a slow, failing or blocked output never delays the core or the other outputs.
public protocol RunnerOutput: AnyObject {
    /// The key of this output's counters under `status.outputs`.
    var name: String { get }
    /// Whether `handle(.tick(_:))` should be called (a snapshot is made for it even in a full-speed replay).
    var wantsTicks: Bool { get }
    func handle(_ event: OutputEvent)
    /// Counters for the status (read on the core's thread; implementations keep them behind a lock if a worker
    /// updates them).
    func status() -> OutputStatus
    /// The input has ended (replay end, shutdown): flush and close. Called once, on the core's thread.
    func stop()
}

extension RunnerOutput {
    public var wantsTicks: Bool { false }
}

/// What an output is handed.
public enum OutputEvent: Sendable {
    /// An effect of the core, at the instant of the event that caused it.
    case effect(Effect, at: MonotonicInstant)
    /// The state after a heartbeat tick (1 Hz on the core's timeline: replay time in a replay).
    case tick(StatusSnapshot)
    /// The last state, once, when the input ends.
    case finished(StatusSnapshot)
}

/// An output's own counters, shown under `status.outputs.<name>`.
public struct OutputStatus: Sendable, Equatable {
    /// Items delivered (datagrams, frames, rows — the output says which in `unit`).
    public var sent: Int64 = 0
    /// Attempts that failed, with the last error.
    public var failed: Int64 = 0
    public var lastError: String?
    /// Items dropped because the output could not keep up (its hand-off queue was full).
    public var dropped: Int64 = 0
    public var unit: String
    /// Whatever else the output wants the pilot or installer to see (destinations, clients, file, state).
    public var details: JSONObject = [:]

    public init(unit: String) { self.unit = unit }

    public var json: JSONObject {
        var object: JSONObject = [
            "unit": .string(unit), "sent": .integer(sent), "failed": .integer(failed),
            "lastError": .optional(lastError), "dropped": .integer(dropped),
        ]
        for (key, value) in details.members { object[key] = value }
        return object
    }
}
