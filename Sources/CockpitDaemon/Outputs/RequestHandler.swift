public import CockpitIO
public import CockpitProtocol

/// A control request a capability contributes. The daemon keeps a registry of these by name; the socket handler has
/// no per-request switch. Handlers run on the event loop and may use the host (runner, snapshot, services); one
/// whose work reads a file that may be large (the flight log) hands that work to `DaemonHost`'s request worker, so
/// the loop — the GPS, the outputs, the other clients — never waits for it.
public struct RequestHandler: Sendable {
    public typealias Answer = Result<ControlAnswer, ControlProtocol.Failure>
    /// Work that runs off the event loop: it must not touch the host, only what `prepare` took from it.
    public typealias Work = @Sendable () -> Answer

    public let name: String
    /// Mutating requests need root or the control group (checked by the host from SO_PEERCRED before `handle`).
    public let mutating: Bool
    let run: @Sendable (ControlProtocol.Request, DaemonHost) -> ControlReply

    /// A request answered on the loop, at once.
    public init(_ name: String, mutating: Bool = false,
                handle: @escaping @Sendable (ControlProtocol.Request, DaemonHost) -> Answer) {
        self.name = name
        self.mutating = mutating
        self.run = { request, host in .now(handle(request, host)) }
    }

    /// A request answered later: `prepare` runs on the loop (it checks the arguments and takes what the work needs
    /// from the host, or fails at once); the work it returns runs on the request worker's thread.
    public init(_ name: String, mutating: Bool = false, offLoop prepare: @escaping @Sendable (ControlProtocol.Request, DaemonHost) -> Result<Work, ControlProtocol.Failure>) {
        self.name = name
        self.mutating = mutating
        self.run = { request, host in
            switch prepare(request, host) {
            case .failure(let failure): .now(.failure(failure))
            case .success(let work): .later(host.requestWorker.submit(work, id: request.id))
            }
        }
    }
}
