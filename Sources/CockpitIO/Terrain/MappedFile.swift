import Glibc

/// A read-only memory-mapped file: only the pages that are read become resident.
final class MappedFile {
    let pointer: UnsafeRawPointer
    let count: Int

    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else { return nil }
        pointer = UnsafeRawPointer(mapped)
        count = size
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: pointer), count) }

    @inline(__always) func bigEndianInt16(at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(pointer.load(fromByteOffset: offset, as: UInt8.self)) << 8
              | UInt16(pointer.load(fromByteOffset: offset + 1, as: UInt8.self)))
    }

    @inline(__always) func bigEndianUInt32(at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value = value << 8 | UInt32(pointer.load(fromByteOffset: offset + index, as: UInt8.self)) }
        return value
    }

    @inline(__always) func bigEndianFloat64(at offset: Int) -> Double {
        var value: UInt64 = 0
        for index in 0..<8 { value = value << 8 | UInt64(pointer.load(fromByteOffset: offset + index, as: UInt8.self)) }
        return Double(bitPattern: value)
    }
}
