import CockpitCore
import CockpitIO
import CockpitDevices
import Dispatch
import Glibc
import Logging
import Synchronization

/// The voice: carries out the core's `announce` / `cancelAnnouncement` effects on its own thread. The core decides
/// what is said and when (one voice, priorities, repeats); this output only plays, and never queues: a new
/// announcement replaces one still waiting (counted as dropped), a cancel removes it or cuts the playing one off.
/// Clips are rendered at start on the audio thread, so the core never waits for espeak-ng or the sound device.
final class AlertAudioOutput: RunnerOutput {
    static let outputName = "alerts-audio"
    let name = AlertAudioOutput.outputName
    private let worker: AudioWorker
    private let waitForEachAnnouncement: Bool

    init(device: String, clips: SpeechClips, volumePercent: Int, waitForEachAnnouncement: Bool, logger: Logger) {
        worker = AudioWorker(device: device, clips: clips, volumePercent: volumePercent, logger: logger,
                             retry: !waitForEachAnnouncement)
        self.waitForEachAnnouncement = waitForEachAnnouncement
        let worker = self.worker
        do {
            try BackgroundThread.start(name: "cockpitd-audio") { worker.run() }
        } catch {
            worker.didNotStart(error.description)
            logger.error("alert voice unavailable: \(error)")
        }
    }

    func handle(_ event: OutputEvent) {
        switch event {
        case .effect(.announce(let announcement), let at):
            worker.offer(AudioWorker.Job(announcement: announcement, at: at, handedAt: MonotonicClock.now()))
            // A replay at full speed has no real time to keep: each announcement plays out before the core moves on.
            if waitForEachAnnouncement { worker.waitUntilIdle(atMostSeconds: 30) }
        case .effect(.cancelAnnouncement(let id), _):
            worker.cancel(id)
        default:
            break
        }
    }

    func status() -> OutputStatus { worker.status() }

    func stop() {
        worker.stop()
        worker.waitUntilIdle(atMostSeconds: 2)   // a wedged sound device must not hold up shutdown
    }
}

/// The audio thread's state, behind one lock.
final class AudioWorker: Sendable {
    struct Job: Sendable {
        var announcement: Announcement
        /// The core's instant of the effect (replay time in a replay).
        var at: MonotonicInstant
        /// When the output was handed it (the monotonic clock), for the latency to the first frame.
        var handedAt: MonotonicInstant
    }

    struct Spoken: Sendable {
        var id: String, text: String, at: MonotonicInstant, frames: Int, latencyMilliseconds: Double?, cutOff: Bool
    }

    struct State: Sendable {
        var pending: Job?
        var playing: String?
        var cancelPlaying = false
        var stopping = false
        var notStarted = false
        var played: Int64 = 0, failed: Int64 = 0, dropped: Int64 = 0, cancelled: Int64 = 0
        var deviceAvailable: Bool?
        var lastError: String?
        var clipsReady = 0
        var clipsError: String?
        var spoken: [Spoken] = []
        var lastLatencyMilliseconds: Double?, maxLatencyMilliseconds: Double?
    }

    let device: String
    let volumePercent: Int
    let logger: Logger
    let retry: Bool
    private let clips: Mutex<SpeechClips>
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let idle = DispatchSemaphore(value: 0)
    static let framesPerWrite = 1_024
    /// Retry a missing or busy device after 2 s, doubling to at most a minute while it stays away.
    static let retrySeconds = (first: 2, maximum: 60)

    init(device: String, clips: SpeechClips, volumePercent: Int, logger: Logger, retry: Bool) {
        self.device = device
        self.clips = Mutex(clips)
        self.volumePercent = volumePercent
        self.logger = logger
        self.retry = retry
    }

    func offer(_ job: Job) {
        let taken = state.withLock { state in
            guard !state.notStarted else { state.failed += 1; return false }   // no thread would ever play it
            if state.pending != nil { state.dropped += 1 }
            state.pending = job
            return true
        }
        if taken { wake.signal() }
    }

    /// The audio thread could not be created: every announcement counts as failed, with the reason in the status.
    func didNotStart(_ reason: String) {
        state.withLock { state in
            state.notStarted = true
            state.deviceAvailable = false
            state.lastError = reason
        }
    }

    func cancel(_ id: String) {
        state.withLock { state in
            if state.pending?.announcement.id == id { state.pending = nil; state.cancelled += 1 }
            if state.playing == id { state.cancelPlaying = true }
        }
    }

    /// Waits until nothing is pending or playing (a full-speed replay, and shutdown), for at most `atMostSeconds`.
    func waitUntilIdle(atMostSeconds: Int) {
        let deadline = DispatchTime.now() + .seconds(atMostSeconds)
        while state.withLock({ $0.pending != nil || $0.playing != nil }), DispatchTime.now() < deadline {
            _ = idle.wait(timeout: .now() + .milliseconds(20))
        }
    }

    func stop() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    func run() {
        ALSAPlayback.silenceLibraryErrors()
        // Render every clip the core can ask for, once, before the first alert needs one.
        let (ready, error) = clips.withLock { clips in
            clips.prepare(Announcement.vocabulary)
            return (clips.count, clips.lastError)
        }
        state.withLock { $0.clipsReady = ready; $0.clipsError = error }
        if let error { logger.error("speech clips: \(error)") }
        logger.info("alert voice on \(device): \(ready) speech clips ready")
        while true {
            wake.wait()
            guard let job = take() else {
                if state.withLock({ $0.stopping }) { return }
                continue
            }
            play(job)
            state.withLock { $0.playing = nil; $0.cancelPlaying = false }
            idle.signal()
        }
    }

