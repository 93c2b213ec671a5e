/// Glider polars by type: `Data/glider-polars.csv` (docs/glider-polars.md gives every figure's source), embedded here
/// as text and read by `init(csv:)`. The table has no rows yet (no primary source was reachable for any type): every
/// type is then unknown, and reach says so and flies the glider profile's ASK 21 polar.
public struct GliderPolarTable: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var type: String
        public var aliases: [String]
        public var referenceMassKilograms: Double?
        public var polar: GlidePolar
    }

    public private(set) var entries: [Entry] = []
    /// Rows that could not be read (wrong column count, a figure that is not a number, three points that make no polar).
    public private(set) var refusedRows = 0

    /// The columns of `Data/glider-polars.csv`, in order.
    public static let columns = ["type", "aliases", "reference_mass_kg", "wing_area_m2", "empty_mass_kg", "max_mass_kg", "max_water_litres",
                                 "v1_kmh", "w1_ms", "v2_kmh", "w2_ms", "v3_kmh", "w3_ms", "stated_best_ld", "stated_best_ld_kmh", "source_keys"]

    /// The table's text without its comment lines: the header row and the data rows (`Data/glider-polars.csv`).
    public static let embeddedCSV = columns.joined(separator: ",") + "\n"

    public static let embedded = GliderPolarTable(csv: embeddedCSV)

    /// Reads the table: `#` lines are comments, the first other line the header, then one row a type (aliases separated
    /// by `;`). No quoting: no field holds a comma.
    public init(csv: String) {
        var header = true
        for line in csv.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix("#") {
            if header { header = false; continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
            guard fields.count == Self.columns.count else { refusedRows += 1; continue }
            let numbers = (7...12).map { Double(fields[$0]) }
            guard numbers.allSatisfy({ $0 != nil }), let polar = GlidePolar(points: [
                GlidePolar.Point(speedKilometersPerHour: numbers[0]!, sinkMetersPerSecond: numbers[1]!),
                GlidePolar.Point(speedKilometersPerHour: numbers[2]!, sinkMetersPerSecond: numbers[3]!),
                GlidePolar.Point(speedKilometersPerHour: numbers[4]!, sinkMetersPerSecond: numbers[5]!),
            ]) else { refusedRows += 1; continue }
            entries.append(Entry(type: fields[0], aliases: fields[1].split(separator: ";").map { String($0) },
                                 referenceMassKilograms: Double(fields[2]), polar: polar))
        }
    }

    /// The entry whose type or an alias matches `name`, ignoring case, spaces, hyphens and dots ("Discus 2",
    /// "DISCUS-2", "discus2" are one).
    public func entry(named name: String) -> Entry? {
        let key = Self.key(name)
        guard !key.isEmpty else { return nil }
        return entries.first { Self.key($0.type) == key || $0.aliases.contains { Self.key($0) == key } }
    }

    static func key(_ name: String) -> String {
        String(name.lowercased().filter { !" -._/".contains($0) })
    }
}
