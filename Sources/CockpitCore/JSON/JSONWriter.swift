/// Compact, deterministic JSON text. Non-finite numbers become null (JSON has no NaN).
public enum JSONWriter {
    public static func string(_ value: JSONValue) -> String {
        var out = ""
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    public static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .number(let d): writeNumber(d, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    static func writeNumber(_ d: Double, into out: inout String) {
        guard d.isFinite else { out += "null"; return }
        if d == d.rounded(), abs(d) < 1e15 {
            out += String(Int64(d))
        } else {
            // Swift prints the shortest text that reads back to the same Double.
            out += d.description
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        var needsEscaping = false
        for unit in s.utf8 where unit < 0x20 || unit == 0x22 || unit == 0x5C {
            needsEscaping = true
            break
        }
        if !needsEscaping {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
