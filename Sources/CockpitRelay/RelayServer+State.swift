import CockpitCore
import CockpitIO
import NIOCore
import Synchronization

/// Running, stopping (the loop still serves the store's last work), stopped (the loop is going or gone).
final class StopFlag: Sendable {
    private let state = Mutex(0)

    /// `body` while the loop is still there (holding the flag, so the loop cannot be shut down meanwhile).
    func whileRunning<T>(_ body: () -> T) -> T? {
        state.withLock { value in value == 2 ? nil : body() }
    }

    /// True for the first caller only.
    func markStopping() -> Bool {
        state.withLock { value in
            guard value == 0 else { return false }
            value = 1
            return true
        }
    }

    func markStopped() { state.withLock { $0 = 2 } }
}

/// The state file (`RelayState`): read before the socket is bound, written from a copy on a queue of its own when
/// the bindings changed (at most every `stateIntervalSeconds`), at least once a minute, and at stop.
extension RelayServer {
    func restoreState(from path: String) {
        let (state, problem) = RelayState.read(from: path)
        if let problem {
            stateProblem = problem
            stateSummary = "state file: \(problem); starting without it"
            logger.error("\(stateSummary!)")
            return
        }
        guard let state else {
            stateSummary = "state file \(path): none yet (a first start)"
            return
        }
        let taken = onLoop { engine in
            engine.restore(state, nowSeconds: MonotonicClock.nowSeconds(), utc: RelayServer.utcNow())
        } ?? (bindings: 0, sequences: 0)
        let skipped = state.unreadableLines > 0 ? " (\(state.unreadableLines) unreadable lines skipped)" : ""
        stateSummary = "state file \(path): \(taken.bindings) identifier bindings and \(taken.sequences) sequence numbers taken back\(skipped)"
        if state.unreadableLines > 0 { logger.error("\(stateSummary!)") }
    }

    func scheduleStateWrites() {
        let interval = TimeAmount.milliseconds(Int64(max(0.2, options.stateIntervalSeconds) * 1000))
        loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
            let now = MonotonicClock.nowSeconds()
            guard engine.bindings.changes != stateSavedChanges || now - stateSavedSeconds >= 60 else { return }
            saveStateOnLoop(nowSeconds: now)
        }
    }

    /// At stop: one last write, waited for.
    func saveStateAndWait() {
        try? loop.submit { [self] in saveStateOnLoop(nowSeconds: MonotonicClock.nowSeconds()) }.wait()
        stateWriter.sync {}
    }

    /// Copies the bindings and sequence numbers (copy on write: no table is walked on the loop) and writes them on
    /// the writer's queue.
    private func saveStateOnLoop(nowSeconds: Double) {
        guard let path = options.statePath else { return }
        stateSavedChanges = engine.bindings.changes
        stateSavedSeconds = nowSeconds
        let bindings = engine.bindings, sequences = engine.lastSequence, utc = Self.utcNow()
        stateWriter.async { [self] in
            let state = RelayEngine.state(bindings: bindings, sequences: sequences, nowSeconds: nowSeconds, utc: utc)
            let problem = state.write(to: path)
            if problem != nil { logger.error("state file: \(problem!)") }
            _ = stopLockedExecute { [self] in stateProblem = problem }
        }
    }

    /// Runs `body` on the loop unless the server has stopped.
    private func stopLockedExecute(_ body: @escaping @Sendable () -> Void) -> Bool {
        stopFlag.whileRunning { loop.execute(body) } != nil
    }
}
