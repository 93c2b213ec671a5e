import CockpitIO
import Glibc

/// The airfield database kept current: OurAirports' three CSVs fetched (conditionally) into a staging folder beside
/// the live database, imported into a new file with the importer, checked, and renamed over the live file.
public struct AirfieldUpdate: Sendable {
    public struct Sources: Sendable {
        public var airports: String
        public var runways: String
        public var frequencies: String
        /// OurAirports' published files (ourairports.com/data links to them).
        public static let ourAirports = Sources(
            airports: DataUpdateKeys.airportsURL, runways: DataUpdateKeys.runwaysURL, frequencies: DataUpdateKeys.frequenciesURL)
        public init(airports: String, runways: String, frequencies: String) {
            self.airports = airports
            self.runways = runways
            self.frequencies = frequencies
        }
        var byFile: [(file: String, url: String)] {
            [("airports.csv", airports), ("runways.csv", runways), ("airport-frequencies.csv", frequencies)]
        }
    }

    public enum Outcome: Sendable, Equatable {
        /// Every CSV answered 304 and the database is in place.
        case current(dataDate: String)
        /// A new database is live.
        case installed(airports: Int, dataDate: String)
    }

    public var databasePath: String
    public var sources: Sources
    public var limits: FetchLimits
    /// Rows a first database (none before it) must have at least.
    public var minimumAirports = 20_000
    /// A new database's rows as a share of the previous one's: outside this band it is refused.
    public var plausibleShare: ClosedRange<Double> = 0.8...1.5

    public init(databasePath: String, sources: Sources = .ourAirports, limits: FetchLimits = FetchLimits()) {
        self.databasePath = databasePath
        self.sources = sources
        self.limits = limits
    }

    /// The staging folder beside the live database: the CSVs as last accepted, and the next ones while they arrive.
    public var stagingDirectory: String { databasePath + ".update" }

    public func run(fetcher: HTTPFetcher, progress: UpdateProgress) -> Result<Outcome, UpdateFailure> {
        let staging = stagingDirectory, incoming = staging + "/incoming"
        for directory in [staging, incoming] {
            if let problem = Durable.makeDirectory(directory) { return .failure(.file(problem)) }
        }
        // What a run cut off (power, kill -9) left in incoming/ was never accepted: it must not be taken for new.
        discard(incoming)
        var state = FetchState(path: staging + "/fetch-state")
        let liveExists = Durable.exists(databasePath)
        progress.begin(files: 3)
        // Fetch each CSV that changed into incoming/; the accepted copies stay in the staging folder.
        var fetched: [(file: String, url: String, validators: Validators)] = []
        for (file, url) in sources.byFile {
            let accepted = staging + "/" + file
            let validators = liveExists && Durable.exists(accepted) ? state[url] : nil
            let request = FetchRequest(url: url, partPath: incoming + "/" + file + ".part", validators: validators,
                                       maximumBytes: limits.maximumFileBytes, deadlineSeconds: limits.deadlineSeconds)
            let result = fetcher.fetch(request, tries: limits.tries, backoffSeconds: limits.backoffSeconds) { failure, wait in
                progress.say("airfields: \(file): \(failure); trying again in \(wait) s")
            }
            switch result {
            case .failure(let failure):
                discard(incoming)
                return .failure(.fetch(file: file, failure))
            case .success(.absent):
                discard(incoming)
                return .failure(.fetch(file: file, .status(404)))
            case .success(.notModified):
                progress.fileDone(bytes: 0)
                progress.say("airfields: \(file): not modified")
            case .success(.fetched(let bytes, let newValidators)):
                guard rename(request.partPath, incoming + "/" + file) == 0 else {
                    discard(incoming)
                    return .failure(.file("cannot rename \(request.partPath): \(String(cString: strerror(errno)))"))
                }
                progress.fileDone(bytes: bytes)
                progress.say("airfields: \(file): \(bytes) bytes")
                fetched.append((file, url, newValidators))
            }
        }
        if fetched.isEmpty, let store = try? AirfieldStore(path: databasePath, verify: false) {
            return .success(.current(dataDate: store.dataDate))
        }
        // Import from the new CSVs where there are some, the accepted ones elsewhere.
        let source = staging + "/source"
        if let problem = Durable.makeDirectory(source) { return .failure(.file(problem)) }
        for (file, _) in sources.byFile {
            let isNew = Durable.exists(incoming + "/" + file)
            unlink(source + "/" + file)
            // Links relative to source/, so that a relative database path works as well as an absolute one.
            guard isNew || Durable.exists(staging + "/" + file),
                  symlink(isNew ? "../incoming/" + file : "../" + file, source + "/" + file) == 0 else {
                discard(incoming)
                return .failure(.file("no copy of \(file) to import"))
            }
        }
        let dataDate = Self.dataDate(lastModified: fetched.first(where: { $0.file == "airports.csv" })?.validators.lastModified
                                     ?? state[sources.airports]?.lastModified)
        let candidate = staging + "/airfields.sqlite"
        let checked = importAndCheck(source: source, output: candidate, dataDate: dataDate)
        guard case .success(let airports) = checked else {
            unlink(candidate)
            discard(incoming)
            if case .failure(let failure) = checked { return .failure(failure) }
            return .failure(.file("import failed"))
        }
        guard Durable.syncFile(candidate) else { return .failure(.file("cannot flush \(candidate)")) }
        if let problem = Durable.replace(candidate, with: databasePath) { return .failure(.file(problem)) }
        // The new database is live: its CSVs become the accepted copies, and their validators are kept.
        for (file, url, validators) in fetched {
            if Durable.replace(incoming + "/" + file, with: staging + "/" + file) == nil { state[url] = validators }
        }
        if let problem = state.save() { progress.say("airfields: \(problem) (the next update fetches everything again)") }
        return .success(.installed(airports: airports, dataDate: dataDate))
    }

