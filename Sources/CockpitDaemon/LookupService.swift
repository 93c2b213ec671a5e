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
///
/// Each service is held twice: as itself (for `service(_:)`) and as an `Answerer` of its question's type, which
/// `answerEvent` takes back under that type without a cast. A cast to `any LookupService<Request>` would go through the
/// runtime's check of a constrained existential (a mangled-name lookup and the generic requirements, each time):
/// about 5,400 instructions per fix in the replay that docs/performance.md measures.
public struct LookupServices {
    private var entries: [Entry] = []

    private struct Entry {
        let question: ObjectIdentifier
        let service: AnyObject
        /// An `Answerer<Question>`, where `question` is `ObjectIdentifier(Question.self)`.
        let answerer: AnyObject
    }

    public init() {}

    /// Registers `service` for its kind of question (replacing any service registered for it before).
    public mutating func register<Service: LookupService>(_ service: Service) {
        let question = ObjectIdentifier(Service.Request.self)
        entries.removeAll { $0.question == question }
        entries.append(Entry(question: question, service: service, answerer: Answerer<Service.Request>(service.answer)))
    }

    /// The service of this type, if one is registered (a control request reads the airfield database through it).
    public func service<Service: LookupService>(_ type: Service.Type) -> Service? {
        let question = ObjectIdentifier(Service.Request.self)
        return entries.first { $0.question == question }?.service as? Service
    }

    /// The answer to `request` as the event that carries it back to the core.
    public func answer(_ request: any LookupRequest) -> Event { answerEvent(request) }

    private func answerEvent<Request: LookupRequest>(_ request: Request) -> Event {
        let question = ObjectIdentifier(Request.self)
        for entry in entries where entry.question == question {
            // `register` stored an `Answerer<Request>` under this question's type, and nothing else.
            return Request.event(answering: unsafeDowncast(entry.answerer, to: Answerer<Request>.self).answer(request))
        }
        return Request.event(answering: request.unanswered)
    }
}

/// One service's `answer`, under the type of the question it answers.
private final class Answerer<Request: LookupRequest> {
    let answer: (Request) -> Request.Answer
    init(_ answer: @escaping (Request) -> Request.Answer) { self.answer = answer }
}
