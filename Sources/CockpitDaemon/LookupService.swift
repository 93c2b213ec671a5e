public import CockpitCore

/// Answers one kind of the core's questions (`LookupRequest`) from files: the airfield database, terrain tiles. On the
/// runner's thread, at once: the runner feeds the answer back as an event at the instant the question was asked.
public protocol LookupService<Request>: AnyObject {
    associatedtype Request: LookupRequest
    func answer(_ request: Request) -> Request.Answer
}

/// The runner's lookup services, one per kind of question, each kept under the type of the question it answers.
/// Registering a service is all a new lookup needs of the runner; a question without a service gets its request's
/// `unanswered`.
public struct LookupServices {
    private var services: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    /// Registers `service` for its kind of question (replacing any service registered for it before).
    public mutating func register<Service: LookupService>(_ service: Service) {
        services[ObjectIdentifier(Service.Request.self)] = service
    }

    /// The service of this type, if one is registered (a control request reads the airfield database through it).
    public func service<Service: LookupService>(_ type: Service.Type) -> Service? {
        services[ObjectIdentifier(Service.Request.self)] as? Service
    }

    /// The answer to `request` as the event that carries it back to the core.
    public func answer(_ request: any LookupRequest) -> Event { answerEvent(request) }

    private func answerEvent<Request: LookupRequest>(_ request: Request) -> Event {
        let service = services[ObjectIdentifier(Request.self)] as? any LookupService<Request>
        return Request.event(answering: service?.answer(request) ?? request.unanswered)
    }
}
