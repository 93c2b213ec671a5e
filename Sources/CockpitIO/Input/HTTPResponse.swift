/// An HTTP/1.1 response to a plain GET, read whole (the request asks the server to close the connection after it):
/// the status, the headers the poller uses, and the body — by `Content-Length`, chunked, or up to the close (RFC 9112
/// §6.3). Pure: bytes in, the body or why there is none out.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    /// The `Date` and `Last-Modified` headers as Unix seconds (both on the server's clock), when given as RFC 9110's
    /// IMF-fixdate.
    public var dateSeconds: Int?
    public var lastModifiedSeconds: Int?

    /// How old the document was when the server sent it, by the server's own clock; nil without both headers.
    public var documentAgeSeconds: Int? {
        guard let dateSeconds, let lastModifiedSeconds else { return nil }
        return dateSeconds - lastModifiedSeconds
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case notHTTP
        case status(Int, String)
        case cutShort
        case badChunk
        case encoded(String)

        public var description: String {
            switch self {
            case .notHTTP: "the answer is not HTTP"
            case .status(let code, let reason): "HTTP \(code)" + (reason.isEmpty ? "" : " \(reason)")
            case .cutShort: "the answer ends before its body does"
            case .badChunk: "a malformed chunk in the answer"
            case .encoded(let coding): "the answer is \(coding)-encoded"
            }
        }
    }

    /// The response in `bytes` (everything read up to the close); a status other than 200 is a failure.
    public static func parse(_ bytes: [UInt8]) -> Result<HTTPResponse, Failure> {
        guard let headerEnd = find(bytes, [0x0D, 0x0A, 0x0D, 0x0A], from: 0) else { return .failure(bytes.count > 5 && startsHTTP(bytes) ? .cutShort : .notHTTP) }
        let head = String(decoding: bytes[0..<headerEnd], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3, let status = Int(parts[1]) else {
            return .failure(.notHTTP)
        }
        guard status == 200 else { return .failure(.status(status, parts.count > 2 ? String(parts[2]) : "")) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
        if let coding = headers["content-encoding"], coding.lowercased() != "identity" { return .failure(.encoded(coding)) }
        let rest = Array(bytes[(headerEnd + 4)...])
        var body: [UInt8]
        if headers["transfer-encoding"]?.lowercased().hasSuffix("chunked") == true {
            guard let decoded = dechunk(rest) else { return .failure(.badChunk) }
            body = decoded
        } else if let lengthText = headers["content-length"] {
            guard let length = Int(lengthText), length >= 0 else { return .failure(.notHTTP) }
            guard rest.count >= length else { return .failure(.cutShort) }
            body = Array(rest[0..<length])
        } else {
            body = rest
        }
        return .success(HTTPResponse(status: status, body: body, dateSeconds: headers["date"].flatMap(imfFixdate),
                                     lastModifiedSeconds: headers["last-modified"].flatMap(imfFixdate)))
    }

    private static func startsHTTP(_ bytes: [UInt8]) -> Bool { Array(bytes.prefix(5)) == Array("HTTP/".utf8) }

    private static func find(_ bytes: [UInt8], _ needle: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && Array(bytes[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }

    /// The chunked body's data; nil when a chunk is malformed or the last (zero) chunk never comes.
    static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
        var body: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = find(bytes, [0x0D, 0x0A], from: index) else { return nil }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            let trimmed = sizeText.trimmingCharacters(" \t")
            guard !trimmed.isEmpty, trimmed.utf8.count <= 8, let size = Int(trimmed, radix: 16) else { return nil }
            index = lineEnd + 2
            if size == 0 { return body }
            guard index + size + 2 <= bytes.count, bytes[index + size] == 0x0D, bytes[index + size + 1] == 0x0A else { return nil }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size + 2
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` → Unix seconds (RFC 9110 §5.6.7); nil for any other form.
    static func imfFixdate(_ text: String) -> Int? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), parts[1].count == 2, let year = Int(parts[3]),
              let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].firstIndex(of: String(parts[2])) else {
            return nil
        }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
              (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        return daysFromCivil(year: year, month: month + 1, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

private extension Substring {
    func trimmingCharacters(_ set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
