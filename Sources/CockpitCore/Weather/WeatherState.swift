/// A station's weather report as received over a data link (FIS-B today): a METAR or SPECI (an observation) or a TAF
/// (a forecast), the issue time written in it and the ground station that sent it.
public struct StationWeatherReport: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable { case metar = "METAR", speci = "SPECI", taf = "TAF" }

    public var kind: Kind
    /// The ICAO station (`KSJC`).
    public var station: String
    /// The issue time as written (`DDHHMMZ`); nil when the report states none (military TAFs give only their validity).
    public var issued: ReportIssueTime?
    /// The report's text as sent.
    public var text: String
    /// The transmitting ground station's position, WGS-84 degrees.
    public var groundStationLatitudeDegrees: Double
    public var groundStationLongitudeDegrees: Double

    public init(kind: Kind, station: String, issued: ReportIssueTime?, text: String,
                groundStationLatitudeDegrees: Double, groundStationLongitudeDegrees: Double) {
        self.kind = kind
        self.station = station
        self.issued = issued
        self.text = text
        self.groundStationLatitudeDegrees = groundStationLatitudeDegrees
        self.groundStationLongitudeDegrees = groundStationLongitudeDegrees
    }
}

/// `DDHHMMZ`: a day of the month and a UTC time, no month or year.
public struct ReportIssueTime: Sendable, Equatable, Hashable {
    public var day: Int
    public var hourUTC: Int
    public var minuteUTC: Int

    public init(day: Int, hourUTC: Int, minuteUTC: Int) {
        self.day = day
        self.hourUTC = hourUTC
        self.minuteUTC = minuteUTC
    }

    /// The latest instant with this day, hour and minute that is not after `now` by more than `toleranceSeconds`
    /// (a station's clock or the own GPS may be a little ahead): this month, else the month before, and so on
    /// back to three months (a day 31 is in no month between some).
    public func instant(before now: UTCInstant, toleranceSeconds: Double = 600) -> UTCInstant? {
        guard (1...31).contains(day), (0...23).contains(hourUTC), (0...59).contains(minuteUTC) else { return nil }
        let civil = now.civil
        var year = civil.year, month = civil.month
        for _ in 0..<4 {
            if day <= CivilCalendar.daysIn(month: month, year: year) {
                let candidate = UTCInstant(year: year, month: month, day: day, hour: hourUTC, minute: minuteUTC)
                if candidate.seconds(since: now) <= toleranceSeconds { return candidate }
            }
            month -= 1
            if month == 0 { month = 12; year -= 1 }
        }
        return nil
    }

    /// Minutes from `earlier` to this time read within one month of each other: positive when this one is later
    /// (`010005Z` is 10 minutes after `312355Z`), in −15 … +16 days.
    public func minutes(after earlier: ReportIssueTime) -> Int {
        let month = 31 * 24 * 60
        let here = ((day - 1) * 24 + hourUTC) * 60 + minuteUTC
        let there = ((earlier.day - 1) * 24 + earlier.hourUTC) * 60 + earlier.minuteUTC
        var difference = (here - there) % month
        if difference < 0 { difference += month }
        return difference > month / 2 ? difference - month : difference
    }
}

/// The newest METAR (or SPECI) and the newest TAF of every station heard, with when each was received. Pure: the
/// runner hands each decoded report with its monotonic time; ages are worked out against the GPS's UTC when the core
/// has it, else from the reception.
public struct WeatherState: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var report: StationWeatherReport
        public var receivedAt: MonotonicInstant
    }

    /// A METAR older than this is stale: said so, never used as current.
    public static let metarStaleAfterSeconds = 90.0 * 60

    public private(set) var metars: [String: Entry] = [:]
    public private(set) var tafs: [String: Entry] = [:]
    /// The most stations kept for each kind; past it the one received longest ago is dropped (a FIS-B station in
    /// Indiana sent METARs of 552 stations in 8 minutes).
    public let maximumStations: Int

    public struct Counters: Sendable, Equatable {
        /// Reports taken as their station's newest.
        public var kept = 0
        /// Reports older than the one already kept for their station (rebroadcasts of earlier ones are common).
        public var older = 0
        /// Stations dropped for the bound.
        public var dropped = 0
    }
    public private(set) var counters = Counters()

    public init(maximumStations: Int = 4_000) { self.maximumStations = max(1, maximumStations) }

    /// Takes a report heard at `time`: it becomes its station's newest unless the one kept was issued later. Of two
    /// with the same issue time, the one heard later is kept; a TAF without an issue time replaces the one kept.
    public mutating func receive(_ report: StationWeatherReport, at time: MonotonicInstant) {
        let entry = Entry(report: report, receivedAt: time)
        switch report.kind {
        case .metar, .speci: Self.take(entry, into: &metars, counters: &counters, maximumStations: maximumStations)
        case .taf: Self.take(entry, into: &tafs, counters: &counters, maximumStations: maximumStations)
        }
    }

    private static func take(_ entry: Entry, into table: inout [String: Entry], counters: inout Counters, maximumStations: Int) {
        let station = entry.report.station
        if let kept = table[station], let keptIssued = kept.report.issued, let issued = entry.report.issued,
           issued.minutes(after: keptIssued) < 0 {
            counters.older += 1
            return
        }
        if table[station] == nil && table.count >= maximumStations,
           let oldest = table.min(by: { ($0.value.receivedAt, $0.key) < ($1.value.receivedAt, $1.key) })?.key {
            table[oldest] = nil
            counters.dropped += 1
        }
        table[station] = entry
        counters.kept += 1
    }

    /// A kept report as the pilot should read it: its age (never less than the time since it was received) and
    /// whether it is stale.
    public struct Reading: Sendable, Equatable {
        public enum AgeBasis: String, Sendable, Equatable {
            /// From the issue time written in the report to the GPS's UTC.
            case issueTime = "issue time"
            /// From the reception (no UTC from GPS yet, or no issue time): the report is at least this old.
            case reception
        }
        public var report: StationWeatherReport
        public var ageSeconds: Double
        public var ageBasis: AgeBasis
        /// A METAR or SPECI older than 90 minutes. A TAF is never said stale here: its validity period decides.
        public var stale: Bool
    }

    public func metar(for station: String, now: MonotonicInstant, utc: UTCInstant?) -> Reading? {
        metars[station].map { reading($0, now: now, utc: utc) }
    }

    public func taf(for station: String, now: MonotonicInstant, utc: UTCInstant?) -> Reading? {
        tafs[station].map { reading($0, now: now, utc: utc) }
    }

    func reading(_ entry: Entry, now: MonotonicInstant, utc: UTCInstant?) -> Reading {
        let sinceReception = max(0, now.seconds(since: entry.receivedAt))
        var age = sinceReception
        var basis = Reading.AgeBasis.reception
        if let utc, let issued = entry.report.issued?.instant(before: utc) {
            age = max(0, utc.seconds(since: issued), sinceReception)
            basis = .issueTime
        }
        let stale = entry.report.kind != .taf && age > Self.metarStaleAfterSeconds
        return Reading(report: entry.report, ageSeconds: age, ageBasis: basis, stale: stale)
    }
}
