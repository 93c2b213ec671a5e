import Testing
import CockpitIO
@testable import CockpitDaemon

/// What one poll of `aircraft.json` means for the `adsb-json` link: connected from the first document, the reason
/// said once when a read fails, and a document that is stale (written over 20 s before it was read, or its `now`
/// standing still for 20 s) gives no traffic.
@Suite struct AircraftJSONPollStateTests {
    static let location = DocumentLocation.file(path: "/run/dump1090/aircraft.json")

    static func document(now: Double, seen: Double = 0.5, ageSeconds: Double? = 0.3) -> Result<FetchedDocument, DocumentFetch.FetchError> {
        let text = #"{"now":\#(now),"aircraft":[{"hex":"4d2023","seen":\#(seen),"altitude":20025}]}"#
        return .success(FetchedDocument(bytes: Array(text.utf8), ageSeconds: ageSeconds, ageIsExact: true))
    }

    @Test func theLinkFollowsTheReadsAndAStaleDocumentGivesNoTraffic() {
        var state = PollState(staleAfterSeconds: 20)
        let first = state.take(Self.document(now: 1_000), at: 0, location: Self.location)
        #expect(first.link == .connected && first.lines.count == 1 && first.lines[0].contains(#""age":0.3"#))
        // The next second: a new message, no new link state.
        let second = state.take(Self.document(now: 1_001, seen: 0.2), at: 1, location: Self.location)
        #expect(second.link == nil && second.lines.count == 1)
        // A failed read is said once, with its reason.
        let failed = state.take(.failure(DocumentFetch.FetchError("cannot open x: No such file or directory")), at: 2, location: Self.location)
        #expect(failed.link == .disconnected("cannot open x: No such file or directory") && failed.lines.isEmpty)
        #expect(state.take(.failure(DocumentFetch.FetchError("again")), at: 3, location: Self.location).link == nil)
        // Back, then the writer stops: the same `now` for over 20 s is stale, and says so.
        #expect(state.take(Self.document(now: 1_004), at: 4, location: Self.location).link == .connected)
        #expect(state.take(Self.document(now: 1_004), at: 24, location: Self.location).link == nil)
        let stopped = state.take(Self.document(now: 1_004), at: 24.5, location: Self.location)
        #expect(stopped.link == .disconnected("/run/dump1090/aircraft.json has not been rewritten for 20 s") && stopped.lines.isEmpty)
    }

    @Test func aFileWrittenLongAgoIsNotTraffic() {
        var state = PollState(staleAfterSeconds: 20)
        let old = state.take(Self.document(now: 1_000, ageSeconds: 3_600), at: 0, location: Self.location)
        #expect(old.link == .disconnected("/run/dump1090/aircraft.json was last written 3600 s ago") && old.lines.isEmpty)
    }
}
