import CrateCore
import Foundation

/// The CLI's network client. The libcurl client lives on another branch; until it is merged this
/// build has no network, and every request fails with a clear message (cached reviews still work).
func makeLiveHTTPClient() -> any HTTPClient {
    NoNetworkHTTPClient()
}

/// Fails every request: "network client not available in this build".
struct NoNetworkHTTPClient: HTTPClient {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        throw HTTPError.transport("network client not available in this build")
    }
}
