public import CockpitCore
public import CockpitIO
import Glibc
import Synchronization
public import Logging

/// Answers the core's airfield lookups from the on-board database, and the control socket's `nearest` and `airfield`
/// requests. Used on the daemon's loop only.
public final class AirfieldService: LookupService {
    var openedStore: AirfieldStore?
    /// Why the database could not be opened (nil when it opened, also while its deferred check still runs).
    public internal(set) var openError: String?
    /// The deferred quick_check of a live daemon (nil when the file was checked as it opened, or did not open).
    public let deferredCheck: DeferredCheck?
    var checkVerdict: String??
    /// What is needed to notice and reopen a replaced file (`AirfieldService+Reload.swift`).
    var reload: Reload

    /// `checkInBackground`: open without SQLite's quick_check (≈ 200 million instructions, which would be most of the
    /// start-up before READY=1) and leave it to `deferredCheck`, which the daemon runs after start-up: on cockpitd's
    /// main thread, or on a thread of its own (`DeferredCheck`). The first use of the store (a lookup, a control
    /// request) waits for its verdict if it has not come yet — nothing is ever answered from an unchecked file — and a
    /// file that fails is dropped with the problem as its error. Replay checks when it opens (false).
    /// `cacheDirectory`: where the index may be kept as a mapped file (`AirfieldStore.cacheDirectory`).
    /// `logger`: the database's verdict (sound, with its size and data date, or damaged and why) and where its index
    /// came from are logged once each — a file the deferred check rejects is otherwise only in the status.
    /// `preferred`: files to switch to as soon as one appears, best first (live mode with the default search path: the
    /// entries ahead of `path`, or all of them when none existed at start).
    public init(path: String?, preferred: [String] = [], checkInBackground: Bool = false, cacheDirectory: String? = nil,
                logger: Logger? = nil) {
        // The live daemon (checking in the background) picks up a replaced file; a replay keeps the file it started
        // with, so that it answers the same all through.
        reload = Reload(path: checkInBackground ? path : nil, cacheDirectory: cacheDirectory, logger: logger,
                        opened: path.flatMap(FileIdentity.init(path:)))
        if checkInBackground { reload.better = preferred }
        guard let path else {
            openedStore = nil
            openError = "no airfield database configured (--airfields FILE)"
            deferredCheck = nil
            checkVerdict = .some(nil)
            return
        }
        do {
            let store = try AirfieldStore(path: path, verify: !checkInBackground)
            store.cacheDirectory = cacheDirectory
            if let logger {
                store.indexLoaded = { source in
                    // An index built from the table (an older or damaged stored index) costs ≈ 2.6 MB of memory.
                    let level: Logger.Level = source.hasPrefix("stored") ? .info : .notice
                    logger.log(level: level, "airfield index: \(source)")
                }
            }
            openedStore = store
            openError = nil
        } catch {
            openedStore = nil
            openError = error.description
        }
        if checkInBackground, let opened = openedStore.map({ (airports: $0.airportCount, dataDate: $0.dataDate) }) {
            deferredCheck = DeferredCheck {
                let problem = AirfieldStore.integrityProblem(path: path)
                // Logged before the verdict is handed over, so the line precedes any answer that depends on it.
                if let logger {
                    if let problem {
                        logger.error("\(path): \(Self.oneLine(problem)); no airfield lookups until the file is replaced")
                    } else {
                        logger.info("airfield database \(path): \(opened.airports) airfields, data of \(opened.dataDate), integrity checked")
                    }
                }
                return problem
            }
            checkVerdict = nil
        } else {
            deferredCheck = nil
            checkVerdict = .some(nil)
        }
    }

    /// A multi-line SQLite report as one log line: its first finding and how many more there were. quick_check's
    /// "*** in database main ***" header says nothing and is dropped.
    static func oneLine(_ text: String) -> String {
        let lines = text.replacing("*** in database main ***", with: "").split(separator: "\n")
            .map { String($0.drop { $0 == " " }) }.filter { !$0.isEmpty }
        guard var first = lines.first else { return text }
        var findings = lines.dropFirst()
        if first.hasSuffix(":") || first.hasSuffix(": "), let finding = findings.popFirst() {
            while first.hasSuffix(" ") { first.removeLast() }
            first += " " + finding
        }
        return findings.isEmpty ? first : "\(first) (and \(findings.count) more finding\(findings.count == 1 ? "" : "s"))"
    }

