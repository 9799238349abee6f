import CCurl
import Foundation

/// One request/response exchange on one libcurl easy handle, without following redirects
/// (`CurlHTTPClient` follows them itself so it can drop secret headers across hosts).
/// Runs synchronously on the calling thread; never call it from the Swift cooperative pool.
final class CurlTransfer {
    struct Outcome {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// Limits that come from the client configuration rather than the request.
    struct Limits {
        var connectTimeout: TimeInterval
        var lowSpeedBytesPerSecond: Int
        var lowSpeedTime: TimeInterval
        var maxHeaderBytes: Int
    }

    private let request: HTTPRequest
    private let timeout: TimeInterval
    private let limits: Limits
    private let cancellation: CancellationFlag
    private var body = Data()
    private var headers: [String: String] = [:]
    private var headerBytes = 0
    private var bodyLimitExceeded = false
    private var headerLimitExceeded = false

    init(request: HTTPRequest, timeout: TimeInterval, limits: Limits, cancellation: CancellationFlag) {
        self.request = request
        self.timeout = timeout
        self.limits = limits
        self.cancellation = cancellation
    }

    func perform() throws -> Outcome {
        try CurlGlobal.ensureInitialised()
        guard let handle = curl_easy_init() else { throw HTTPError.transport("libcurl could not create a handle") }
        defer { curl_easy_cleanup(handle) }

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        if request.body != nil {
            // libcurl would otherwise wait up to a second for "100 Continue" on large bodies.
            headerList = curl_slist_append(headerList, "Expect:")
        }

        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }

        let context = Unmanaged.passUnretained(self).toOpaque()
        try configure(handle, headerList: headerList, errorBuffer: errorBuffer, context: context)

        let code = withExtendedLifetime(self) { curl_easy_perform(handle) }
        if code != CURLE_OK {
            throw mapError(code, detail: String(cString: errorBuffer))
        }
        var status = 0
        _ = crate_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return Outcome(status: status, headers: headers, body: body)
    }

    // MARK: - Callbacks

    fileprivate func receiveBody(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        // MAXFILESIZE does not stop a chunked body on libcurl 7.88, so the cap lives here.
        guard body.count + count <= request.maxBodyBytes else {
            bodyLimitExceeded = true
            return 0
        }
        body.append(UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }

    fileprivate func receiveHeader(_ buffer: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        headerBytes += count
        guard headerBytes <= limits.maxHeaderBytes else {
            headerLimitExceeded = true
            return 0
        }
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: count), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new status line (after "100 Continue", or a Digest challenge answered in the
            // same transfer): keep only the last response's headers and body.
            headers = [:]
            body = Data()
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let existing = headers[name] {
                headers[name] = existing + ", " + value
            } else {
                headers[name] = value
            }
        }
        return count
    }

    fileprivate var shouldAbort: Bool { cancellation.isCancelled }
}

// MARK: - Private

