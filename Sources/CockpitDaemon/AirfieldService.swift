import CockpitCore
public import CockpitIO

/// Answers the core's airfield lookups from the on-board database, and the control socket's `nearest` and `airfield`
/// requests. Used on the daemon's loop only.
public final class AirfieldService {
    public let store: AirfieldStore?
    public let openError: String?

    public init(path: String?) {
        guard let path else {
            store = nil
            openError = "no airfield database configured (--airfields FILE)"
            return
        }
        do {
            store = try AirfieldStore(path: path)
            openError = nil
        } catch {
            store = nil
            openError = error.description
        }
    }

    func answer(_ lookup: AirfieldLookup) -> AirfieldsUpdate {
        guard let store else {
            return AirfieldsUpdate(lookup: lookup, nearest: [], best: nil, databaseAvailable: false, error: openError)
        }
        do {
            let nearest = try store.nearest(latitude: lookup.latitudeDegrees, longitude: lookup.longitudeDegrees, filter: lookup.nearestFilter,
                                            declinationDegrees: lookup.declinationDegrees, groundSpeedKnots: lookup.groundSpeedKnots)
            let best = try store.nearest(latitude: lookup.latitudeDegrees, longitude: lookup.longitudeDegrees, filter: lookup.bestFilter,
                                         declinationDegrees: lookup.declinationDegrees, groundSpeedKnots: lookup.groundSpeedKnots).first
            return AirfieldsUpdate(lookup: lookup, nearest: nearest, best: best, databaseAvailable: true, error: nil)
        } catch {
            return AirfieldsUpdate(lookup: lookup, nearest: [], best: nil, databaseAvailable: false, error: error.description)
        }
    }
}
