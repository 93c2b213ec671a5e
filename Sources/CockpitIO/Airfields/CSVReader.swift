/// An RFC 4180 CSV reader over a whole file's bytes: quoted fields with commas, doubled quotes and newlines.
public struct CSVReader: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var index = 0
    public private(set) var lineNumber = 0

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }   // UTF-8 BOM
    }

    /// The next record's fields, or nil at the end.
    public mutating func next() -> [String]? {
        guard index < bytes.count else { return nil }
        lineNumber += 1
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == 0x22 {
                    if index < bytes.count && bytes[index] == 0x22 { field.append(0x22); index += 1 } else { quoted = false }
                } else {
                    if byte == 0x0A { lineNumber += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case 0x22 where field.isEmpty: quoted = true
            case 0x2C:
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case 0x0A:
                if field.last == 0x0D { field.removeLast() }
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            default: field.append(byte)
            }
        }
        if field.last == 0x0D { field.removeLast() }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
