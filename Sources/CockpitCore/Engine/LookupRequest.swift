/// A question the core cannot answer itself because the answer is in a file (the airfield database, terrain tiles).
/// The core asks it as an effect; the shell answers at once, at the same instant, with the event the request names, so
/// a replay with the same files hears the same answers. A run without a service for a question still answers it: with
/// `unanswered`, which says why (the status then shows it).
public protocol LookupRequest: Sendable {
    associatedtype Answer: Sendable
    /// The event that carries an answer back into the core.
    static func event(answering answer: Answer) -> Event
    /// The answer when this run has no service for the question.
    var unanswered: Answer { get }
}

extension Effect {
    /// The question this effect asks the shell, nil for every other effect. Every case is listed: a new lookup effect
    /// does not compile until it is named here, and the runner then answers it with no change of its own.
    public var lookupRequest: (any LookupRequest)? {
        switch self {
        case .lookupAirfields(let lookup): lookup
        case .lookupGlide(let lookup): lookup
        case .log, .alert, .flightTransition, .sendDatagram, .announce, .cancelAnnouncement, .trafficEncounter, .forwardUplink: nil
        }
    }
}
