import Foundation

/// Wraps an `HTTPClient` with per-host pacing and one automatic retry on transient failures
/// (timeouts, lost connections, 429/500/502/503/504), honouring `Retry-After`.
///
/// An HTTP error status is not thrown: after the last attempt the response goes back to the
/// caller, who turns it into a message ("MusicBrainz is busy", …). The exception is a wait longer
/// than `RetryPolicy.failFastAfter`: that throws `RetryLaterError` at once.
public final class ResilientHTTPClient: HTTPClient {
    public let base: HTTPClient
    public let policy: RetryPolicy
    private let limiter: RateLimiter
    private let clock: NetworkClock
    private let jitter: @Sendable () -> Double

    /// - Parameters:
    ///   - limiter: shared by every client in the process by default; the app passes its
    ///     environment's limiter, which also paces across processes.
    ///   - clock: must be the limiter's clock (both measure the same time).
    ///   - jitter: a fraction in `0...1`; injectable for deterministic tests.
    public init(
        base: HTTPClient,
        policy: RetryPolicy = .standard,
        limiter: RateLimiter = .shared,
        clock: NetworkClock = SystemNetworkClock(),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.base = base
        self.policy = policy
        self.limiter = limiter
        self.clock = clock
        self.jitter = jitter
    }

    /// Seconds a request to `url`'s host would have to wait for a server-asked pause.
    public func pendingDeferral(for url: URL) async -> TimeInterval {
        await limiter.pendingDeferral(host: RateLimiter.key(for: url))
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let host = RateLimiter.key(for: request.url)
        let attempts = max(1, policy.maxAttempts)
        var attempt = 1
        while true {
            do {
                try await limiter.acquire(host: host, interval: policy.minimumInterval, maxDeferral: policy.failFastAfter ?? .infinity)
            } catch let error as RetryLaterError {
                throw error
            } catch {
                throw HTTPError.cancelled
            }
            let isLast = attempt >= attempts
            let response: HTTPResponse
            do {
                response = try await base.send(request)
            } catch let error as HTTPError where !isLast && shouldRetry(error, method: request.method) {
                let wait = policy.backoff(afterAttempt: attempt, jitter: jitter())
                Log.debug("retrying \(host) after \(error.message) in \(String(format: "%.1f", wait)) s")
                await limiter.deferHost(host, by: wait)
                attempt += 1
                continue
            }
            guard policy.retryableStatuses.contains(response.status) else { return response }

            let requested = RetryAfter.delay(in: response, now: clock.now())
            // At most `RetryAfter.maximum`, whatever the server asked: it is said (below), not obeyed.
            let serverDelay = requested.map(RetryAfter.granted)
            if let requested, let serverDelay {
                if requested > serverDelay {
                    Log.notice("\(host) asked Crate to wait \(WaitDuration.spoken(requested)); Crate pauses it for \(WaitDuration.spoken(serverDelay)) at most")
                }
                // Everyone waits (in the process, and in every process sharing the limiter's
                // store), not just this call.
                await limiter.deferHost(host, by: serverDelay)
                if let limit = policy.failFastAfter, serverDelay > limit {
                    Log.debug("\(host) asked for a pause of \(Int(requested)) s; failing this request now")
                    throw RetryLaterError(host: host, seconds: serverDelay, requested: requested)
                }
            }
            let wait = max(serverDelay ?? 0, policy.backoff(afterAttempt: attempt, jitter: jitter()))
            guard !isLast, wait <= policy.maxRetryWait else { return response }
            Log.debug("retrying \(host) after HTTP \(response.status) in \(String(format: "%.1f", wait)) s")
            await limiter.deferHost(host, by: wait)
            attempt += 1
        }
    }
}

// MARK: - Private

private extension ResilientHTTPClient {
    /// A timed-out POST may have been processed (and billed) already: only idempotent requests
    /// are retried after a timeout or a lost connection. A refused connection never reached the server.
    func shouldRetry(_ error: HTTPError, method: String) -> Bool {
        guard error.isTransient else { return false }
        if case .cannotConnect = error { return true }
        return ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method.uppercased())
    }
}
