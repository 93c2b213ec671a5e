public import CockpitCore
import CockpitIO
import CockpitProtocol
import Logging
import CockpitWire

/// Adds to a decoded event before the core sees it, or emits events of its own before it (the terrain under a fix).
/// A capability's seam into the runner: the runner itself knows no capability.
public protocol EventEnricher: AnyObject {
    func enrich(_ event: inout Event, emit: (Event) -> Void)
}

/// The one place a runner is put together from the settings, for live mode and every replay alike: the decoder (every
/// source's, set up from the settings: `InputSources.configure`), the lookup services (airfields, reach), the terrain enricher, every capability's outputs and the recorder with its header.
/// What differs between the modes comes in `Parts`.
enum RunnerAssembly {
    struct Parts {
        var configuration: CoreConfiguration
        /// The airfield database's service (nil: none configured).
        var airfields: AirfieldService?
        /// The decoder the run starts with: a replay's carries the state its file recorded (`ReplaySource.makeDecoder`).
        var decoder = InputDecoder()
        var handOffPolicy: HandOffPolicy
        var replayFile: String?
        var commands = CommandInlet()
        /// What the recording's header says of the inputs.
        var recordingDevices: JSONObject
    }

    static func makeRunner(settings: Settings, parts: Parts, logger: Logger) throws(ReplayError) -> CoreRunner {
        var configuration = parts.configuration
        configuration.airfieldsUnavailableReason = parts.airfields?.openError
        var decoder = parts.decoder
        let runner: CoreRunner
        do {
            try InputSources.configure(&decoder, settings)
            runner = CoreRunner(configuration: configuration, decoder: decoder, logger: logger)
            let context = OutputContext(settings: settings, logger: logger, handOffPolicy: parts.handOffPolicy,
                                        replayFile: parts.replayFile, commands: parts.commands)
            for output in try Capabilities.makeOutputs(context) { runner.add(output) }
        } catch {
            throw .settings(error.message)
        }
        let flight = settings[FlightSettings.self]
        // Which data files this run found (installed, or the source tree's) or was given: said once at start.
        let airfieldsPath = settings[AirfieldSettings.self].resolvedPath
        logger.info("airfield database: \(airfieldsPath ?? "none (no --airfields given and none installed or in the source tree)")")
        logger.info("geoid: \(flight.geoidPath.map { "\($0) (MSL from ellipsoid heights where a source gives no MSL)" } ?? "none (heights above the ellipsoid stay HAE)")")
        if flight.terrainDirectory != nil || flight.geoidPath != nil {
            runner.enrichers.append(TerrainService(terrainDirectory: flight.terrainDirectory, geoidPath: flight.geoidPath))
        }
        runner.register(GlideService(airfields: parts.airfields, terrainDirectory: flight.terrainDirectory,
                                     memoryBudgetBytes: settings[GlideSettings.self].terrainCacheMiB << 20))
        if let airfields = parts.airfields {
            runner.register(airfields)
            if let error = airfields.openError { logger.warning("\(error)") }
        }
        let recording = settings[RecordingSettings.self]
        let continuing = parts.replayFile == nil ? "daemon" : "replay"
        if let path = recording.path {
            let header = RecordingFormat.Header(softwareVersion: CockpitVersion.full,
                                                devices: decoder.recordedState(addedTo: parts.recordingDevices), core: configuration,
                                                settings: SettingsSchema.recordedValues(settings))
            do {
                runner.recorder = try Recorder(path: path, header: header, sizeLimitBytes: recording.limitBytes) { reason in
                    logger.error("recording stopped, \(continuing) continues: \(reason)")
                }
            } catch { throw .recording(error) }
        }
        return runner
    }
}
