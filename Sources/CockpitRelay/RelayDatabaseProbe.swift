import Glibc
public import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Why the database cannot be used, in words: the connection pool retries a failed connection quietly until the
/// caller's deadline, which then could only say "no answer". One connection of its own, opened before the pool is
/// used, says which: connection refused, host not found, the server without TLS where it is required, a certificate
/// not accepted, authentication refused, the database missing. A failure that waiting cannot mend (authentication,
/// a missing database, TLS) is reported at once; one that can (refused: the server may be starting) is tried again
/// every half second until the deadline, and the last reason is reported.
public enum RelayDatabaseProbe {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        /// Waiting does not mend it.
        public var lasting: Bool
    }

    /// Tries to open a session until it works (nil), a lasting failure, or `deadlineSeconds`.
    public static func check(_ url: RelayDatabaseURL, deadlineSeconds: Double, logger: Logger) async -> Failure? {
        let start = NIODeadline.now()
        let deadline = start + .milliseconds(Int64(deadlineSeconds * 1000))
        var last: Failure?
        var attempts = 0
        while NIODeadline.now() < deadline, !Task.isCancelled {
            let remaining = Double((deadline - NIODeadline.now()).nanoseconds) / 1e9
            attempts += 1
            guard let failure = await attempt(url, timeoutSeconds: max(0.1, remaining), logger: logger) else { return nil }
            if failure.lasting { return failure }
            last = failure
            guard NIODeadline.now() + .milliseconds(500) < deadline else { break }
            try? await Task.sleep(nanoseconds: 500_000_000)
        }
        let waited = Int((Double((NIODeadline.now() - start).nanoseconds) / 1e9).rounded())
        let reason = last?.description ?? "no answer from the database"
        return Failure(description: "\(reason) (\(attempts) attempts in \(waited) s)", lasting: false)
    }

    /// One connection, closed again at once.
    static func attempt(_ url: RelayDatabaseURL, timeoutSeconds: Double, logger: Logger) async -> Failure? {
        let tls: PostgresConnection.Configuration.TLS
        do { tls = try url.connectionTLS() } catch { return Failure(description: "TLS: \(error)", lasting: true) }
        var settings = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user, password: url.password,
                                                        database: url.database, tls: tls)
        settings.options.connectTimeout = .milliseconds(Int64(min(timeoutSeconds, 10) * 1000))
        let configuration = settings
        do {
            let connection = try await RelayStore.withDeadline(timeoutSeconds, "connecting to \(url.host):\(url.port)") {
                try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                     id: 1, logger: logger).get()
            }
            try? await connection.close()
            return nil
        } catch {
            return describe(error, url: url)
        }
    }

    /// The reason in words, with the host, port, user and database it concerns.
    public static func describe(_ error: any Error, url: RelayDatabaseURL) -> Failure {
        let place = "\(url.host):\(url.port)"
        if let timeout = error as? RelayStoreTimeout {
            return Failure(description: "\(place) accepted the connection but did not answer within \(Int(timeout.seconds.rounded())) s",
                           lasting: false)
        }
        guard let psql = error as? PSQLError else { return Failure(description: "\(place): \(error)", lasting: false) }
        switch psql.code {
        case .connectionError:
            return connectionFailure(psql.underlying, place: place, host: url.host)
        case .sslUnsupported:
            return Failure(description: "\(place) does not offer TLS, and sslmode=\(url.sslMode.rawValue) requires it", lasting: true)
        case .failedToAddSSLHandler:
            return Failure(description: "TLS to \(place) could not be set up: \(psql.underlying.map { "\($0)" } ?? "unknown reason")", lasting: true)
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return Failure(description: "authentication as \(url.user) at \(place) failed (\(psql.code); the URL has "
                           + "\(url.password == nil ? "no password" : "a password"))", lasting: true)
        case .server:
            let state = psql.serverInfo?[.sqlState] ?? "", message = psql.serverInfo?[.message] ?? "no message"
            switch state {
            case "3D000":
                return Failure(description: "the database \"\(url.database)\" does not exist at \(place) (\(message))", lasting: true)
            case "28P01", "28000":
                return Failure(description: "authentication as \(url.user) refused by \(place): \(message)", lasting: true)
            case "57P03", "53300", "53000":
                return Failure(description: "\(place) is not taking connections yet: \(message)", lasting: false)
            default:
                return Failure(description: "\(place) refused the session: \(message) (SQLSTATE \(state))", lasting: true)
            }
        default:
            return Failure(description: "\(place): \(psql.code)\(psql.underlying.map { ": \($0)" } ?? "")", lasting: false)
        }
    }

    static func connectionFailure(_ underlying: (any Error)?, place: String, host: String) -> Failure {
        if let failure = underlying as? NIOConnectionError {
            if failure.connectionErrors.isEmpty, failure.dnsAError != nil || failure.dnsAAAAError != nil {
                return Failure(description: "the host \(host) was not found (DNS: \(failure.dnsAError ?? failure.dnsAAAAError!))", lasting: false)
            }
            if let first = failure.connectionErrors.first?.error { return connectionFailure(first, place: place, host: host) }
        }
        if let io = underlying as? IOError {
            let reason = io.errnoCode == ECONNREFUSED ? "connection refused (nothing listens on that port)"
                : String(cString: strerror(io.errnoCode))
            return Failure(description: "\(place): \(reason)", lasting: false)
        }
        if let channel = underlying as? ChannelError, case .connectTimeout(let amount) = channel {
            let seconds = Int((Double(amount.nanoseconds) / 1e9).rounded())
            return Failure(description: "\(place) did not answer the connection within \(seconds) s", lasting: false)
        }
        if let tls = underlying as? NIOSSLError {
            return Failure(description: "TLS with \(place) failed: \(tls) (the server's certificate not accepted?)", lasting: true)
        }
        if let tls = underlying as? BoringSSLError {
            return Failure(description: "TLS with \(place) failed: \(tls)", lasting: true)
        }
        return Failure(description: "\(place): \(underlying.map { "\($0)" } ?? "connection failed")", lasting: false)
    }
}