    /// The store once it is open and checked (waiting for the check if need be); nil if either failed.
    public var store: AirfieldStore? {
        reloadIfReplaced()
        if case .some(nil) = verdict { return openedStore }
        return nil
    }

    /// The data date of the database in use once its check has passed, without waiting for the check or looking for a
    /// replacement: for the status before the first lookup (a box in the hangar has no fix to look up from).
    public var checkedDataDate: String? {
        if checkVerdict == nil, let deferredCheck { checkVerdict = deferredCheck.verdict }
        if case .some(nil) = checkVerdict { return openedStore?.dataDate }
        return nil
    }

    /// Why there is no store to ask.
    public var unavailableReason: String? {
        reloadIfReplaced()
        if let openError { return openError }
        return verdict ?? nil
    }

    /// The quick_check's verdict (nil: sound); waits for the deferred check if it has not finished (it runs right after
    /// start, ≈ 15–150 ms here, so only a request in the daemon's first moments can wait).
    private var verdict: String?? {
        while checkVerdict == nil, let deferredCheck {
            checkVerdict = deferredCheck.verdict
            if checkVerdict == nil { usleep(1_000) }
        }
        return checkVerdict
    }

    public func answer(_ lookup: AirfieldLookup) -> AirfieldsUpdate {
        guard let store else {
            return AirfieldsUpdate(lookup: lookup, nearest: [], best: nil, databaseAvailable: false, error: unavailableReason)
        }
        do {
            // The best suitable airfield is mostly among the nearest usable ones: the index reads it off them then.
            let (nearest, best) = try store.nearest(latitude: lookup.latitudeDegrees, longitude: lookup.longitudeDegrees,
                                                    filter: lookup.nearestFilter, andNearest: lookup.bestFilter,
                                                    declinationDegrees: lookup.declinationDegrees, groundSpeedKnots: lookup.groundSpeedKnots)
            return AirfieldsUpdate(lookup: lookup, nearest: nearest, best: best.first, databaseAvailable: true, error: nil,
                                   databaseDate: store.dataDate)
        } catch {
            return AirfieldsUpdate(lookup: lookup, nearest: [], best: nil, databaseAvailable: false, error: error.description)
        }
    }
}

/// The airfield database's quick_check, run once after start-up, and its verdict, handed from the thread that ran it to
/// the loop. cockpitd's main thread runs it after READY=1 (`LiveDaemon.start(runsChecksOnCaller:)`) and then gives
/// its memory back: SQLite's pages for the check, freed in a malloc arena of a short-lived thread, stayed resident in
/// that arena when a later thread took it over (≈ 150–250 kB of idle RSS connected to gpsd; docs/performance.md).
/// Other callers (tests that start a daemon in-process) run it on a thread of its own.
public final class DeferredCheck: Sendable {
    private let body: @Sendable () -> String?
    private let claimed = Atomic<Bool>(false)
    private let result = Mutex<String??>(nil)

    init(_ body: @escaping @Sendable () -> String?) { self.body = body }

    /// nil until the check has run; then nil (sound) or the problem.
    var verdict: String?? { result.withLock { $0 } }

    /// Runs the check on the calling thread (once; a second call, or a call after `startThread`, does nothing).
    public func run() {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let problem = body()
        result.withLock { $0 = .some(problem) }
    }

    /// Runs the check on a thread of its own; on the calling thread if no thread can be had (a fraction of a second).
    public func startThread(logger: Logger?) {
        do {
            try BackgroundThread.start(name: "airfield-check") { [self] in run() }
        } catch {
            logger?.warning("\(error); checking the airfield database on the starting thread instead")
            run()
        }
    }
}
