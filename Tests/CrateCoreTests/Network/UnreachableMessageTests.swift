@testable import CrateCore
import Testing

/// A service that cannot be reached is named in plain words: the transport library's text
/// (addresses, ports, "Couldn't connect to server") never reaches the window or the terminal.
@Suite("Unreachable services in plain words")
struct UnreachableMessageTests {
    static let curlText = "Failed to connect to 127.0.0.1 port 41283 after 0 ms: Couldn't connect to server"

    static let failures: [HTTPError] = [
        .cannotConnect(curlText), .connectionLost(curlText), .transport(curlText), .timedOut,
    ]

    @Test(arguments: failures)
    func everyServiceSaysItPlainly(failure: HTTPError) {
        let messages = [
            MusicBrainzError.network(failure).errorDescription ?? "",
            ListenBrainzError.network(failure).errorDescription ?? "",
            CoverArtError.network(failure).errorDescription ?? "",
            DiscogsError.network(failure).message,
        ]
        for message in messages {
            #expect(!message.isEmpty)
            #expect(!message.contains("127.0.0.1"), "\(message)")
            #expect(!message.contains("Couldn't"), "\(message)")
            #expect(!message.contains("port"), "\(message)")
            #expect(message.first?.isUppercase == true, "a sentence: \(message)")
        }
    }

    @Test func theServiceIsNamed() {
        #expect(CoverArtError.network(.timedOut).errorDescription == "The Cover Art Archive took too long to answer. Try again in a moment.")
        #expect(ListenBrainzError.network(.cannotConnect(Self.curlText)).errorDescription
            == "Could not reach ListenBrainz. Check the internet connection; Crate tries again later.")
    }
}
