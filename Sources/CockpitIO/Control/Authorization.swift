import Glibc

/// Who may send mutating requests: root, and members of the control group (default `cockpit`) — by the peer's
/// credentials from SO_PEERCRED, never by anything the client says.
public struct ControlAuthorization: Sendable {
    public let groupName: String
    public let groupID: UInt32?

    public init(groupName: String = "cockpit") {
        self.groupName = groupName
        groupID = groupName.withCString { name in getgrnam(name).map { $0.pointee.gr_gid } }
    }

    public func mayMutate(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        if peer.uid == 0 { return true }
        guard let groupID else { return false }
        if peer.gid == groupID { return true }
        // Supplementary groups of the peer's user.
        guard let user = getpwuid(peer.uid) else { return false }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: 64)
        let primary = user.pointee.pw_gid
        if getgrouplist(user.pointee.pw_name, primary, &groups, &count) < 0 { return false }
        return groups.prefix(Int(count)).contains(groupID)
    }
}
