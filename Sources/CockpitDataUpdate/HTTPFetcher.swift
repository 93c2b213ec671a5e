import Foundation
import FoundationNetworking
import Glibc
import Synchronization

/// What a server said about a file the last time it was fetched whole: sent back as If-None-Match and
/// If-Modified-Since, so that an unchanged file costs a 304 and no body.
public struct Validators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// One GET of one URL into a `.part` file.
public struct FetchRequest: Sendable {
    public var url: String
    /// Where the body goes while it arrives; left there only when the whole body came.
    public var partPath: String
    public var validators: Validators?
    /// A body larger than this is refused (by Content-Length before any byte, or as it arrives).
    public var maximumBytes: Int
    /// The whole request, connection to last byte.
    public var deadlineSeconds: Double
    public init(url: String, partPath: String, validators: Validators?, maximumBytes: Int, deadlineSeconds: Double) {
        self.url = url
        self.partPath = partPath
        self.validators = validators
        self.maximumBytes = maximumBytes
        self.deadlineSeconds = deadlineSeconds
    }
}

public enum FetchOutcome: Sendable, Equatable {
    /// 304: the copy we hold is current; nothing was written.
    case notModified
    /// 200: the whole body is in `partPath`, flushed to the disk.
    case fetched(bytes: Int, validators: Validators)
    /// 404: the server has no such file (the tile source has none over open sea).
    case absent
}

public enum FetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case badURL(String)
    case status(Int)
    case tooLarge(limitBytes: Int)
    case truncated(receivedBytes: Int, expectedBytes: Int)
    case timedOut(seconds: Double)
    case transport(String)
    case file(String)

    /// Worth another try: the network or the server may do better next time; a refusal or a limit will not.
    public var isTransient: Bool {
        switch self {
        case .truncated, .timedOut, .transport: true
        case .status(let code): code >= 500 || code == 408 || code == 429
        case .badURL, .tooLarge, .file: false
        }
    }

    public var description: String {
        switch self {
        case .badURL(let url): "not a URL: \(url)"
        case .status(let code): "HTTP status \(code)"
        case .tooLarge(let limit): "larger than the limit of \(limit) bytes"
        case .truncated(let received, let expected): "truncated: \(received) of \(expected) bytes arrived"
        case .timedOut(let seconds): "no answer within \(Int(seconds)) s"
        case .transport(let text): text
        case .file(let text): text
        }
    }
}

/// HTTP GETs through FoundationNetworking's URLSession (libcurl underneath): conditional requests, a size limit, a
/// deadline, the body streamed to a `.part` file that is flushed before it is reported whole. Blocking: the updater
/// is a one-shot command with nothing else to do meanwhile.
public final class HTTPFetcher: Sendable {
    /// Called as bytes arrive (bytes so far in this request), on URLSession's delegate queue.
    public let onBytes: (@Sendable (Int) -> Void)?
    /// Requests sent and body bytes received, over the fetcher's life (what a run cost the network).
    private let totals = Mutex<(requests: Int, bytes: Int)>((0, 0))

    public init(onBytes: (@Sendable (Int) -> Void)? = nil) { self.onBytes = onBytes }

    public var requestsSent: Int { totals.withLock { $0.requests } }
    public var bytesReceived: Int { totals.withLock { $0.bytes } }

