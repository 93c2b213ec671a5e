public import CockpitCore
public import Logging
import PostgresNIO

/// The scale-out store on PostgreSQL 15 + PostGIS 3 (docs/relay.md): the latest report per aircraft in an unlogged
/// table (batched upserts; lost on a crash, rebuilt within 30 s), the track history partitioned by day (kept for
/// `retentionDays`), and the device-key registry. The relay's hot path never waits for it: reports go out in batches
/// and every relay reads back what the others stored.
public final class RelayStore: Sendable {
    let client: PostgresClient
    /// Where the store connects (a failure's reason is found with a connection of its own: `RelayDatabaseProbe`).
    let url: RelayDatabaseURL
    public let relayName: String
    let logger: Logger
    /// How long an identifier's row keeps other keys out after its last report (`RelayConfiguration`).
    let identifierBindingSeconds: Double

    /// The latest report of an aircraft and the fingerprint of the key that authenticated it (nil on an open relay).
    public struct Latest: Sendable {
        public var report: TrafficPacket.Report
        public var keyFingerprint: UInt64?
        public init(report: TrafficPacket.Report, keyFingerprint: UInt64?) {
            self.report = report
            self.keyFingerprint = keyFingerprint
        }
    }

    /// An identifier another relay bound to a key, and how long it has been silent.
    public struct StoredBinding: Sendable {
        public var identifier: UInt32
        public var keyFingerprint: UInt64
        public var silentSeconds: Double
    }

    /// A URL's TLS is checked by `RelayDatabaseURL.tls()` before a store is made (the command refuses one it cannot
    /// set up); here a failure still never falls back to clear text: the connection is refused instead.
    public init(url: RelayDatabaseURL, relayName: String, logger: Logger, identifierBindingSeconds: Double = 3_600) {
        let tls = (try? url.tls()) ?? .require(.makeClientConfiguration())
        var configuration = PostgresClient.Configuration(host: url.host, port: url.port, username: url.user, password: url.password,
                                                         database: url.database, tls: tls)
        configuration.options.maximumConnections = 4
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.url = url
        self.relayName = relayName
        self.logger = logger
        self.identifierBindingSeconds = identifierBindingSeconds
    }

    /// Runs the connection pool; call from a task that lives as long as the store.
    public func run() async { await client.run() }

    // MARK: schema

    /// Each migration runs once, in order, under an advisory lock, so relays starting together do not race.
    static let migrations: [String] = [
        """
        CREATE EXTENSION IF NOT EXISTS postgis;
        CREATE UNLOGGED TABLE latest_report (
            identifier integer PRIMARY KEY,
            relay text NOT NULL,
            report_time timestamptz NOT NULL,
            seen_at timestamptz NOT NULL,
            flags smallint NOT NULL,
            latitude double precision NOT NULL,
            longitude double precision NOT NULL,
            altitude_feet real,
            ground_speed_knots real,
            track_degrees real,
            vertical_speed_fpm real,
            geog geography(Point, 4326) NOT NULL
        );
        CREATE INDEX latest_report_seen_at ON latest_report (seen_at);
        CREATE INDEX latest_report_geog ON latest_report USING gist (geog);
        CREATE TABLE track_history (
            identifier integer NOT NULL,
            report_time timestamptz NOT NULL,
            relay text NOT NULL,
            flags smallint NOT NULL,
            latitude double precision NOT NULL,
            longitude double precision NOT NULL,
            altitude_feet real,
            ground_speed_knots real,
            track_degrees real,
            geog geography(Point, 4326) NOT NULL
        ) PARTITION BY RANGE (report_time);
        CREATE INDEX track_history_identifier ON track_history (identifier, report_time DESC);
        CREATE INDEX track_history_geog ON track_history USING gist (geog);
        CREATE INDEX track_history_time ON track_history USING brin (report_time);
        CREATE TABLE device_key (
            name text PRIMARY KEY,
            key_hex text NOT NULL,
            added_at timestamptz NOT NULL DEFAULT now()
        );
        """,
        // The key that authenticated the row's report (first 8 bytes of the key's SHA-256): the identifier's binding,
        // shared between relays.
        """
        ALTER TABLE latest_report ADD COLUMN key_fingerprint bigint;
        """,
    ]
    static let lockKey: Int64 = 0x0C0C_4060   // pg_advisory_xact_lock key for schema and partition changes

