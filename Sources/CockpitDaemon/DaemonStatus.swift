public import CockpitCore
import CockpitWire
public import CockpitIO
import CockpitProtocol

/// What the daemon adds to the core's snapshot: who it is, what mode it runs in, the recorder and
/// the control server. The control socket serves this composed object.
public struct DaemonInfo: Sendable {
    public enum Mode: Sendable, Equatable {
        case live
        case replay(file: String, format: String, speed: Double)
    }
    public var mode: Mode
    public var startedAt: MonotonicInstant
    public var recording: Recorder.Status?
    public var control: ControlServer.Counters?
    public var controlClients: Int?
    /// Arrival → applied by the core, per line source (`RawInput.line`), for the sources that sent a line.
    public var inputLatency: [String: LatencyRecorder] = [:]
    public var replayFinished = false
    /// The data files in use (`Settings.dataFilesInUse`), shown as `files`.
    public var files: JSONObject = [:]
    /// The data sets the box keeps current, shown as the status's `data` section (live mode).
    public var data: DataStatus?
    /// The airfield database's data date as the service knows it (the core's `airfields` section has it only after
    /// the first lookup).
    public var airfieldsDataDate: String?

    public init(mode: Mode, startedAt: MonotonicInstant) {
        self.mode = mode
        self.startedAt = startedAt
    }

    public func json(now: MonotonicInstant) -> JSONObject {
        var object: JSONObject = [
            "software": .string(CockpitVersion.full),
            "protocolVersion": .integer(ControlProtocol.version),
            "uptimeSeconds": .number(now.seconds(since: startedAt), decimals: 1),
        ]
        switch mode {
        case .live:
            object["mode"] = .string("live")
        case .replay(let file, let format, let speed):
            object["mode"] = .string("replay")
            object["replay"] = .object(["file": .string(file), "format": .string(format),
                                        "speed": speed.isFinite ? .number(speed) : .string("max"),
                                        "finished": .bool(replayFinished)])
        }
        if !files.members.isEmpty { object["files"] = .object(files) }
        if let recording {
            object["recording"] = .object([
                "path": .string(recording.path), "active": .bool(recording.active),
                "events": .integer(recording.eventsRecorded), "bytesWritten": .integer(recording.bytesWritten),
                "stoppedReason": .optional(recording.stoppedReason),
            ])
        } else {
            object["recording"] = .null
        }
        var latencies = JSONObject()
        for (source, latency) in inputLatency.sorted(by: { $0.key < $1.key }) where latency.count > 0 {
            func micro(_ q: Double) -> JSONValue { .number(latency.quantileNanoseconds(q).map { Double($0) / 1000 }, decimals: 0) }
            latencies[source] = .object([
                WireSources.isLineSource(source) ? "lines" : "records": .integer(latency.count), "p50Microseconds": micro(0.5), "p99Microseconds": micro(0.99),
                "maxMicroseconds": .number(Double(latency.maximumNanoseconds) / 1000, decimals: 0),
            ])
        }
        object["inputLatency"] = .object(latencies)
        if let control {
            object["control"] = .object([
                "clients": .optional(controlClients),
                "connections": .integer(Int64(control.accepted)),
                "requests": .integer(Int64(control.requests)),
                "errorAnswers": .integer(Int64(control.errorAnswers)),
                "badRequests": .integer(Int64(control.badRequests)),
                "oversizedRequests": .integer(Int64(control.oversizedRequests)),
                "refusedTooManyClients": .integer(Int64(control.refusedTooMany)),
                "closedForNewClients": .integer(Int64(control.evictedForNewClient)),
                "droppedWatchFrames": .integer(Int64(control.droppedWatchFrames)),
                "stuckClientsDisconnected": .integer(Int64(control.stuckDisconnects)),
                "idleClientsDisconnected": .integer(Int64(control.idleDisconnects)),
            ])
        }
        return object
    }
}

public enum DaemonStatus {
    /// The full status object: core sections first, then the outputs' counters, then `daemon`.
    public static func json(snapshot: StatusSnapshot, info: DaemonInfo, outputs: JSONObject, now: MonotonicInstant) -> JSONValue {
        var object = snapshot.json
        object["outputs"] = .object(outputs)
        if let data = info.data {
            object["data"] = data.json(now: now, databaseDate: object["airfields"]?["databaseDate"]?.stringValue ?? info.airfieldsDataDate)
        }
        object["daemon"] = .object(info.json(now: now))
        return .object(object)
    }
}