    /// One attempt.
    public func fetch(_ request: FetchRequest) -> Result<FetchOutcome, FetchFailure> {
        guard let url = URL(string: request.url), url.scheme == "http" || url.scheme == "https" else {
            return .failure(.badURL(request.url))
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.deadlineSeconds)
        if let etag = request.validators?.etag { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let since = request.validators?.lastModified { urlRequest.setValue(since, forHTTPHeaderField: "If-Modified-Since") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = request.deadlineSeconds
        configuration.timeoutIntervalForResource = request.deadlineSeconds
        let receiver = BodyReceiver(request: request, onBytes: onBytes)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: queue)
        totals.withLock { $0.requests += 1 }
        session.dataTask(with: urlRequest).resume()
        receiver.finished.wait()
        session.finishTasksAndInvalidate()
        let result = receiver.result()
        totals.withLock { $0.bytes += receiver.receivedBytes }
        if case .failure = result { unlink(request.partPath) }
        return result
    }

    /// Up to `tries` attempts, waiting `backoffSeconds`, then twice that, … between them; only transient failures are
    /// tried again. `onRetry` hears each failure that will be retried and the wait before the next try.
    public func fetch(_ request: FetchRequest, tries: Int, backoffSeconds: Double,
                      onRetry: (FetchFailure, Double) -> Void = { _, _ in }) -> Result<FetchOutcome, FetchFailure> {
        var wait = backoffSeconds
        var attempt = 1
        while true {
            let result = fetch(request)
            guard case .failure(let failure) = result, failure.isTransient, attempt < tries else { return result }
            onRetry(failure, wait)
            if wait > 0 { usleep(useconds_t(min(wait, 600) * 1_000_000)) }
            wait *= 2
            attempt += 1
        }
    }
}

/// URLSession's delegate for one request: writes the body to the `.part` file and keeps the verdict.
private final class BodyReceiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Touched only on the session's serial delegate queue until `finished` is signalled, then only by the caller.
    private let request: FetchRequest
    private let onBytes: (@Sendable (Int) -> Void)?
    let finished = DispatchSemaphore(value: 0)
    private var descriptor: Int32 = -1
    private(set) var receivedBytes = 0
    private var expectedBytes: Int64 = -1
    private var statusCode = 0
    private var validators = Validators()
    private var failure: FetchFailure?

    init(request: FetchRequest, onBytes: (@Sendable (Int) -> Void)?) {
        self.request = request
        self.onBytes = onBytes
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            failure = .transport("not an HTTP answer")
            return completionHandler(.cancel)
        }
        statusCode = http.statusCode
        guard statusCode == 200 else { return completionHandler(.cancel) }
        validators = Validators(etag: http.value(forHTTPHeaderField: "ETag"),
                                lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
        // A body sent compressed (Content-Encoding) arrives inflated, so its length is not the header's.
        if http.value(forHTTPHeaderField: "Content-Encoding") == nil { expectedBytes = http.expectedContentLength }
        if expectedBytes > Int64(request.maximumBytes) {
            failure = .tooLarge(limitBytes: request.maximumBytes)
            return completionHandler(.cancel)
        }
        descriptor = open(request.partPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            failure = .file("cannot create \(request.partPath): \(String(cString: strerror(errno)))")
            return completionHandler(.cancel)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil, descriptor >= 0 else { return }
        guard receivedBytes + data.count <= request.maximumBytes else {
            failure = .tooLarge(limitBytes: request.maximumBytes)
            return dataTask.cancel()
        }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { return false }
                offset += result
            }
            return true
        }
        guard written else {
            failure = .file("cannot write \(request.partPath): \(String(cString: strerror(errno)))")
            return dataTask.cancel()
        }
        receivedBytes += data.count
        onBytes?(receivedBytes)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if failure == nil, let error {
            let code = (error as NSError).code
            if code == NSURLErrorTimedOut {
                failure = .timedOut(seconds: request.deadlineSeconds)
            } else if code != NSURLErrorCancelled || statusCode == 200 {
                failure = .transport(error.localizedDescription)
            }
        }
        if descriptor >= 0 {
            if failure == nil && fsync(descriptor) != 0 {
                failure = .file("cannot flush \(request.partPath): \(String(cString: strerror(errno)))")
            }
            close(descriptor)
            descriptor = -1
        }
        finished.signal()
    }

    func result() -> Result<FetchOutcome, FetchFailure> {
        if let failure { return .failure(failure) }
        switch statusCode {
        case 304: return .success(.notModified)
        case 404, 410: return .success(.absent)
        case 200:
            if expectedBytes >= 0 && Int64(receivedBytes) != expectedBytes {
                return .failure(.truncated(receivedBytes: receivedBytes, expectedBytes: Int(expectedBytes)))
            }
            return .success(.fetched(bytes: receivedBytes, validators: validators))
        default: return .failure(.status(statusCode))
        }
    }
}
