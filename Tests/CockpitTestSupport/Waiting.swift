import CockpitIO
public import Glibc

// Waiting without holding a thread of the test runner. swift-testing runs every test on Swift's cooperative pool,
// which has one thread per core: on a 2-core machine two blocked tests (a `usleep`, a `waitpid`) stop every other test.
// An async test that awaits these gives its thread back while it waits for a process, a socket or a condition.
// In an async function these overloads are chosen over the blocking ones of the same name.

/// Waits until `condition` holds; returns as soon as it holds, and whether it did. The condition is asked every
/// `every` seconds (20 ms unless said), and given up after `seconds` of those pauses (the time the asks themselves
/// take is not counted: a slow machine slows both). This is the one poll the tests share, for what has no event to wait
/// on from outside (a daemon's status, a file's rows, a port that starts accepting).
public func waitFor(seconds: Double, every: Double = 0.02, _ condition: () throws -> Bool) async rethrows -> Bool {
    var paused = 0.0
    while paused < seconds {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: UInt64(every * 1e9))
        paused += every
    }
    return try condition()
}

/// The same wait, blocking the calling thread: for a thread of the test's own, or a test not made async.
///
/// An async test that measures how soon something happens asks through `waitForHoldingThread`: a task resumed after
/// its pause may wait for a free thread of the pool, and would measure that too; a blocked thread is never late.
public func waitFor(seconds: Double, every: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    var paused = 0.0
    while paused < seconds {
        if try condition() { return true }
        usleep(UInt32(every * 1e6))
        paused += every
    }
    return try condition()
}

/// Waits for the child `pid` to end and returns its `waitpid` status: on a thread of its own, so the caller's thread
/// is free until the kernel reports the exit.
public func waitForExit(_ pid: pid_t) async -> Int32 {
    await onOwnThread("test-waitpid") { blockingWaitpid(pid) }
}

/// Runs `body` on a thread of its own and returns what it returns: blocking work (a loop of processes and waits)
/// that neither holds a thread of the pool nor waits for one to go on. `body` records no issues (a thread outside the
/// test's task has no test to record them against): it returns what the test then checks.
public func onOwnThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        do {
            try BackgroundThread.start(name: name) { continuation.resume(returning: body()) }
        } catch {
            continuation.resume(returning: body())
        }
    }
}

/// `waitpid` for `pid`, again after a signal interrupts it.
public func blockingWaitpid(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
}

/// Ends a program `startProcess` started (SIGTERM, then awaits its exit) and sets `pid` to 0; nothing when it is 0.
public func terminateAndWait(_ pid: inout pid_t) async {
    guard pid > 0 else { return }
    kill(pid, SIGTERM)
    _ = await waitForExit(pid)
    pid = 0
}

/// Runs a program to completion as the blocking `runProcess` does (output captured in files), awaiting its exit.
public func runProcess(_ path: String, _ arguments: [String], environment: [String: String] = [:]) async -> ProcessResult {
    let tag = "/tmp/cockpitd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let outPath = tag + ".out", errPath = tag + ".err"
    defer { unlink(outPath); unlink(errPath) }
    guard let pid = spawnCapturing(path, arguments, environment: environment, stdout: outPath, stderr: errPath) else {
        return ProcessResult(status: -1, stdout: "", stderr: "spawn failed")
    }
    let status = await waitForExit(pid)
    return ProcessResult(status: exitCode(status), stdout: readFile(outPath), stderr: readFile(errPath))
}

/// The exit code of a `waitpid` status: the program's own, or 128 + the signal that ended it.
public func exitCode(_ status: Int32) -> Int32 {
    (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// The blocking `waitFor`, by a name an async test can call (see above).
public func waitForHoldingThread(seconds: Double, every: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    try waitFor(seconds: seconds, every: every, condition)
}
