/// The index as the importer stores it in the database file, so that the daemon loads it instead of scanning the airport
/// table and building the tree (≈ 280 million instructions, which would be most of a replay's one-off cost).
///
/// Layout (little-endian): "CKDT", format UInt32, count UInt32, leaf size UInt32; then per entry in tree order id,
/// latitude and longitude (microdegrees), longest and longest hard runway (feet, Int32.min unknown/none) as Int32, the
/// type bit as UInt8 and the split axis as UInt8 (22 bytes); then the FNV-1a 64 hash of everything before it. The
/// unit vectors are not stored (they are recomputed exactly as `init(sites:)` computes them), which keeps the file
/// within its size goal.
extension AirfieldIndex {
    /// 2: the longest runway is the one the filters count (`AirfieldType.runwayFeetForFilters`: no water
    /// lane at a land airfield). Format 1 held the longest of any surface; a file that has only it gets its index built
    /// from the airport table, which applies the rule.
    public static let storedFormat: UInt32 = 2
    public static let storedMagic: [UInt8] = Array("CKDT".utf8)
    public static let storedHeaderBytes = 16
    public static let storedEntryBytes = 22

    public enum StoredFormatError: Error, Equatable, CustomStringConvertible {
        case tooShort, badMagic, unsupportedFormat(UInt32), wrongSize, checksumMismatch, badEntry(Int)
        public var description: String {
            switch self {
            case .tooShort: "the stored airfield index is truncated"
            case .badMagic: "the stored airfield index has no CKDT header"
            case .unsupportedFormat(let format): "the stored airfield index has format \(format), not \(AirfieldIndex.storedFormat)"
            case .wrongSize: "the stored airfield index's size does not match its count"
            case .checksumMismatch: "the stored airfield index fails its checksum"
            case .badEntry(let position): "the stored airfield index has an impossible entry at \(position)"
            }
        }
    }

    /// The bytes the importer stores.
    public func stored() -> [UInt8] {
        var bytes = Self.storedMagic
        bytes.reserveCapacity(Self.storedHeaderBytes + entries.count * Self.storedEntryBytes + 8)
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(Self.storedFormat)
        append(UInt32(entries.count))
        append(UInt32(Self.leafSize))
        for (position, entry) in entries.enumerated() {
            for value in [entry.id, entry.latitudeMicrodegrees, entry.longitudeMicrodegrees, entry.longestRunwayFeet,
                          entry.longestHardRunwayFeet] {
                append(UInt32(bitPattern: value))
            }
            bytes.append(UInt8(truncatingIfNeeded: entry.typeBit))
            bytes.append(axes[position])
        }
        withUnsafeBytes(of: Self.fnv1a(bytes[...]).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Loads stored bytes, checking the header, the size, the checksum and every value's range.
    public init(stored bytes: UnsafeRawBufferPointer) throws(StoredFormatError) {
        guard bytes.count >= Self.storedHeaderBytes + 8 else { throw .tooShort }
        guard Array(bytes[0..<4]) == Self.storedMagic else { throw .badMagic }
        func word(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        }
        let format = word(4)
        guard format == Self.storedFormat else { throw .unsupportedFormat(format) }
        let count = Int(word(8))
        guard word(12) == UInt32(Self.leafSize),
              bytes.count == Self.storedHeaderBytes + count * Self.storedEntryBytes + 8 else { throw .wrongSize }
        let body = bytes.count - 8
        let checksum = UInt64(word(body)) | UInt64(word(body + 4)) << 32
        guard Self.fnv1a(bytes[0..<body]) == checksum else { throw .checksumMismatch }
        var coordinates = [Float](repeating: 0, count: count * 3)
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var axes = [UInt8](repeating: 0, count: count)
        let typeCount = AirfieldType.allCases.count
        for position in 0..<count {
            let offset = Self.storedHeaderBytes + position * Self.storedEntryBytes
            let latitude = Int32(bitPattern: word(offset + 4)), longitude = Int32(bitPattern: word(offset + 8))
            let typeBit = UInt16(bytes[offset + 20]), axis = bytes[offset + 21]
            guard (-90_000_000...90_000_000).contains(latitude), (-180_000_000...180_000_000).contains(longitude),
                  typeBit.nonzeroBitCount == 1, typeBit.trailingZeroBitCount < typeCount, axis <= 2 else { throw .badEntry(position) }
            entries.append(Entry(id: Int32(bitPattern: word(offset)), latitudeMicrodegrees: latitude, longitudeMicrodegrees: longitude,
                                 longestRunwayFeet: Int32(bitPattern: word(offset + 12)),
                                 longestHardRunwayFeet: Int32(bitPattern: word(offset + 16)), typeBit: typeBit))
            axes[position] = axis
            let v = Self.unitVector(latitude: Double(latitude) / 1e6, longitude: Double(longitude) / 1e6)
            coordinates[position * 3] = Float(v.0); coordinates[position * 3 + 1] = Float(v.1); coordinates[position * 3 + 2] = Float(v.2)
        }
        self.init(coordinates: coordinates, entries: entries, axes: axes)
    }

    /// FNV-1a, 64 bit: catches a flipped or torn byte in the blob (the file's pages are checked by SQLite's quick_check).
    public static func fnv1a(_ bytes: some Collection<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
