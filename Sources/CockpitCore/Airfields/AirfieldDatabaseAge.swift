/// How old the airfield database is, by GPS time: OurAirports' data changes daily, and an aid that names frequencies
/// and runways must say when its copy is past the refresh that charts follow (an AIRAC cycle, 28 days). The time is
/// the fix's UTC the core was given, never a clock read here.
public enum AirfieldDatabaseAge {
    public static let refreshDays = 28

    /// Whole days from the data date (`YYYY-MM-DD`, as the importer records it) to `utc`; nil when the date is not
    /// one ("unknown", an older file) or there is no time.
    public static func days(dataDate: String?, utc: UTCInstant?) -> Int? {
        guard let dataDate, let utc, let made = UTCInstant.parseISO8601(dataDate + "T00:00:00Z") else { return nil }
        return Int((utc.seconds(since: made) / 86_400).rounded(.down))
    }

    /// The status's database fields: the date, its age in days and whether it is past the refresh.
    public static func json(dataDate: String?, utc: UTCInstant?) -> JSONObject {
        let age = days(dataDate: dataDate, utc: utc)
        return ["databaseDate": .optional(dataDate), "databaseAgeDays": .optional(age),
                "databaseRefreshDays": .integer(Int64(refreshDays)), "databaseOutOfDate": .bool((age ?? 0) > refreshDays)]
    }
}
