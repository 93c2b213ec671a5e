import Synchronization
import CockpitCore
public import CockpitIO
import CockpitWire

/// Polls an `aircraft.json` (an `http://` URL or a file) on a thread of its own, every `intervalSeconds` from the
/// start of one poll to the next, and hands each document's lines (`AircraftJSONFramer`: one per aircraft heard since
/// the last poll) to the core's loop as `adsb-json` lines, all stamped with the instant the document was read —
/// recorded verbatim and decoded by the same code in replay.
///
/// The link is `connected` from the first document read and `disconnected` with the reason when a poll fails (no
/// answer, an HTTP error, no such file, too large) or the document is stale: written longer ago than the source's
/// staleness limit (a file's modification time against this machine's clock; an HTTP server's `Last-Modified`
/// against its own `Date`), or its `now` unchanged for that long (the writer stopped; dump1090 rewrites it every
/// second). A stale document gives no lines: its aircraft are not current.
public final class AircraftJSONPoller: LiveInput {
    public static let source = ADSBJSONWireDecoder.source
    public let location: DocumentLocation
    public let intervalSeconds: Double
    private let context: LiveInputContext
    private let stopSignal = StopSignal()

    public init(location: DocumentLocation, intervalSeconds: Double, context: LiveInputContext) {
        self.location = location
        self.intervalSeconds = intervalSeconds
        self.context = context
    }

    public func start() {
        do {
            try BackgroundThread.start(name: "adsb-json-poll") { [self] in run() }
        } catch {
            context.submit(.lineSourceLink(source: Self.source, .disconnected(reason: error.description)))
        }
    }

    public func stop() { stopSignal.stop() }

    private func run() {
        var state = PollState(staleAfterSeconds: RadioSourceKind.adsbJSON.staleAfterSeconds)
        let timeoutSeconds = min(max(2, intervalSeconds), 10)
        while !stopSignal.isStopped {
            let started = monotonicSeconds()
            let fetched = DocumentFetch.fetch(location, defaultFileName: "aircraft.json",
                                              maximumBytes: AircraftJSONFramer.maximumDocumentBytes, timeoutSeconds: timeoutSeconds)
            if stopSignal.isStopped { break }
            let read = context.now()
            let outcome = state.take(fetched, at: started, location: location)
            let source = Self.source, deliver = context.deliverer, endpoint = location.description
            context.loop.execute {
                if let link = outcome.link {
                    let change: LineSourceLink = switch link {
                    case .connected: .connected(endpoint: endpoint)
                    case .disconnected(let reason): .disconnected(reason: reason)
                    }
                    deliver(TimedInput(time: read, input: .lineSourceLink(source: source, change)))
                }
                for line in outcome.lines { deliver(TimedInput(time: read, input: .line(source: source, text: line))) }
            }
            stopSignal.wait(seconds: max(0, intervalSeconds - (monotonicSeconds() - started)))
        }
    }
}

/// What one poll means, kept apart from the thread: the framer, whether the link is up, and since when the
/// document's `now` has stood still.
struct PollState {
    enum Link: Equatable {
        case connected
        case disconnected(String)
    }

    let staleAfterSeconds: Double
    var framer = AircraftJSONFramer()
    /// The link as last said; nil before the first poll.
    var link: Link?
    var unchangedNow: (now: Double, since: Double)?

    init(staleAfterSeconds: Double) { self.staleAfterSeconds = staleAfterSeconds }

    /// The link change to say (if any) and the lines to hand on, for one fetch made at `at` (monotonic seconds).
    mutating func take(_ fetched: Result<FetchedDocument, DocumentFetch.FetchError>, at: Double,
                       location: DocumentLocation) -> (link: Link?, lines: [String]) {
        switch fetched {
        case .failure(let error):
            return (say(.disconnected(error.reason)), [])
        case .success(let document):
            if let age = document.ageSeconds, age > staleAfterSeconds {
                return (say(.disconnected("\(location) was last written \(Int(age)) s ago")), [])
            }
            let lines = framer.lines(of: document.bytes, ageSeconds: document.ageIsExact ? document.ageSeconds.map { max(0, $0) } : nil)
            if let now = framer.documentNow {
                if let unchanged = unchangedNow, unchanged.now == now {
                    if at - unchanged.since > staleAfterSeconds {
                        return (say(.disconnected("\(location) has not been rewritten for \(Int(at - unchanged.since)) s")), [])
                    }
                } else {
                    unchangedNow = (now, at)
                }
            }
            return (say(.connected), lines)
        }
    }

    /// `link` when it differs from what was said last; a disconnection is said once until the link is up again.
    private mutating func say(_ new: Link) -> Link? {
        guard new != link else { return nil }
        if case .disconnected = new, case .disconnected = link { return nil }
        link = new
        return new
    }
}

private func monotonicSeconds() -> Double { MonotonicClock.now().seconds }
