import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One accepted connection: read one request, record it, send the scripted answer, close.
struct FixtureConnection {
    let fd: Int32
    let server: FixtureServer

    func run() {
        defer { close(fd) }
        guard let request = readRequest() else { return }
        server.record(request)
        let response = server.response(for: request)
        guard wait(response.delay) else { return }
        switch response.body {
        case .never:
            waitForHangUp()
        case .hangUp:
            return
        case .bytes(let data):
            guard sendHead(response, extra: [("Content-Length", "\(data.count)")]) else { return }
            _ = sendAll(data)
        case .endless(let chunkSize):
            guard sendHead(response, extra: [("Transfer-Encoding", "chunked")]) else { return }
            let chunk = Data(String(chunkSize, radix: 16).utf8) + Data("\r\n".utf8) + Data(repeating: 0x41, count: chunkSize) + Data("\r\n".utf8)
            while server.isRunning, sendAll(chunk) {}
        case .drip(let interval, let total):
            guard sendHead(response, extra: [("Content-Length", "\(total)")]) else { return }
            for _ in 0..<total {
                guard sendAll(Data([0x41])), wait(interval) else { return }
            }
        }
    }
}

// MARK: - Private

private extension FixtureConnection {
    func readRequest() -> RecordedRequest? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = Data()
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            guard let more = receive(), buffer.count < 1 << 20 else { return nil }
            buffer.append(more)
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headEnd.upperBound...])
        let expected = Int(headers["content-length"] ?? "") ?? 0
        while body.count < expected, let more = receive() { body.append(more) }
        let target = String(requestLine[1])
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return RecordedRequest(
            method: String(requestLine[0]).uppercased(),
            path: String(parts[0]),
            query: parts.count > 1 ? String(parts[1]) : nil,
            headers: headers,
            body: body,
            arrival: Date(),
            uptime: ProcessInfo.processInfo.systemUptime
        )
    }

    func receive() -> Data? {
        var bytes = [UInt8](repeating: 0, count: 16 << 10)
        let count = recv(fd, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Data(bytes[0..<count])
    }

    func sendHead(_ response: FixtureResponse, extra: [(String, String)]) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers + extra + [("Connection", "close")] {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        return sendAll(Data(head.utf8))
    }

    func sendAll(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a client that hung up must not kill the test process with SIGPIPE.
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Sleeps in small steps so a stopped server or a departed client ends the wait early.
    func wait(_ seconds: TimeInterval) -> Bool {
        let end = ProcessInfo.processInfo.systemUptime + seconds
        while ProcessInfo.processInfo.systemUptime < end {
            guard server.isRunning, !clientHungUp(timeoutMs: 20) else { return false }
        }
        return server.isRunning
    }

    func waitForHangUp() {
        while server.isRunning, !clientHungUp(timeoutMs: 50) {}
    }

    func clientHungUp(timeoutMs: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMs) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status"
        }
    }
}