    /// Imports `source` into `output` and checks it against the live database; the airports it holds.
    func importAndCheck(source: String, output: String, dataDate: String) -> Result<Int, UpdateFailure> {
        var options = AirfieldImporter.Options()
        options.dataDate = dataDate
        let report: AirfieldImporter.Report
        do { report = try AirfieldImporter.run(directory: source, output: output, options: options) } catch {
            return .failure(.check("the import failed: \(error)"))
        }
        let unparsable = report.skipped["airports: unparsable", default: 0] + report.skipped["airports: short row", default: 0]
        if unparsable * 100 > report.airportsImported {
            return .failure(.check("\(unparsable) airport rows could not be read (more than 1 % of \(report.airportsImported))"))
        }
        let counts = [("airports", report.airportsImported), ("runways", report.runwaysImported),
                      ("frequencies", report.frequenciesImported)]
        if let previous = try? AirfieldStore(path: databasePath, verify: false) {
            for (table, count) in counts {
                guard let before = Int(previous.meta[table] ?? ""), before > 0 else { continue }
                let share = Double(count) / Double(before)
                if !plausibleShare.contains(share) {
                    return .failure(.check("\(count) \(table) against \(before) in the live database "
                                           + "(\(Int((share * 100).rounded())) %, outside \(Int(plausibleShare.lowerBound * 100))–\(Int(plausibleShare.upperBound * 100)) %)"))
                }
            }
        } else if report.airportsImported < minimumAirports {
            return .failure(.check("\(report.airportsImported) airports, fewer than the \(minimumAirports) a first database needs"))
        }
        if let problem = Self.integrityProblem(path: output) { return .failure(.check("integrity_check: \(problem)")) }
        do { _ = try AirfieldStore(path: output, verify: false) } catch {
            return .failure(.check("the new file does not open: \(error)"))
        }
        return .success(report.airportsImported)
    }

    /// SQLite's full `PRAGMA integrity_check`; nil when it says ok.
    static func integrityProblem(path: String) -> String? {
        do {
            let database = try SQLiteDatabase(path: path, mode: .immutable)
            let check = try database.prepare("PRAGMA integrity_check")
            var findings: [String] = []
            while try check.step() { findings.append(check.text(0) ?? "") }
            return findings == ["ok"] ? nil : findings.prefix(3).joined(separator: "; ")
        } catch {
            return error.description
        }
    }

    /// The data date recorded in the file: the day airports.csv was published (its Last-Modified), else unknown.
    static func dataDate(lastModified: String?) -> String {
        guard let lastModified, let date = HTTPDate.day(lastModified) else { return "unknown" }
        return date
    }

    private func discard(_ incoming: String) {
        for (file, _) in sources.byFile {
            unlink(incoming + "/" + file)
            unlink(incoming + "/" + file + ".part")
        }
    }
}

/// Limits every fetch is held to.
public struct FetchLimits: Sendable {
    public var maximumFileBytes = 64 << 20
    public var deadlineSeconds = 300.0
    public var tries = 3
    /// The first wait between tries; it doubles each time (2, 4, 8 s).
    public var backoffSeconds = 2.0
    public init() {}
}

public enum UpdateFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case fetch(file: String, FetchFailure)
    case check(String)
    case file(String)
    case refused(String)
    public var description: String {
        switch self {
        case .fetch(let file, let failure): "\(file): \(failure)"
        case .check(let text): "refused: \(text)"
        case .file(let text): text
        case .refused(let text): text
        }
    }
}

/// An HTTP date (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`) as its day, YYYY-MM-DD.
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static func day(_ text: String) -> String? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, let day = Int(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]), (1990...9999).contains(year) else {
            return nil
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month + 1))-\(two(day))"
    }
}
