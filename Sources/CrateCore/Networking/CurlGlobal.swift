import CCurl

/// `curl_global_init` is not thread-safe and must run once before any handle exists;
/// a lazily initialised static gives exactly that (Swift runs it once, under a lock).
enum CurlGlobal {
    static let initialised: Bool = crate_curl_global_init_default() == CURLE_OK

    static func ensureInitialised() throws {
        guard initialised else { throw HTTPError.transport("libcurl could not be initialised") }
    }
}
