public import CockpitIO
public import CockpitProtocol

/// A control request a capability contributes. The daemon keeps a registry of these by name; the socket handler has
/// no per-request switch. Handlers run on the event loop and may use the host (runner, snapshot, services).
public struct RequestHandler: Sendable {
    public let name: String
    /// Mutating requests need root or the control group (checked by the host from SO_PEERCRED before `handle`).
    public let mutating: Bool
    public let handle: @Sendable (ControlProtocol.Request, DaemonHost) -> Result<ControlAnswer, ControlProtocol.Failure>

    public init(_ name: String, mutating: Bool = false,
                handle: @escaping @Sendable (ControlProtocol.Request, DaemonHost) -> Result<ControlAnswer, ControlProtocol.Failure>) {
        self.name = name
        self.mutating = mutating
        self.handle = handle
    }
}
