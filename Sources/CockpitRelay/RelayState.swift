public import CockpitCore
import CockpitIO
import Glibc

/// What a relay in memory keeps across a restart (`--state-file`, docs/relay.md, "Device keys"): which key each
/// identifier is bound to and when it was last used, and the last sequence number used up per identifier. Without it
/// a restarted relay would let the first key to report an identifier own it for an hour, and the aircraft whose
/// identifier it was would be refused. Times are UTC (monotonic seconds mean nothing to the next process).
///
/// One line each, text: `binding IIIIII FFFFFFFFFFFFFFFF SECONDS` (identifier and key fingerprint in hex, last use in
/// UTC seconds since 1970) and `sequence IIIIII N SECONDS`. Lines that do not read are skipped and counted.
public struct RelayState: Sendable, Equatable {
    public struct Binding: Sendable, Equatable {
        public var identifier: UInt32
        public var fingerprint: UInt64
        public var lastUsedEpochSeconds: Double
        public init(identifier: UInt32, fingerprint: UInt64, lastUsedEpochSeconds: Double) {
            self.identifier = identifier
            self.fingerprint = fingerprint
            self.lastUsedEpochSeconds = lastUsedEpochSeconds
        }
    }

    public struct Sequence: Sendable, Equatable {
        public var identifier: UInt32
        public var sequence: UInt16
        public var usedEpochSeconds: Double
        public init(identifier: UInt32, sequence: UInt16, usedEpochSeconds: Double) {
            self.identifier = identifier
            self.sequence = sequence
            self.usedEpochSeconds = usedEpochSeconds
        }
    }

    public var bindings: [Binding] = []
    public var sequences: [Sequence] = []
    /// Lines skipped when reading (not a binding or sequence line as above).
    public var unreadableLines = 0

    public init() {}

    static let header = "# cockpit-relay state: identifier bindings and sequence numbers (docs/relay.md)\n"

    public func encoded() -> [UInt8] {
        var text = Self.header
        text.reserveCapacity(Self.header.utf8.count + 48 * (bindings.count + sequences.count))
        for binding in bindings {
            text += "binding \(Self.hex(UInt64(binding.identifier), digits: 6)) \(Self.hex(binding.fingerprint, digits: 16)) "
                + "\(FixedText.format(binding.lastUsedEpochSeconds, decimals: 3))\n"
        }
        for sequence in sequences {
            text += "sequence \(Self.hex(UInt64(sequence.identifier), digits: 6)) \(sequence.sequence) "
                + "\(FixedText.format(sequence.usedEpochSeconds, decimals: 3))\n"
        }
        return Array(text.utf8)
    }

    public init(decoding bytes: [UInt8]) {
        for raw in bytes.split(separator: UInt8(ascii: "\n")) {
            let line = String(decoding: raw, as: UTF8.self)
            if line.hasPrefix("#") { continue }
            let fields = line.split(separator: " ")
            guard fields.count == 4, let identifier = Self.identifier(fields[1]), let seconds = Double(fields[3]), seconds.isFinite,
                  seconds > 0 else {
                unreadableLines += 1
                continue
            }
            switch fields[0] {
            case "binding":
                guard fields[2].utf8.count == 16, fields[2].utf8.allSatisfy(Self.isHexDigit),
                      let fingerprint = UInt64(fields[2], radix: 16), fingerprint != 0 else { unreadableLines += 1; continue }
                bindings.append(Binding(identifier: identifier, fingerprint: fingerprint, lastUsedEpochSeconds: seconds))
            case "sequence":
                guard fields[2].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                      let sequence = UInt16(fields[2]) else { unreadableLines += 1; continue }
                sequences.append(Sequence(identifier: identifier, sequence: sequence, usedEpochSeconds: seconds))
            default:
                unreadableLines += 1
            }
        }
    }

    public static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))
            || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"))
    }

    /// Six hex digits, 1…FFFFFF (docs/traffic-packet.md: identifier 0 is out of range).
    static func identifier(_ text: Substring) -> UInt32? {
        guard text.utf8.count == 6, text.utf8.allSatisfy(isHexDigit), let value = UInt32(text, radix: 16), value > 0 else { return nil }
        return value
    }

    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Writes the file whole or not at all (`AtomicFile`); returns why it could not, or nil.
    public func write(to path: String) -> String? {
        AtomicFile.write(encoded(), to: path, modeBits: 0o600)
    }

    /// Whether the file can be written where it is to be (its temporary file is made and removed again).
    public static func checkWritable(_ path: String) -> String? {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return "cannot create \(temporary): \(String(cString: strerror(errno)))" }
        close(fd)
        unlink(temporary)
        return nil
    }

    /// The state in the file; nil and no problem when there is no file yet (a first start).
    public static func read(from path: String, limitBytes: Int = 256 << 20) -> (state: RelayState?, problem: String?) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return errno == ENOENT ? (nil, nil) : (nil, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return (nil, "cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= limitBytes else { return (nil, "\(path): larger than \(limitBytes >> 20) MiB") }
        }
        return (RelayState(decoding: bytes), nil)
    }
}

extension RelayEngine {
    /// The bindings and sequence numbers as UTC times (`nowSeconds` is the monotonic clock at `utc`).
    public func state(nowSeconds: Double, utc: UTCInstant) -> RelayState {
        Self.state(bindings: bindings, sequences: lastSequence, nowSeconds: nowSeconds, utc: utc)
    }

    static func state(bindings: IdentifierBindings, sequences: [UInt32: (sequence: UInt16, seconds: Double)], nowSeconds: Double,
                      utc: UTCInstant) -> RelayState {
        var state = RelayState()
        let offset = utc.secondsSinceEpoch - nowSeconds
        state.bindings = bindings.all.map {
            RelayState.Binding(identifier: $0.identifier, fingerprint: $0.fingerprint, lastUsedEpochSeconds: $0.lastUsedSeconds + offset)
        }
        state.sequences = sequences.map {
            RelayState.Sequence(identifier: $0.key, sequence: $0.value.sequence, usedEpochSeconds: $0.value.seconds + offset)
        }
        return state
    }

    /// Takes back a saved state: bindings used within `identifierBindingSeconds` and sequence numbers recent enough to
    /// stop a replay (a time ahead of `utc`, from a clock stepped back, counts as now). Returns how many were taken.
    @discardableResult
    public mutating func restore(_ state: RelayState, nowSeconds: Double, utc: UTCInstant) -> (bindings: Int, sequences: Int) {
        var taken = (bindings: 0, sequences: 0)
        for binding in state.bindings {
            let silent = max(0, utc.secondsSinceEpoch - binding.lastUsedEpochSeconds)
            guard silent <= configuration.identifierBindingSeconds else { continue }
            bindings.adopt(binding.identifier, fingerprint: binding.fingerprint, lastUsedSeconds: nowSeconds - silent)
            taken.bindings += 1
        }
        let keep = configuration.expirySeconds + 2 * configuration.freshnessSeconds
        for sequence in state.sequences where lastSequence.count < configuration.rateTableCapacity {
            let age = utc.secondsSinceEpoch - sequence.usedEpochSeconds
            guard age <= keep else { continue }
            lastSequence[sequence.identifier] = (sequence.sequence, nowSeconds - max(age, 0))
            taken.sequences += 1
        }
        return taken
    }
}
