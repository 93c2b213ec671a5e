public import CockpitCore
import PostgresNIO

/// The search-and-rescue questions, answered from the track history (and the latest table, which may be newer than
/// the sampled history).
extension RelayStore {
    public struct Sighting: Sendable {
        public var identifier: UInt32
        public var utc: UTCInstant
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        public var altitudeFeet: Double?
        public var relay: String
        public var distanceNauticalMiles: Double?
    }

    /// The last position stored for an identifier, or nil when it is not in the history.
    public func lastSeen(identifier: UInt32) async throws -> Sighting? {
        let id = Int32(identifier)
        let rows = try await client.query("""
            SELECT extract(epoch FROM report_time)::float8, latitude, longitude, altitude_feet, relay FROM (
                SELECT report_time, latitude, longitude, altitude_feet, relay FROM track_history WHERE identifier = \(id)
                UNION ALL
                SELECT report_time, latitude, longitude, altitude_feet, relay FROM latest_report WHERE identifier = \(id)
            ) AS s ORDER BY report_time DESC LIMIT 1
            """, logger: logger)
        for try await (time, lat, lon, alt, relay) in rows.decode((Double, Double, Double, Float?, String).self) {
            return Sighting(identifier: identifier, utc: UTCInstant(secondsSinceEpoch: time), latitudeDegrees: lat,
                            longitudeDegrees: lon, altitudeFeet: alt.map(Double.init), relay: relay, distanceNauticalMiles: nil)
        }
        return nil
    }

    /// Every aircraft whose track passed within `radiusNauticalMiles` of the point in the last `sinceSeconds`, with its
    /// last position inside that circle; nearest first.
    public func near(latitude: Double, longitude: Double, sinceSeconds: Double, radiusNauticalMiles: Double) async throws -> [Sighting] {
        let meters = radiusNauticalMiles * UnitConversions.metersPerNauticalMile
        let rows = try await client.query("""
            SELECT DISTINCT ON (identifier) identifier, extract(epoch FROM report_time)::float8, latitude, longitude,
                altitude_feet, relay, ST_Distance(geog, p.g)::float8
            FROM track_history, (SELECT ST_SetSRID(ST_MakePoint(\(longitude), \(latitude)), 4326)::geography AS g) AS p
            WHERE report_time > now() - make_interval(secs => \(sinceSeconds)) AND ST_DWithin(geog, p.g, \(meters))
            ORDER BY identifier, report_time DESC
            """, logger: logger)
        var out: [Sighting] = []
        for try await (id, time, lat, lon, alt, relay, distance) in rows.decode((Int32, Double, Double, Double, Float?, String, Double).self) {
            out.append(Sighting(identifier: UInt32(bitPattern: id), utc: UTCInstant(secondsSinceEpoch: time), latitudeDegrees: lat,
                                longitudeDegrees: lon, altitudeFeet: alt.map(Double.init), relay: relay,
                                distanceNauticalMiles: distance / UnitConversions.metersPerNauticalMile))
        }
        return out.sorted { ($0.distanceNauticalMiles ?? 0) < ($1.distanceNauticalMiles ?? 0) }
    }
}