private extension CurlTransfer {
    func configure(_ handle: UnsafeMutableRawPointer, headerList: UnsafeMutablePointer<curl_slist>?, errorBuffer: UnsafeMutablePointer<CChar>, context: UnsafeMutableRawPointer) throws {
        func check(_ code: CURLcode, _ what: String) throws {
            guard code == CURLE_OK else { throw HTTPError.invalidRequest("\(what): \(String(cString: curl_easy_strerror(code)))") }
        }
        let timeoutMs = max(1, Int(timeout * 1000))
        try check(crate_curl_setopt_string(handle, CURLOPT_URL, request.url.absoluteString), "URL")
        try check(crate_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "error buffer")
        // Signals (the default DNS timeout mechanism) are unsafe with threads.
        try check(crate_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
        try check(crate_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMs, Int(limits.connectTimeout * 1000))), "connect timeout")
        try check(crate_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMs), "timeout")
        // A trickle (one byte every few seconds) would otherwise hold the transfer until TIMEOUT.
        try check(crate_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, limits.lowSpeedBytesPerSecond), "low speed limit")
        try check(crate_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(limits.lowSpeedTime.rounded(.up)))), "low speed time")
        // Redirects are followed by CurlHTTPClient (so secret headers can be dropped per host);
        // the limits below are defence in depth should FOLLOWLOCATION ever be turned on.
        try check(crate_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0), "FOLLOWLOCATION")
        try check(crate_curl_setopt_long(handle, CURLOPT_MAXREDIRS, CurlHTTPClient.maxRedirects), "MAXREDIRS")
        try check(crate_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "protocols")
        try check(crate_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"), "redirect protocols")
        try check(crate_curl_setopt_long(handle, CURLOPT_UNRESTRICTED_AUTH, 0), "UNRESTRICTED_AUTH")
        // "" = every encoding libcurl can decode (gzip, deflate); the body cap applies after decoding.
        try check(crate_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""), "encoding")
        try check(crate_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), "VERIFYPEER")
        try check(crate_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), "VERIFYHOST")
        // VERBOSE stays off: it would print headers, and headers carry API keys.
        try check(crate_curl_setopt_long(handle, CURLOPT_VERBOSE, 0), "VERBOSE")
        try check(crate_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBodyBytes)), "MAXFILESIZE")
        try check(crate_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)), "headers")
        try configureMethod(handle, check: check)
        if let digest = request.digest {
            // CURLAUTH_DIGEST ((unsigned long)1 << 1): a macro Swift does not import. libcurl
            // sends the request, reads the 401 challenge and answers it in the same transfer.
            try check(crate_curl_setopt_long(handle, CURLOPT_HTTPAUTH, 1 << 1), "HTTPAUTH")
            try check(crate_curl_setopt_string(handle, CURLOPT_USERNAME, digest.user), "user name")
            try check(crate_curl_setopt_string(handle, CURLOPT_PASSWORD, digest.password), "password")
        }

        try check(crate_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveBody(buffer, size * count)
        }), "write callback")
        try check(crate_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "write data")
        try check(crate_curl_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveHeader(buffer, size * count)
        }), "header callback")
        try check(crate_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "header data")
        // The progress callback runs at least once a second, even when idle: the cancellation hook.
        try check(crate_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0), "NOPROGRESS")
        try check(crate_curl_setopt_xferinfo_callback(handle, { context, _, _, _, _ in
            guard let context else { return 1 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().shouldAbort ? 1 : 0
        }), "progress callback")
        try check(crate_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "progress data")
    }

    func configureMethod(_ handle: UnsafeMutableRawPointer, check: (CURLcode, String) throws -> Void) throws {
        let method = request.method.uppercased()
        switch method {
        case "GET":
            try check(crate_curl_setopt_long(handle, CURLOPT_HTTPGET, 1), "GET")
        case "HEAD":
            try check(crate_curl_setopt_long(handle, CURLOPT_NOBODY, 1), "HEAD")
        default:
            if method != "POST" {
                try check(crate_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method), "method")
            }
        }
        if method == "POST" {
            try check(crate_curl_setopt_long(handle, CURLOPT_POST, 1), "POST")
        }
        if let body = request.body {
            try check(crate_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), "body size")
            // COPYPOSTFIELDS makes libcurl keep its own copy, so no Swift buffer must outlive this call.
            let bytes = [UInt8](body) + [0]
            try bytes.withUnsafeBytes { raw in
                try check(crate_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress)), "body")
            }
        }
    }

    func mapError(_ code: CURLcode, detail: String) -> HTTPError {
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_WRITE_ERROR where bodyLimitExceeded, CURLE_FILESIZE_EXCEEDED:
            return .bodyTooLarge(limit: request.maxBodyBytes)
        case CURLE_WRITE_ERROR where headerLimitExceeded:
            return .transport("response headers too large")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return .cannotConnect(text)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionLost(text)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(request.url.absoluteString)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        default:
            return .transport(text)
        }
    }
}
