import CockpitDaemon
import CockpitTestSupport

/// A live daemon on `socketPath` with the shipped airfield database (Data/airfields.sqlite) and no GPS, started:
/// what cockpitctl's airfield commands are tried against.
func startDaemonWithShippedAirfields(socketPath: String) throws -> LiveDaemon {
    var options = LiveOptions(socketPath: socketPath, gpsd: nil)
    options.settings[AirfieldSettings.self].path = Fixtures.directory + "/../../Data/airfields.sqlite"
    let daemon = try LiveDaemon(options: options, logger: quietLogger)
    try daemon.start()
    return daemon
}