    private func take() -> Job? {
        state.withLock { state in
            guard !state.stopping, let job = state.pending else { return nil }
            state.pending = nil
            state.playing = job.announcement.id
            state.cancelPlaying = false
            return job
        }
    }

    private func play(_ job: Job) {
        let announcement = job.announcement
        let composed: PCMClip? = clips.withLock { clips in
            guard let speech = clips.compose(announcement.words) else { return nil }
            let tone = announcement.attentionTone ? PCMClip.attentionTone(sampleRate: speech.sampleRate).samples : []
            return PCMClip(sampleRate: speech.sampleRate, samples: tone + speech.samples).scaled(percent: volumePercent)
        }
        guard let clip = composed else {
            let error = clips.withLock { $0.lastError } ?? "no clip"
            state.withLock { $0.failed += 1; $0.lastError = "speech: \(error)" }
            logger.error("cannot speak \"\(announcement.text)\": \(error)")
            return
        }
        var playback: ALSAPlayback?
        var retryDelay = Self.retrySeconds.first
        while playback == nil {
            do {
                playback = try ALSAPlayback(device: device, sampleRate: clip.sampleRate)
                let wasDown = state.withLock { state in
                    defer { state.deviceAvailable = true }
                    return state.deviceAvailable == false
                }
                if wasDown { logger.notice("sound device \(device) available again") }
            } catch {
                let first = state.withLock { state in
                    defer { state.deviceAvailable = false; state.lastError = error.description; state.failed += 1 }
                    return state.deviceAvailable != false || state.lastError != error.description
                }
                if first { logger.error("sound device unavailable, alerts are not heard (retrying): \(error)") }
                // Retry this announcement while it still stands (not cancelled, not replaced by a newer one).
                guard retry, wake.wait(timeout: .now() + .seconds(retryDelay)) == .timedOut,
                      state.withLock({ !$0.cancelPlaying && $0.pending == nil && !$0.stopping }) else {
                    wake.signal()   // let the loop see what woke us
                    return
                }
                retryDelay = min(2 * retryDelay, Self.retrySeconds.maximum)
            }
        }
        guard let playback else { return }
        var offset = 0, firstFrame: MonotonicInstant?, cutOff = false
        do {
            while offset < clip.samples.count {
                if state.withLock({ $0.cancelPlaying || $0.stopping }) { cutOff = true; break }
                let end = min(clip.samples.count, offset + Self.framesPerWrite)
                try playback.write(clip.samples, offset..<end)
                if firstFrame == nil { firstFrame = MonotonicClock.now() }
                offset = end
            }
            playback.close(drain: !cutOff)
        } catch {
            playback.close(drain: false)
            state.withLock { $0.failed += 1; $0.lastError = error.description }
            logger.error("sound device: \(error)")
        }
        let latency = firstFrame.map { $0.seconds(since: job.handedAt) * 1_000 }
        state.withLock { state in
            state.played += 1
            if cutOff { state.cancelled += 1 }
            if let latency {
                state.lastLatencyMilliseconds = latency
                state.maxLatencyMilliseconds = max(state.maxLatencyMilliseconds ?? latency, latency)
            }
            state.spoken.append(Spoken(id: announcement.id, text: announcement.text, at: job.at, frames: playback.framesWritten,
                                       latencyMilliseconds: latency, cutOff: cutOff))
            if state.spoken.count > 20 { state.spoken.removeFirst(state.spoken.count - 20) }
        }
    }

    func status() -> OutputStatus {
        let sampleRate = clips.withLock { $0.sampleRate }
        return state.withLock { state in
            var status = OutputStatus(unit: "announcements")
            status.sent = state.played
            status.failed = state.failed
            status.dropped = state.dropped
            status.lastError = state.lastError
            status.details["device"] = .string(device)
            status.details["deviceAvailable"] = .optional(state.deviceAvailable)
            status.details["volumePercent"] = .integer(Int64(volumePercent))
            status.details["cancelled"] = .integer(state.cancelled)
            status.details["clipsReady"] = .integer(Int64(state.clipsReady))
            status.details["clipsError"] = .optional(state.clipsError)
            status.details["sampleRateHertz"] = .integer(Int64(sampleRate))
            status.details["speaking"] = .optional(state.playing)
            status.details["lastLatencyMilliseconds"] = state.lastLatencyMilliseconds.map { .number($0, decimals: 2) } ?? .null
            status.details["maxLatencyMilliseconds"] = state.maxLatencyMilliseconds.map { .number($0, decimals: 2) } ?? .null
            status.details["spoken"] = .array(state.spoken.map { spoken in
                .object(["id": .string(spoken.id), "text": .string(spoken.text), "atSeconds": .number(spoken.at.seconds, decimals: 3),
                         "frames": .integer(Int64(spoken.frames)), "cutOff": .bool(spoken.cutOff),
                         "latencyMilliseconds": spoken.latencyMilliseconds.map { .number($0, decimals: 2) } ?? .null])
            })
            return status
        }
    }
}
