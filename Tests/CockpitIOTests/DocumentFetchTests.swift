import Glibc
import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitIO

/// The `adsb-json` poller's reads: the hand-written HTTP/1.1 GET against Python's `http.server`, a file and a folder,
/// and the response parser against RFC 9112's and RFC 9110's own examples.
@Suite("Polled documents: HTTP GET and files", .serialized)
struct DocumentFetchTests {
    static let london = Fixtures.path("radio-traffic/readsb/dump1090mqtt.aircraft.json")

    /// RFC 9110 §5.6.7's example date is 784,111,777 s after the epoch (1994-11-06 08:49:37 UTC).
    @Test func parsesLengthChunkedAndDates() throws {
        let plain = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nDate: Sun, 06 Nov 1994 08:49:39 GMT\r\nLast-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\nhello and more".utf8)
        let response = try HTTPResponse.parse(plain).get()
        #expect(response.body == Array("hello".utf8) && response.lastModifiedSeconds == 784_111_777 && response.documentAgeSeconds == 2)
        // RFC 9112 §7.1's chunked form: sizes in hex, a chunk extension, the last chunk 0, a trailer section.
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n6;ext=1\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\n\r\n".utf8)
        #expect(try HTTPResponse.parse(chunked).get().body == Array("Wikipedia in \r\n\r\nchunks.".utf8))
        let toClose = Array("HTTP/1.0 200 OK\r\nServer: x\r\n\r\n{\"now\":1}".utf8)
        #expect(try HTTPResponse.parse(toClose).get().body == Array("{\"now\":1}".utf8))
        #expect(HTTPResponse.parse(Array("HTTP/1.1 404 Not Found\r\n\r\n".utf8)) == .failure(.status(404, "Not Found")))
        #expect(HTTPResponse.parse(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8)) == .failure(.notHTTP))
        #expect(HTTPResponse.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort".utf8)) == .failure(.cutShort))
        #expect(HTTPResponse.parse(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8)) == .failure(.badChunk))
        #expect(HTTPResponse.parse(Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".utf8)) == .failure(.encoded("gzip")))
        #expect(HTTPResponse.imfFixdate("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }

    @Test func getsADocumentFromARealHTTPServer() throws {
        let folder = temporaryPath("-http")
        mkdir(folder, 0o755)
        mkdir(folder + "/data", 0o755)
        let copy = folder + "/data/aircraft.json"
        let bytes = try FixtureFile.bytes(Self.london)
        #expect(writeBytes(bytes, to: copy))
        defer { unlink(copy); rmdir(folder + "/data"); rmdir(folder) }
        let server = PythonHTTPServer(directory: folder)
        #expect(server.start(), "python3 -m http.server does not start")
        defer { server.stop() }

        let location = try #require(DocumentLocation(parsing: server.url("data/aircraft.json")))
        let fetched = try DocumentFetch.fetch(location, defaultFileName: "aircraft.json", maximumBytes: 1 << 20, timeoutSeconds: 5).get()
        #expect(fetched.bytes == bytes)
        // Written a moment ago: its server's Date minus Last-Modified is 0 or 1 whole seconds.
        #expect((0...2).contains(fetched.ageSeconds ?? -1) && !fetched.ageIsExact)

        let missing = try #require(DocumentLocation(parsing: server.url("data/none.json")))
        let notFound = DocumentFetch.fetch(missing, defaultFileName: "aircraft.json", maximumBytes: 1 << 20, timeoutSeconds: 5)
        #expect(notFound.failureReason?.hasSuffix("HTTP 404 File not found") == true, "\(notFound.failureReason ?? "")")
        let small = DocumentFetch.fetch(location, defaultFileName: "aircraft.json", maximumBytes: 1_000, timeoutSeconds: 5)
        #expect(small.failureReason?.contains("larger than 1000 bytes") == true)
        server.stop()
        let gone = DocumentFetch.fetch(location, defaultFileName: "aircraft.json", maximumBytes: 1 << 20, timeoutSeconds: 5)
        #expect(gone.failureReason?.hasPrefix("cannot connect to 127.0.0.1:\(server.port)") == true, "\(gone.failureReason ?? "")")
    }

    /// A silent server (accepts, never answers) costs one timeout, not a hung poller.
    @Test func aSilentServerTimesOut() throws {
        let listener = loopbackTCPListener(backlog: 4)
        defer { close(listener.descriptor) }
        let location = try #require(DocumentLocation(parsing: "http://127.0.0.1:\(listener.port)/data/aircraft.json"))
        let started = MonotonicClock.now()
        let result = DocumentFetch.fetch(location, defaultFileName: "aircraft.json", maximumBytes: 1 << 20, timeoutSeconds: 0.5)
        let seconds = MonotonicClock.now().seconds(since: started)
        #expect(result.failureReason?.contains("within 0.5 s") == true, "\(result.failureReason ?? "")")
        #expect(seconds >= 0.45 && seconds < 2)
    }

    @Test func readsAFileOrDump1090sFolder() throws {
        let folder = temporaryPath("-json")
        mkdir(folder, 0o755)
        let bytes = try FixtureFile.bytes(Self.london)
        #expect(writeBytes(bytes, to: folder + "/aircraft.json"))
        defer { unlink(folder + "/aircraft.json"); rmdir(folder) }
        for text in [folder, folder + "/", folder + "/aircraft.json"] {
            let fetched = try DocumentFetch.fetch(try #require(DocumentLocation(parsing: text)), defaultFileName: "aircraft.json",
                                                  maximumBytes: 1 << 20, timeoutSeconds: 1).get()
            #expect(fetched.bytes == bytes && fetched.ageIsExact && (0...5).contains(fetched.ageSeconds ?? -1))
        }
        let missing = DocumentFetch.fetch(.file(path: folder + "/none.json"), defaultFileName: "aircraft.json", maximumBytes: 1 << 20, timeoutSeconds: 1)
        #expect(missing.failureReason == "cannot open \(folder)/none.json: No such file or directory")
        #expect(DocumentLocation(parsing: "https://example.org/data/aircraft.json") == nil)
        #expect(DocumentLocation(parsing: "data/aircraft.json") == nil)
        #expect(DocumentLocation(parsing: "http://piaware/data/aircraft.json")?.description == "http://piaware:80/data/aircraft.json")
    }
}

private func writeBytes(_ bytes: [UInt8], to path: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    defer { fclose(file) }
    return bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) } == bytes.count
}

private extension Result where Failure == DocumentFetch.FetchError {
    var failureReason: String? { if case .failure(let error) = self { return error.reason }; return nil }
}