    /// Creates or migrates the schema and makes sure the history has partitions for yesterday … tomorrow (UTC).
    public func prepare() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS relay_schema (version integer NOT NULL)", logger: logger)
            var version = 0
            for try await value in try await connection.query("SELECT coalesce(max(version), 0)::int8 FROM relay_schema", logger: logger).decode(Int.self) {
                version = value
            }
            for (index, sql) in Self.migrations.enumerated() where index >= version {
                for statement in sql.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
                    try await connection.query(PostgresQuery(unsafeSQL: String(statement)), logger: logger)
                }
                try await connection.query("INSERT INTO relay_schema (version) VALUES (\(index + 1))", logger: logger)
            }
        }
        try await ensurePartitions()
    }

    /// One partition per UTC day, created a day ahead; partitions older than `retentionDays` are dropped.
    public func ensurePartitions(retentionDays: Int? = nil) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
            var days: [(String, String, String)] = []
            let rows = try await connection.query("""
                SELECT to_char(d, 'YYYYMMDD'), to_char(d, 'YYYY-MM-DD'), to_char(d + interval '1 day', 'YYYY-MM-DD')
                FROM generate_series((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 1, interval '1 day') AS d
                """, logger: logger)
            for try await row in rows.decode((String, String, String).self) { days.append(row) }
            for (name, from, to) in days {
                try await connection.query(PostgresQuery(unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS track_history_\(name) PARTITION OF track_history
                    FOR VALUES FROM ('\(from) 00:00:00+00') TO ('\(to) 00:00:00+00')
                    """), logger: logger)
            }
            guard let retentionDays else { return }
            var old: [String] = []
            let partitions = try await connection.query("""
                SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
                WHERE p.relname = 'track_history'
                  AND c.relname < 'track_history_' || to_char((now() AT TIME ZONE 'UTC')::date - \(Int32(retentionDays)), 'YYYYMMDD')
                """, logger: logger)
            for try await name in partitions.decode(String.self) { old.append(name) }
            for name in old where name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }) {
                try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE \(name)"), logger: logger)
            }
        }
    }

    // MARK: hot-path batches

    /// One statement for the latest reports (one row per aircraft, newest wins) and one for the history rows. A row
    /// whose identifier another key holds (a row with another fingerprint, heard within `identifierBindingSeconds`)
    /// is left as it is: between relays, the first key to store an identifier keeps it.
    public func store(latest: [Latest], history: [TrafficPacket.Report]) async throws {
        if !latest.isEmpty {
            let c = Columns(latest.map(\.report))
            let fingerprints = latest.map { Int64(bitPattern: $0.keyFingerprint ?? 0) }
            try await client.query("""
                INSERT INTO latest_report AS l (identifier, relay, report_time, seen_at, flags, latitude, longitude,
                    altitude_feet, ground_speed_knots, track_degrees, vertical_speed_fpm, geog, key_fingerprint)
                SELECT u.i, \(relayName), to_timestamp(u.t), clock_timestamp(), u.f, u.la, u.lo, nullif(u.al, 'NaN'),
                    nullif(u.gs, 'NaN'), nullif(u.tr, 'NaN'), nullif(u.vs, 'NaN'),
                    ST_SetSRID(ST_MakePoint(u.lo, u.la), 4326)::geography, nullif(u.k, 0)
                FROM unnest(\(c.identifiers)::integer[], \(c.times)::float8[], \(c.flags)::smallint[], \(c.latitudes)::float8[],
                    \(c.longitudes)::float8[], \(c.altitudes)::real[], \(c.speeds)::real[], \(c.tracks)::real[], \(c.verticals)::real[],
                    \(fingerprints)::bigint[])
                    AS u(i, t, f, la, lo, al, gs, tr, vs, k)
                ON CONFLICT (identifier) DO UPDATE SET relay = excluded.relay, report_time = excluded.report_time,
                    seen_at = excluded.seen_at, flags = excluded.flags, latitude = excluded.latitude, longitude = excluded.longitude,
                    altitude_feet = excluded.altitude_feet, ground_speed_knots = excluded.ground_speed_knots,
                    track_degrees = excluded.track_degrees, vertical_speed_fpm = excluded.vertical_speed_fpm, geog = excluded.geog,
                    key_fingerprint = excluded.key_fingerprint
                WHERE (l.key_fingerprint IS NOT DISTINCT FROM excluded.key_fingerprint AND l.report_time <= excluded.report_time)
                    OR l.seen_at < clock_timestamp() - make_interval(secs => \(identifierBindingSeconds))
                """, logger: logger)
        }
        if !history.isEmpty {
            let c = Columns(history)
            try await client.query("""
                INSERT INTO track_history (identifier, report_time, relay, flags, latitude, longitude, altitude_feet,
                    ground_speed_knots, track_degrees, geog)
                SELECT u.i, to_timestamp(u.t), \(relayName), u.f, u.la, u.lo, nullif(u.al, 'NaN'), nullif(u.gs, 'NaN'),
                    nullif(u.tr, 'NaN'), ST_SetSRID(ST_MakePoint(u.lo, u.la), 4326)::geography
                FROM unnest(\(c.identifiers)::integer[], \(c.times)::float8[], \(c.flags)::smallint[], \(c.latitudes)::float8[],
                    \(c.longitudes)::float8[], \(c.altitudes)::real[], \(c.speeds)::real[], \(c.tracks)::real[])
                    AS u(i, t, f, la, lo, al, gs, tr)
                """, logger: logger)
        }
    }

    struct Columns {
        var identifiers: [Int32] = [], times: [Double] = [], flags: [Int16] = [], latitudes: [Double] = [], longitudes: [Double] = []
        var altitudes: [Float] = [], speeds: [Float] = [], tracks: [Float] = [], verticals: [Float] = []
        init(_ reports: [TrafficPacket.Report]) {
            for r in reports {
                identifiers.append(Int32(r.identifier))
                times.append(r.utc.secondsSinceEpoch)
                flags.append(Int16(r.flags.rawValue))
                latitudes.append(r.latitudeDegrees)
                longitudes.append(r.longitudeDegrees)
                altitudes.append(r.altitudeFeet.map(Float.init) ?? .nan)
                speeds.append(r.groundSpeedKnots.map(Float.init) ?? .nan)
                tracks.append(r.trackTrueDegrees.map(Float.init) ?? .nan)
                verticals.append(r.verticalSpeedFeetPerMinute.map(Float.init) ?? .nan)
            }
        }
    }

    /// A row another relay stored: the report, the key that authenticated it there, and its age.
    public struct Stored: Sendable {
        public var report: TrafficPacket.Report
        public var keyFingerprint: UInt64?
        public var ageSeconds: Double
    }

    /// Reports other relays stored since `sinceEpochSeconds` (database clock) less an overlap for transactions that
    /// committed late; returns them with their age and the new watermark.
    public func recent(sinceEpochSeconds: Double?, overlapSeconds: Double = 1) async throws -> (reports: [Stored], watermark: Double?) {
        let since = (sinceEpochSeconds ?? 0) - overlapSeconds
        let rows = try await client.query("""
            SELECT identifier, extract(epoch FROM report_time)::float8, flags, latitude, longitude, altitude_feet,
                ground_speed_knots, track_degrees, vertical_speed_fpm,
                extract(epoch FROM clock_timestamp() - seen_at)::float8, extract(epoch FROM seen_at)::float8, key_fingerprint
            FROM latest_report
            WHERE seen_at > to_timestamp(\(since)) AND relay <> \(relayName)
              AND seen_at > clock_timestamp() - interval '30 seconds'
            """, logger: logger)
        var out: [Stored] = []
        var watermark = sinceEpochSeconds
        for try await (id, time, flags, lat, lon, alt, gs, track, vs, age, seen, key) in rows.decode(
            (Int32, Double, Int16, Double, Double, Float?, Float?, Float?, Float?, Double, Double, Int64?).self) {
            let report = TrafficPacket.Report(flags: TrafficPacket.Flags(rawValue: UInt8(truncatingIfNeeded: flags)),
                                              identifier: UInt32(bitPattern: id), sequence: 0,
                                              utc: UTCInstant(secondsSinceEpoch: time), latitudeDegrees: lat, longitudeDegrees: lon,
                                              altitudeFeet: alt.map(Double.init), groundSpeedKnots: gs.map(Double.init),
                                              trackTrueDegrees: track.map(Double.init), verticalSpeedFeetPerMinute: vs.map(Double.init))
            out.append(Stored(report: report, keyFingerprint: key.map { UInt64(bitPattern: $0) }, ageSeconds: age))
            watermark = max(watermark ?? seen, seen)
        }
        return (out, watermark)
    }

    /// Identifiers bound to a key within `identifierBindingSeconds` (for a relay that starts while others run).
    public func bindings() async throws -> [StoredBinding] {
        let rows = try await client.query("""
            SELECT identifier, key_fingerprint, extract(epoch FROM clock_timestamp() - seen_at)::float8 FROM latest_report
            WHERE key_fingerprint IS NOT NULL AND seen_at > clock_timestamp() - make_interval(secs => \(identifierBindingSeconds))
            """, logger: logger)
        var out: [StoredBinding] = []
        for try await (id, key, silent) in rows.decode((Int32, Int64, Double).self) {
            out.append(StoredBinding(identifier: UInt32(bitPattern: id), keyFingerprint: UInt64(bitPattern: key), silentSeconds: silent))
        }
        return out
    }

    // MARK: device keys

    public func addKey(name: String, hex: String) async throws {
        try await client.query("""
            INSERT INTO device_key (name, key_hex) VALUES (\(name), \(hex))
            ON CONFLICT (name) DO UPDATE SET key_hex = excluded.key_hex
            """, logger: logger)
    }

    public func keys() async throws -> [(name: String, hex: String)] {
        var out: [(name: String, hex: String)] = []
        for try await (name, hex) in try await client.query("SELECT name, key_hex FROM device_key", logger: logger).decode((String, String).self) {
            out.append((name, hex))
        }
        return out
    }
}

/// A database operation that took longer than its deadline. PostgresNIO's pool waits for a connection for as long as
/// the server is unreachable, so without a deadline a relay started before its database would hang silently, and a
/// running one would count no failure through an outage.
public struct RelayStoreTimeout: Error, CustomStringConvertible {
    public var operation: String
    public var seconds: Double
    public var description: String { "\(operation): no answer from the database within \(Int(seconds)) s" }
}

extension RelayStore {
    /// Runs `body`, cancelling it after `seconds` (the pool gives up waiting for a connection when cancelled).
    public static func withDeadline<T: Sendable>(_ seconds: Double, _ operation: String,
                                                 _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                throw RelayStoreTimeout(operation: operation, seconds: seconds)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw RelayStoreTimeout(operation: operation, seconds: seconds) }
            return first
        }
    }
}
