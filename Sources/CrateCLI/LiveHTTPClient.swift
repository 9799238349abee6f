import CrateCore
import Foundation

/// The CLI's network client for providers: libcurl with one automatic retry on transient
/// failures (honouring Retry-After).
func makeLiveHTTPClient() -> any HTTPClient {
    ResilientHTTPClient(base: CurlHTTPClient())
}
