import Glibc
import CockpitIO

/// Mono signed 16-bit samples at one rate: a rendered word, a tone, a composed sentence.
public struct PCMClip: Sendable, Equatable {
    public var sampleRate: Int
    public var samples: [Int16]

    public init(sampleRate: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.samples = samples
    }

    public var seconds: Double { Double(samples.count) / Double(sampleRate) }

    public static func silence(seconds: Double, sampleRate: Int) -> PCMClip {
        PCMClip(sampleRate: sampleRate, samples: [Int16](repeating: 0, count: Int(seconds * Double(sampleRate))))
    }

    /// The attention tone before warnings: two 0.3 s beeps of 1 kHz with 0.1 s between and 0.1 s after (0.8 s), with
    /// 10 ms ramps so they do not click.
    public static func attentionTone(sampleRate: Int) -> PCMClip {
        var samples: [Int16] = []
        let beep = Int(0.3 * Double(sampleRate)), ramp = sampleRate / 100
        for _ in 0..<2 {
            for index in 0..<beep {
                let envelope = min(1, Double(min(index, beep - 1 - index)) / Double(ramp))
                samples.append(Int16(12_000 * envelope * sin(2 * Double.pi * 1_000 * Double(index) / Double(sampleRate))))
            }
            samples += [Int16](repeating: 0, count: sampleRate / 10)
        }
        return PCMClip(sampleRate: sampleRate, samples: samples)
    }

    /// Without leading and trailing silence (below `threshold`), keeping `marginSeconds` on each side.
    public func trimmed(threshold: Int16 = 300, marginSeconds: Double = 0.02) -> PCMClip {
        guard let first = samples.firstIndex(where: { abs(Int32($0)) > threshold }),
              let last = samples.lastIndex(where: { abs(Int32($0)) > threshold }) else { return PCMClip(sampleRate: sampleRate, samples: []) }
        let margin = Int(marginSeconds * Double(sampleRate))
        return PCMClip(sampleRate: sampleRate, samples: Array(samples[max(0, first - margin)...min(samples.count - 1, last + margin)]))
    }

    /// Scaled to `percent` (0–100) of full level.
    public func scaled(percent: Int) -> PCMClip {
        guard percent != 100 else { return self }
        let factor = Double(max(0, min(100, percent))) / 100
        return PCMClip(sampleRate: sampleRate, samples: samples.map { Int16(Double($0) * factor) })
    }
}

/// The few WAV files a speech synthesiser writes: RIFF/WAVE, PCM, 16-bit mono.
public enum WAVFile {
    public enum Problem: Error, CustomStringConvertible {
        case unreadable(String), notWAV, unsupported(String)
        public var description: String {
            switch self {
            case .unreadable(let reason): "unreadable: \(reason)"
            case .notWAV: "not a RIFF/WAVE file"
            case .unsupported(let what): "unsupported WAV: \(what)"
            }
        }
    }

    public static func read(path: String) throws(Problem) -> PCMClip {
        let bytes: [UInt8]
        do { bytes = try LineReader.readAll(path: path, limitBytes: 16 << 20) } catch { throw .unreadable("\(error)") }
        return try parse(bytes)
    }

    public static func parse(_ bytes: [UInt8]) throws(Problem) -> PCMClip {
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else { throw .notWAV }
        var offset = 12, sampleRate: Int?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = min(u32(offset + 4), bytes.count - offset - 8)   // synthesisers writing to a pipe leave sizes unset
            let body = offset + 8
            if id == "fmt " {
                guard size >= 16 else { throw .unsupported("short fmt chunk") }
                guard u16(body) == 1 else { throw .unsupported("format \(u16(body)), not PCM") }
                guard u16(body + 2) == 1 else { throw .unsupported("\(u16(body + 2)) channels, not mono") }
                guard u16(body + 14) == 16 else { throw .unsupported("\(u16(body + 14)) bits per sample") }
                sampleRate = u32(body + 4)
            } else if id == "data" {
                guard let sampleRate else { throw .unsupported("data before fmt") }
                var samples = [Int16](repeating: 0, count: size / 2)
                for index in samples.indices { samples[index] = Int16(bitPattern: UInt16(u16(body + 2 * index))) }
                return PCMClip(sampleRate: sampleRate, samples: samples)
            }
            offset = body + size + (size & 1)
        }
        throw .unsupported("no data chunk")
    }
}
