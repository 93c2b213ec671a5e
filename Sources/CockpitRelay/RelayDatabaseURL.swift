import NIOSSL
import PostgresNIO

/// `postgres://user[:password]@host[:port]/database[?sslmode=…&sslrootcert=…]`. The two parameters mean what they
/// mean to libpq; any other parameter is refused rather than ignored.
public struct RelayDatabaseURL: Sendable, Equatable {
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    /// libpq's default is `prefer`: TLS when the server offers it.
    public var sslMode = SSLMode.prefer
    /// PEM file of the certificate authorities to check the server's certificate with (otherwise the system's).
    public var rootCertificatePath: String?

    public init?(_ text: String) {
        guard let url = try? Self(parsing: text) else { return nil }
        self = url
    }

    public init(parsing text: String) throws {
        let shape = Problem(description: "\(text): not postgres://user[:password]@host[:port]/database")
        let prefixes = ["postgres://", "postgresql://"]
        guard let prefix = prefixes.first(where: { text.hasPrefix($0) }) else { throw shape }
        var rest = Substring(text.dropFirst(prefix.count))
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard let at = rest.lastIndex(of: "@") else { throw shape }
        let credentials = rest[..<at]
        rest = rest[rest.index(after: at)...]
        if let colon = credentials.firstIndex(of: ":") {
            user = String(credentials[..<colon])
            password = String(credentials[credentials.index(after: colon)...])
        } else {
            user = String(credentials)
            password = nil
        }
        guard let slash = rest.firstIndex(of: "/") else { throw shape }
        let hostPort = rest[..<slash]
        database = String(rest[rest.index(after: slash)...])
        if let colon = hostPort.lastIndex(of: ":") {
            host = String(hostPort[..<colon])
            guard let port = Int(hostPort[hostPort.index(after: colon)...]), port > 0, port < 65_536 else { throw shape }
            self.port = port
        } else {
            host = String(hostPort)
            port = 5432
        }
        guard !user.isEmpty, !host.isEmpty, !database.isEmpty else { throw shape }
        for parameter in query.split(separator: "&") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            let name = String(parts[0]), value = parts.count > 1 ? String(parts[1]) : ""
            switch name {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw Problem(description: "sslmode=\(value): expected one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "sslrootcert":
                guard !value.isEmpty else { throw Problem(description: "sslrootcert: a PEM file is needed") }
                rootCertificatePath = value
            default:
                throw Problem(description: "\(name): not a parameter the relay knows (sslmode and sslrootcert are)")
            }
        }
    }

    /// Whether the TLS the URL asks for can be set up (its `sslrootcert` read); throws the reason otherwise.
    public func checkTLS() throws { _ = try tls() }

    /// The TLS that `sslmode` asks for, as libpq does it: `disable` none; `allow` and `prefer` TLS when the server
    /// offers it, certificate unchecked; `require` TLS or nothing (certificate checked against `sslrootcert` when
    /// given, as libpq does); `verify-ca` the certificate's chain; `verify-full` its chain and the host name.
    func tlsSetting() throws -> (use: TLSUse, configuration: TLSConfiguration) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificatePath {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificatePath))
            } catch {
                throw Problem(description: "sslrootcert=\(rootCertificatePath): cannot read a PEM certificate (\(error))")
            }
        }
        switch sslMode {
        case .disable:
            return (.none, configuration)
        case .allow, .prefer:
            configuration.certificateVerification = .none
            return (.prefer, configuration)
        case .require:
            configuration.certificateVerification = rootCertificatePath == nil ? .none : .noHostnameVerification
            return (.require, configuration)
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
            return (.require, configuration)
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            return (.require, configuration)
        }
    }

    enum TLSUse { case none, prefer, require }

    /// For the connection pool.
    func tls() throws -> PostgresClient.Configuration.TLS {
        let (use, configuration) = try tlsSetting()
        switch use {
        case .none: return .disable
        case .prefer: return .prefer(configuration)
        case .require: return .require(configuration)
        }
    }

    /// For one connection (`RelayDatabaseProbe`).
    func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        let (use, configuration) = try tlsSetting()
        switch use {
        case .none: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: configuration))
        case .require: return .require(try NIOSSLContext(configuration: configuration))
        }
    }
}
