import Glibc

/// A file, directory or port that one setting makes the daemon use, and how. Each capability's settings group
/// declares its own (`SettingsGroup.claims`); `ResourceClaims.problems` refuses two claims on the same thing where
/// either one writes, or both listen, before anything is opened. `--record` truncates its file: pointed at the
/// configuration file, the flight log or a replay's own input, it would destroy them.
public struct ResourceClaim: Sendable, Equatable {
    public enum Resource: Sendable, Equatable {
        /// A file or a directory, by its path.
        case file(String)
        case udpPort(Int)
    }

    public enum Use: Sendable, Equatable {
        case reads, writes, listens
    }

    /// The setting's key (the configuration-file key, the option without its dashes; `replay input` for a replay's file).
    public var option: String
    public var resource: Resource
    public var use: Use

    public init(option: String, resource: Resource, use: Use) {
        self.option = option
        self.resource = resource
        self.use = use
    }

    public static func reads(_ option: String, file path: String?) -> [ResourceClaim] {
        path.map { [ResourceClaim(option: option, resource: .file($0), use: .reads)] } ?? []
    }

    public static func writes(_ option: String, file path: String?) -> [ResourceClaim] {
        path.map { [ResourceClaim(option: option, resource: .file($0), use: .writes)] } ?? []
    }

    public static func listens(_ option: String, udpPort port: Int?) -> [ResourceClaim] {
        port.map { [ResourceClaim(option: option, resource: .udpPort($0), use: .listens)] } ?? []
    }
}

public enum ResourceClaims {
    /// One line per pair of claims that collide, naming both settings.
    public static func problems(_ claims: [ResourceClaim]) -> [String] {
        let identities = claims.map { identity(of: $0.resource) }
        var problems: [String] = []
        for first in claims.indices {
            for second in claims.indices where second > first {
                let a = claims[first], b = claims[second]
                guard identities[first] == identities[second] else { continue }
                switch (a.use, b.use) {
                case (.reads, .reads), (.reads, .listens), (.listens, .reads), (.writes, .listens), (.listens, .writes):
                    continue
                case (.listens, .listens):
                    problems.append("\(a.option) and \(b.option) both listen on \(describe(a.resource)): the second cannot bind it")
                case (.writes, .writes):
                    problems.append("\(a.option) \(describe(a.resource)) and \(b.option) \(describe(b.resource)) are the same file: "
                                    + "each would write over the other; give them different files")
                case (.writes, .reads):
                    problems.append(overwrite(writer: a, reader: b))
                case (.reads, .writes):
                    problems.append(overwrite(writer: b, reader: a))
                }
            }
        }
        return problems
    }

    private static func overwrite(writer: ResourceClaim, reader: ResourceClaim) -> String {
        let written = describe(writer.resource), read = describe(reader.resource)
        return "\(writer.option) \(written) is also the \(reader.option) file\(read == written ? "" : " (\(read))"): "
            + "cockpitd would write over it; give \(writer.option) another file"
    }

    private static func describe(_ resource: ResourceClaim.Resource) -> String {
        switch resource {
        case .file(let path): path
        case .udpPort(let port): "UDP port \(port)"
        }
    }

    /// What makes two claims name the same thing: for an existing file or directory its device and inode (a symbolic
    /// or hard link to the flight log is the flight log); for one not created yet, the absolute path with its
    /// directory resolved; for a port, its number.
    enum Identity: Equatable {
        case inode(device: UInt64, inode: UInt64)
        case path(String)
        case udpPort(Int)
    }

    static func identity(of resource: ResourceClaim.Resource) -> Identity {
        switch resource {
        case .udpPort(let port):
            return .udpPort(port)
        case .file(let path):
            var info = stat()
            if stat(path, &info) == 0 { return .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let parent = SettingPath.parent(path)
            guard let resolved = realpath(parent, nil) else { return .path(absolute(path)) }
            defer { free(resolved) }
            let directory = String(cString: resolved)
            return .path(directory == "/" ? "/" + name : directory + "/" + name)
        }
    }

    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }
}
