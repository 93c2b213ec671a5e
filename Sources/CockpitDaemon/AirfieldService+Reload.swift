import CockpitCore
import CockpitIO
import Glibc
import Logging

/// The file behind a path, as `stat` sees it: a new file renamed over the path (`cockpitd data update`) has another
/// inode; a file rewritten in place another size or modification time.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedNanoseconds: Int64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}

extension AirfieldService {
    /// What a running daemon needs to pick up a replaced database without a restart.
    struct Reload {
        /// The file in use (or the one to use once it appears).
        var path: String?
        /// Files to use instead of `path` as soon as one appears, best first: the search path's entries ahead of it
        /// (the first update writes /var/lib/cockpit/airfields.sqlite while the daemon answers from /usr/share's copy).
        var better: [String] = []
        let cacheDirectory: String?
        let logger: Logger?
        /// The file the store in use was opened from.
        var opened: FileIdentity?
        /// A file refused once (damaged, foreign): not tried again until it changes.
        var refused: FileIdentity?
        /// The replacement while its quick_check runs on a thread of its own; the old store answers meanwhile.
        var candidate: (path: String, store: AirfieldStore, identity: FileIdentity, check: DeferredCheck)?
        var lastLook: MonotonicInstant?

        init(path: String?, cacheDirectory: String?, logger: Logger?, opened: FileIdentity?) {
            self.path = path
            self.cacheDirectory = cacheDirectory
            self.logger = logger
            self.opened = opened
        }
    }

    /// How often the file is looked at (one `stat`).
    static let reloadLookSeconds = 1.0

    /// Looks (at most once a second) whether the database file was replaced; a replacement is opened and checked on
    /// a thread of its own while the store in use keeps answering, and takes its place once its check passes. A file
    /// that fails is logged and left alone; the store in use stays.
    func reloadIfReplaced(now: MonotonicInstant = MonotonicClock.now(), lookEverySeconds: Double = reloadLookSeconds) {
        guard reload.path != nil || !reload.better.isEmpty else { return }
        if let candidate = reload.candidate {
            guard let verdict = candidate.check.verdict else { return }
            reload.candidate = nil
            if let problem = verdict {
                reload.refused = candidate.identity
                reload.logger?.error("\(candidate.path) was replaced by a file that fails its check: \(Self.oneLine(problem)); the database in use stays")
                return
            }
            adopt(candidate.store, identity: candidate.identity, path: candidate.path)
            return
        }
        if let last = reload.lastLook, now.seconds(since: last) < lookEverySeconds { return }
        reload.lastLook = now
        let better = reload.better.lazy.compactMap { path in FileIdentity(path: path).map { (path, $0) } }
            .first { $0.1 != reload.refused }
        let path: String, identity: FileIdentity
        if let better {
            (path, identity) = better
        } else {
            guard let inUse = reload.path, let now = FileIdentity(path: inUse), now != reload.opened, now != reload.refused else { return }
            (path, identity) = (inUse, now)
        }
        let store: AirfieldStore
        do { store = try AirfieldStore(path: path, verify: false) } catch {
            reload.refused = identity
            reload.logger?.error("\(path) was replaced by a file that does not open: \(error); the database in use stays")
            return
        }
        store.cacheDirectory = reload.cacheDirectory
        if let logger = reload.logger {
            store.indexLoaded = { source in logger.log(level: source.hasPrefix("stored") ? .info : .notice, "airfield index: \(source)") }
        }
        let check = DeferredCheck { AirfieldStore.integrityProblem(path: path) }
        reload.candidate = (path, store, identity, check)
        check.startThread(logger: reload.logger)
    }

    private func adopt(_ store: AirfieldStore, identity: FileIdentity, path: String) {
        openedStore = store
        openError = nil
        checkVerdict = .some(nil)
        reload.opened = identity
        reload.refused = nil
        if let index = reload.better.firstIndex(of: path) { reload.better = Array(reload.better[..<index]) }
        reload.path = path
        reload.logger?.info("airfield database \(store.path) replaced: \(store.airportCount) airfields, data of \(store.dataDate), integrity checked")
    }

    /// Starts looking for a replacement now (the next lookup or request sees it once its check has passed).
    public func lookForReplacement() {
        reload.lastLook = nil
        reloadIfReplaced()
    }
}
