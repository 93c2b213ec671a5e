import CALSA
import Glibc
import CockpitIO

/// One playback stream on an ALSA PCM (libasound through the CALSA module map): mono S16_LE at the clips' rate,
/// written in short periods so a cancel takes effect within ~50 ms. Opened per announcement, so a device that
/// appears later (a USB sound card plugged in) or is released by another program is simply used next time.
public final class ALSAPlayback {
    public struct Failure: Error, CustomStringConvertible {
        public var operation: String
        public var code: Int32
        public var busy: Bool { code == -EBUSY || code == -EAGAIN }
        public var description: String { "\(operation): \(String(cString: snd_strerror(code)))\(busy ? " (device busy)" : "")" }
    }

    private var pcm: OpaquePointer?
    public let device: String
    public let sampleRate: Int
    public private(set) var framesWritten = 0

    /// Silences libasound's own stderr diagnostics (the caller reports failures once, in its status and log).
    public static func silenceLibraryErrors() { cockpit_alsa_silence_library_errors() }

    /// Opens `device` without waiting for it (a busy device fails at once), then switches to blocking writes.
    public init(device: String, sampleRate: Int, latencyMicroseconds: UInt32 = 100_000) throws(Failure) {
        self.device = device
        self.sampleRate = sampleRate
        var handle: OpaquePointer?
        var code = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard code >= 0, let handle else { throw Failure(operation: "open \(device)", code: code) }
        pcm = handle
        code = snd_pcm_nonblock(handle, 0)
        if code >= 0 {
            code = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1,
                                      latencyMicroseconds)
        }
        guard code >= 0 else {
            snd_pcm_close(handle)
            pcm = nil
            throw Failure(operation: "configure \(device)", code: code)
        }
    }

    deinit { close(drain: false) }

    /// Writes `samples[range]`; recovers once from an underrun.
    public func write(_ samples: [Int16], _ range: Range<Int>) throws(Failure) {
        guard let pcm else { throw Failure(operation: "write", code: -EBADF) }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let written = samples.withUnsafeBufferPointer { buffer in
                snd_pcm_writei(pcm, buffer.baseAddress! + offset, snd_pcm_uframes_t(range.upperBound - offset))
            }
            if written < 0 {
                let recovered = snd_pcm_recover(pcm, Int32(written), 1)
                guard recovered >= 0 else { throw Failure(operation: "write \(device)", code: Int32(written)) }
                continue
            }
            offset += written
            framesWritten += written
        }
    }

    /// Plays out what is buffered (`drain`) or discards it at once (a cancel), and closes.
    public func close(drain: Bool) {
        guard let pcm else { return }
        if drain { snd_pcm_drain(pcm) } else { snd_pcm_drop(pcm) }
        snd_pcm_close(pcm)
        self.pcm = nil
    }
}
