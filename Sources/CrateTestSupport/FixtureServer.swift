import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 with a port of its own, for tests that must never touch the
/// internet. Routes are scripted; every request is recorded. One thread per connection, one
/// response per connection (`Connection: close`), raw POSIX sockets so slow-drip and endless
/// bodies are easy to produce.
///
/// Unchecked because `routes`, `recorded` and `running` are read and written only while holding
/// `lock` (and `port`/`listenFD` never change), which the compiler cannot see through NSLock.
public final class FixtureServer: @unchecked Sendable {
    public typealias Handler = @Sendable (RecordedRequest) -> FixtureResponse

    public let port: UInt16
    private let listenFD: Int32
    private let lock = NSLock()
    private var routes: [(pattern: String, method: String?, handler: Handler)] = []
    private var recorded: [RecordedRequest] = []
    private var running = true

    /// Binds to 127.0.0.1 on a free port and starts accepting.
    ///
    /// The port is chosen here, below the kernel's ephemeral range, and bound by number: a port
    /// bound by number stays this server's after `stop()` (refusing connections) until the server
    /// is released, so with tests running in parallel a stopped server's port never leads to
    /// another test's server. (No SO_REUSEADDR either, which would let another socket share it.)
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureServerError.socket(errno) }
        var chosen: UInt16?
        for _ in 0..<500 {
            let candidate = UInt16.random(in: 20_000...32_000)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = candidate.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 {
                chosen = candidate
                break
            }
            guard errno == EADDRINUSE || errno == EACCES else { break }
        }
        guard let chosen, listen(fd, 64) == 0 else {
            let error = errno
            close(fd)
            throw FixtureServerError.socket(error)
        }
        listenFD = fd
        port = chosen
        let thread = Thread { [weak self] in self?.acceptLoop() }
        thread.name = "FixtureServer.accept"
        thread.start()
    }

    deinit {
        stop()
        // The accept loop holds the server while it runs, so it has ended: the fd is free to go.
        close(listenFD)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// The same server under another host name (`localhost`), for cross-host redirect tests.
    public var localhostURL: URL { URL(string: "http://localhost:\(port)")! }

    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Answers requests whose path equals `pattern` (or starts with it, when it ends in `*`).
    public func route(_ pattern: String, method: String? = nil, _ handler: @escaping Handler) {
        lock.lock()
        routes.append((pattern, method, handler))
        lock.unlock()
    }

    /// Answers with `responses` in order; the last one repeats.
    public func route(_ pattern: String, responses: [FixtureResponse]) {
        let counter = Counter()
        route(pattern) { _ in
            let index = counter.next()
            return responses[min(index, responses.count - 1)]
        }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    public func requests(path: String) -> [RecordedRequest] {
        requests.filter { $0.path == path }
    }

    /// Stops accepting and ends open connections (endless bodies, silent answers) within ~0.1 s.
    /// Connections to the port are refused from then on, until the server is released.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard running else { return }
        running = false
        // Stop listening but keep the port (bound by number, so the kernel keeps it), at once:
        // a request made right after `stop()` is refused, as by a service that is down.
        var unspecified = sockaddr()
        unspecified.sa_family = sa_family_t(AF_UNSPEC)
        _ = connect(listenFD, &unspecified, socklen_t(MemoryLayout<sockaddr>.size))
    }

    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return running
    }
}

public enum FixtureServerError: Error {
    case socket(Int32)
}

// MARK: - Private

private extension FixtureServer {
    func acceptLoop() {
        while isRunning {
            var poller = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listenFD, nil, nil)
            guard client >= 0 else { continue }
            let thread = Thread { [weak self] in
                if let self { FixtureConnection(fd: client, server: self).run() } else { close(client) }
            }
            thread.name = "FixtureServer.connection"
            thread.start()
        }
    }
}

extension FixtureServer {
    func record(_ request: RecordedRequest) {
        lock.lock()
        recorded.append(request)
        lock.unlock()
    }

    func response(for request: RecordedRequest) -> FixtureResponse {
        lock.lock()
        let candidates = routes
        lock.unlock()
        let matches = candidates.filter { route in
            if let method = route.method, method.uppercased() != request.method { return false }
            if route.pattern.hasSuffix("*") { return request.path.hasPrefix(String(route.pattern.dropLast())) }
            return route.pattern == request.path
        }
        // The most specific pattern wins; among equals, the latest registration.
        guard let best = matches.enumerated().max(by: { a, b in
            (a.element.pattern.count, a.offset) < (b.element.pattern.count, b.offset)
        }) else {
            return .notFound
        }
        return best.element.handler(request)
    }
}

/// A thread-safe counter for scripted sequences.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
