public import CockpitCore
public import CockpitIO
public import CockpitProtocol
import NIOCore

/// A control request a capability contributes. The daemon keeps a registry of these by name; the socket handler has
/// no per-request switch. Handlers run on the event loop with a `RequestContext`: what a request may read and do. One
/// whose work reads a file that may be large (the flight log) hands that work to the request worker, so the loop — the
/// GPS, the outputs, the other clients — never waits for it.
public struct RequestHandler: Sendable {
    public typealias Answer = Result<ControlAnswer, ControlProtocol.Failure>
    /// Work that runs off the event loop: it must not touch the context, only what `prepare` took from it.
    public typealias Work = @Sendable () -> Answer

    public let name: String
    /// Mutating requests need root or the control group (checked by the host from SO_PEERCRED before `handle`).
    public let mutating: Bool
    let run: @Sendable (ControlProtocol.Request, RequestContext) -> ControlReply

    /// A request answered on the loop, at once.
    public init(_ name: String, mutating: Bool = false,
                handle: @escaping @Sendable (ControlProtocol.Request, RequestContext) -> Answer) {
        self.name = name
        self.mutating = mutating
        self.run = { request, context in .now(handle(request, context)) }
    }

    /// A request answered later: `prepare` runs on the loop (it checks the arguments and takes what the work needs
    /// from the context, or fails at once); the work it returns runs on the request worker's thread.
    public init(_ name: String, mutating: Bool = false,
                offLoop prepare: @escaping @Sendable (ControlProtocol.Request, RequestContext) -> Result<Work, ControlProtocol.Failure>) {
        self.name = name
        self.mutating = mutating
        self.run = { request, context in
            switch prepare(request, context) {
            case .failure(let failure): .now(.failure(failure))
            case .success(let work): .later(context.submit(work, id: request.id))
            }
        }
    }
}

/// What a control request may see and do, and nothing more: the status and the core's state read-only, the pilot's
/// commands (fed to the core as recorded inputs, so a replay repeats them), the airfield database, and an output
/// found by its type. Valid on the event loop, for the one request it was made for.
public struct RequestContext: Sendable {
    private let host: DaemonHost

    init(host: DaemonHost) { self.host = host }

    /// The status as of now.
    public var snapshot: StatusSnapshot { host.runner.snapshot }
    /// The core's state as of now (read-only: a request changes it only through `command`).
    public var engine: Engine { host.runner.engine }
    /// The airfield database's service (nil: none configured).
    public var airfields: AirfieldService? { host.runner.lookupServices.service(AirfieldService.self) }

    /// The running output of type `Output`, if the settings made one.
    public func output<Output>(_ type: Output.Type) -> Output? {
        host.runner.outputs.lazy.compactMap { $0 as? Output }.first
    }

    /// Feeds a pilot's command to the core at the current instant (recorded).
    public func command(_ command: Command) { host.ingestCommand(command) }

    /// Mutes the traffic callouts for `seconds` (0: lifts it), recorded.
    public func muteTraffic(seconds: Double) { host.ingestMute(seconds: seconds) }

    /// Sets the MacCready value in flight (m/s), recorded.
    public func setGlideMacCready(metersPerSecond: Double) { host.ingestControl(.glideMacCready(metersPerSecond: metersPerSecond)) }

    func submit(_ work: @escaping RequestHandler.Work, id: JSONValue?) -> EventLoopFuture<ControlReply.Rendered> {
        host.requestWorker.submit(work, id: id)
    }
}
