/// The index exactly as it lies in memory, for a cache file that the daemon maps read-only instead of holding the
/// index on its heap (the goal is private memory in flight ≤ 4 MiB, and the index is 2.6 MB). Mapped, its pages are
/// clean file pages: shared, and dropped by the kernel under memory pressure and read back when needed.
///
/// The image is specific to this machine and build (native byte order and the Swift layout of `Entry`), which is why it
/// is a cache, rebuilt from the database's stored index whenever anything does not match — never shipped.
///
/// Layout: "CKDX", format (UInt32, native), count (UInt32), entry stride (UInt32), the FNV-1a 64 checksum of the stored
/// index it was made from (UInt64), the FNV-1a 64 of everything after this 32-byte header (UInt64); then the entries
/// (count × stride), the coordinates (count × 3 Float) and the split axes (count bytes).
extension AirfieldIndex {
    public static let imageFormat: UInt32 = 1
    public static let imageMagic: [UInt8] = Array("CKDX".utf8)
    public static let imageHeaderBytes = 32
    /// Bytes per entry in an image: this build's in-memory stride of an entry (24 on 64-bit platforms).
    public static var imageEntryStride: Int { MemoryLayout<Entry>.stride }
    /// Bytes per airfield in an image: its entry, its unit vector (3 Float) and its split axis (1 byte).
    public static var imageBytesPerEntry: Int { imageEntryStride + 3 * 4 + 1 }

    /// The FNV-1a 64 checksum that ends a stored index (what an image names as its source), or nil for bytes that are
    /// too short to be one.
    public static func storedChecksum(_ stored: UnsafeRawBufferPointer) -> UInt64? {
        guard stored.count >= storedHeaderBytes + 8 else { return nil }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(stored[stored.count - 8 + offset]) << (8 * offset) }
        return value
    }

    /// The image of this index, naming `sourceChecksum` (the stored index it came from).
    public func image(sourceChecksum: UInt64) -> [UInt8] {
        let count = entries.count
        var bytes = [UInt8](repeating: 0, count: Self.imageHeaderBytes + count * Self.imageBytesPerEntry)
        bytes.withUnsafeMutableBytes { out in
            for (offset, byte) in Self.imageMagic.enumerated() { out[offset] = byte }
            out.storeBytes(of: Self.imageFormat, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: UInt32(count), toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: UInt32(MemoryLayout<Entry>.stride), toByteOffset: 12, as: UInt32.self)
            out.storeBytes(of: sourceChecksum, toByteOffset: 16, as: UInt64.self)
            var at = Self.imageHeaderBytes
            // Entry has no padding inside (5 × Int32 + UInt16, stride 24): the 2 tail bytes are zeroed by the array.
            for entry in entries {
                withUnsafeBytes(of: entry) { raw in
                    UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + MemoryLayout<Entry>.size)]).copyMemory(from: raw)
                }
                at += MemoryLayout<Entry>.stride
            }
            UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + count * 12)]).copyMemory(from: UnsafeRawBufferPointer(coordinates))
            at += count * 12
            UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + count)]).copyMemory(from: UnsafeRawBufferPointer(axes))
            let checksum = Self.fnv1a(UnsafeRawBufferPointer(rebasing: out[Self.imageHeaderBytes...]))
            out.storeBytes(of: checksum, toByteOffset: 24, as: UInt64.self)
        }
        return bytes
    }

    /// An index over an image in memory that stays valid and unchanged until `release` is called (a read-only
    /// mapping; `release` unmaps it). Checks the header against this build and `sourceChecksum`, the checksum of the
    /// whole body, and every entry's ranges and every coordinate — a damaged or foreign file is refused, never used.
    public init(image: UnsafeRawBufferPointer, sourceChecksum: UInt64,
                release: @escaping @Sendable () -> Void) throws(StoredFormatError) {
        guard image.count >= Self.imageHeaderBytes, let base = image.baseAddress else { release(); throw .tooShort }
        guard Array(image[0..<4]) == Self.imageMagic else { release(); throw .badMagic }
        let format = image.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        guard format == Self.imageFormat else { release(); throw .unsupportedFormat(format) }
        let count = Int(image.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        let stride = Int(image.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        guard stride == MemoryLayout<Entry>.stride, Int(bitPattern: base) % MemoryLayout<Entry>.alignment == 0,
              image.count == Self.imageHeaderBytes + count * Self.imageBytesPerEntry,
              image.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == sourceChecksum else { release(); throw .wrongSize }
        guard Self.fnv1a(UnsafeRawBufferPointer(rebasing: image[Self.imageHeaderBytes...]))
                == image.loadUnaligned(fromByteOffset: 24, as: UInt64.self) else { release(); throw .checksumMismatch }
        let entriesStart = base + Self.imageHeaderBytes
        let coordinatesStart = entriesStart + count * stride
        let axesStart = coordinatesStart + count * 12
        let entries = UnsafeBufferPointer(start: entriesStart.assumingMemoryBound(to: Entry.self), count: count)
        let coordinates = UnsafeBufferPointer(start: coordinatesStart.assumingMemoryBound(to: Float.self), count: count * 3)
        let axes = UnsafeBufferPointer(start: axesStart.assumingMemoryBound(to: UInt8.self), count: count)
        let typeCount = AirfieldType.allCases.count
        for position in 0..<count {
            let entry = entries[position]
            let x = coordinates[position * 3], y = coordinates[position * 3 + 1], z = coordinates[position * 3 + 2]
            guard (-90_000_000...90_000_000).contains(entry.latitudeMicrodegrees),
                  (-180_000_000...180_000_000).contains(entry.longitudeMicrodegrees),
                  entry.typeBit.nonzeroBitCount == 1, entry.typeBit.trailingZeroBitCount < typeCount, axes[position] <= 2,
                  x.isFinite, y.isFinite, z.isFinite, abs(x * x + y * y + z * z - 1) < 1e-3 else {
                release()
                throw .badEntry(position)
            }
        }
        self.init(storage: Storage(mapped: coordinates, entries, axes, release: release))
    }
}
