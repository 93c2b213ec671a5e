public import CockpitCore

/// Every value read back from a flight log is untrusted input: an SD card that lost power mid-write, a file copied
/// off a damaged card or edited by hand can hold any bytes, and SQLite returns whatever a column holds (±infinity,
/// 1e300, a year of 10¹⁷). Each value is checked against the range the writer can ever store; one outside it reads as
/// absent (and is counted), a row whose time is unusable is skipped (and counted). Nothing read back can trap a
/// conversion or spin a renderer.
public struct FlightLogStoredValues: Sendable, Equatable {
    /// Values outside their range, read as absent.
    public private(set) var refusedValues = 0
    /// Samples, flights and alerts skipped: their time is missing or outside 1999…2100.
    public private(set) var skippedRows = 0

    public init() {}

    /// The ranges the writer stores (the core's plausible ranges, in the log's units), with room for rounding.
    public enum Range {
        public static let utcSeconds = PlausibleRange.fixUTCSeconds
        public static let latitudeDegrees = PlausibleRange.latitudeDegrees
        public static let longitudeDegrees = PlausibleRange.longitudeDegrees
        /// GPS (−600…18,000 m) and cabin altitudes (140 hPa ≈ 46,000 ft; 1100 hPa ≈ −2,600 ft), feet.
        public static let altitudeFeet = -3_000.0...60_000.0
        public static let pressurePascals = PlausibleRange.cabinPressurePascals
        /// 515 m/s ≈ 1,001 kt.
        public static let groundSpeedKnots = 0.0...1_002.0
        public static let trackTrueDegrees = PlausibleRange.trackTrueDegrees
        /// ±150 m/s ≈ ±29,528 ft/min.
        public static let verticalSpeedFeetPerMinute = -29_600.0...29_600.0
        /// A fraction of the time of useful consciousness; the timer's dose grows past 1 only while a pilot stays high.
        public static let hypoxiaDose = 0.0...1_000.0
        /// Seconds above 10,000 ft in one flight: at most a year.
        public static let flightSeconds = 0.0...31_622_400.0
        public static let alertCount: ClosedRange<Int64> = 0...10_000_000
        public static let sampleCount: ClosedRange<Int64> = 0...10_000_000
    }

    /// The column's value when inside `range`; nil when NULL or refused.
    public mutating func value(_ row: SQLiteDatabase.Statement, _ column: Int32, _ range: ClosedRange<Double>) -> Double? {
        guard let value = row.double(column) else { return nil }
        guard value.isFinite, range.contains(value) else {
            refusedValues += 1
            return nil
        }
        return value
    }

    public mutating func integer(_ row: SQLiteDatabase.Statement, _ column: Int32, _ range: ClosedRange<Int64>) -> Int64? {
        guard let value = row.int64(column) else { return nil }
        guard range.contains(value) else {
            refusedValues += 1
            return nil
        }
        return value
    }

    /// A time column (UTC seconds since 1970); nil when NULL or refused.
    public mutating func utc(_ row: SQLiteDatabase.Statement, _ column: Int32) -> UTCInstant? {
        value(row, column, Range.utcSeconds).map(UTCInstant.init(secondsSinceEpoch:))
    }

    /// A value found implausible by a check of its own (a mean of stored sums).
    public mutating func refuse() { refusedValues += 1 }

    /// A row that cannot be used at all (its time is missing or refused).
    public mutating func skipRow() { skippedRows += 1 }

    public mutating func add(_ other: FlightLogStoredValues) {
        refusedValues += other.refusedValues
        skippedRows += other.skippedRows
    }

    /// What a reader says when it met damage: nil for a clean read.
    public var note: String? {
        guard refusedValues > 0 || skippedRows > 0 else { return nil }
        return "the flight log is damaged: \(refusedValues) stored value(s) out of range read as absent, \(skippedRows) row(s) "
            + "without a usable time skipped (check the file: sqlite3 FILE 'PRAGMA integrity_check')"
    }
}
