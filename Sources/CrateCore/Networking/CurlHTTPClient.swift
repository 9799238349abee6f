import CCurl
import Foundation

/// The live `HTTPClient`, over libcurl.
///
/// Each exchange runs on its own thread (libcurl blocks; the Swift cooperative pool must not, and
/// libdispatch on Linux caps a concurrent queue at about one thread per core, so a few slow
/// transfers would queue the rest behind them), bridged back with a continuation. Cancelling the calling task aborts the transfer
/// within about a second (libcurl's progress callback checks a flag).
public final class CurlHTTPClient: HTTPClient {
    /// Limits that are the same for every request this client sends.
    public struct Configuration: Sendable {
        /// libcurl's default is 300 s.
        public var connectTimeout: TimeInterval = 5
        /// Below this many bytes per second for `lowSpeedTime` seconds, the transfer is aborted.
        public var lowSpeedBytesPerSecond: Int = 16
        public var lowSpeedTime: TimeInterval = 10
        public var maxHeaderBytes: Int = 256 << 10

        public init() {}

        public init(connectTimeout: TimeInterval = 5, lowSpeedBytesPerSecond: Int = 16, lowSpeedTime: TimeInterval = 10) {
            self.connectTimeout = connectTimeout
            self.lowSpeedBytesPerSecond = lowSpeedBytesPerSecond
            self.lowSpeedTime = lowSpeedTime
        }
    }

    /// Redirect hops allowed per request (libcurl's default is unlimited).
    public static let maxRedirects = 5

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Self.validate(request)
        try Task.checkCancellation()
        let flag = CancellationFlag()
        let work: @Sendable () throws -> HTTPResponse = { [configuration] in try Self.perform(request, configuration: configuration, cancellation: flag) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                let thread = Thread {
                    continuation.resume(with: Result { try work() })
                }
                thread.name = "crate.http"
                thread.stackSize = 512 << 10
                thread.start()
            }
        } onCancel: {
            flag.cancel()
        }
    }
}

// MARK: - Private

private extension CurlHTTPClient {
    static func validate(_ request: HTTPRequest) throws {
        guard let scheme = request.url.scheme?.lowercased(), RedirectPolicy.allowedSchemes.contains(scheme),
              request.url.host?.isEmpty == false else {
            throw HTTPError.invalidURL(request.url.absoluteString)
        }
        // A line break in a header would let a value smuggle in extra headers.
        for (name, value) in request.headers {
            let bad = CharacterSet(charactersIn: "\r\n\0")
            guard !name.isEmpty, name.rangeOfCharacter(from: bad) == nil, !name.contains(":"),
                  value.rangeOfCharacter(from: bad) == nil else {
                throw HTTPError.invalidRequest("header \(name.debugDescription) is malformed")
            }
        }
    }

    /// Runs on the transfer's thread: one libcurl exchange per hop, redirects followed by `RedirectPolicy`.
    static func perform(_ request: HTTPRequest, configuration: Configuration, cancellation: CancellationFlag) throws -> HTTPResponse {
        let limits = CurlTransfer.Limits(
            connectTimeout: configuration.connectTimeout,
            lowSpeedBytesPerSecond: configuration.lowSpeedBytesPerSecond,
            lowSpeedTime: configuration.lowSpeedTime,
            maxHeaderBytes: configuration.maxHeaderBytes
        )
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, request.timeout) * 1e9)
        var current = request
        var hops = 0
        while true {
            if cancellation.isCancelled { throw HTTPError.cancelled }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw HTTPError.timedOut }
            let remaining = TimeInterval(deadline - now) / 1e9
            let outcome = try CurlTransfer(request: current, timeout: remaining, limits: limits, cancellation: cancellation).perform()
            guard let next = try RedirectPolicy.nextRequest(after: current, status: outcome.status, headers: outcome.headers) else {
                return HTTPResponse(status: outcome.status, headers: outcome.headers, body: outcome.body, url: current.url)
            }
            hops += 1
            guard hops <= maxRedirects else { throw HTTPError.tooManyRedirects }
            current = next
        }
    }
}
