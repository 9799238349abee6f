import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// RELIABILITY.md scenario 10: redirect loops, other schemes, and keys across hosts.
@Suite("Redirects")
struct RedirectTests {
    let client = CurlHTTPClient()

    @Test func followsA307Chain() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/a", responses: [.redirect(to: "/b")])
        server.route("/b", responses: [.redirect(to: server.url("/c").absoluteString, status: 302)])
        server.route("/c", responses: [.text("end")])

        let response = try await client.send(HTTPRequest(url: server.url("/a")))

        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "end")
        #expect(response.url == server.url("/c"))
        #expect(server.requests.map(\.path) == ["/a", "/b", "/c"])
    }

    @Test func redirectLoopIsStopped() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/loop", responses: [.redirect(to: "/loop")])

        await #expect(throws: HTTPError.tooManyRedirects) {
            try await client.send(HTTPRequest(url: server.url("/loop")))
        }
        #expect(server.requests.count == CurlHTTPClient.maxRedirects + 1)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/", "dict://127.0.0.1/"])
    func redirectToAnotherSchemeIsRefused(target: String) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/go", responses: [.redirect(to: target, status: 302)])

        do {
            _ = try await client.send(HTTPRequest(url: server.url("/go")))
            Issue.record("redirect to \(target) was followed")
        } catch let error as HTTPError {
            guard case .redirectRefused = error else { Issue.record("got \(error)"); return }
        }
        #expect(server.requests.count == 1)
    }

    /// libcurl 7.88 forwards custom headers such as `x-api-key` to whatever host a redirect names;
    /// Crate must drop them when the host changes (127.0.0.1 → localhost is a different host).
    @Test func secretHeadersAreNotForwardedToAnotherHost() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/start", responses: [.redirect(to: server.localhostURL.appendingPathComponent("landing").absoluteString, status: 302)])
        server.route("/landing", responses: [.text("ok")])
        let secret = "sk-canary-0123456789"

        let response = try await client.send(HTTPRequest(url: server.url("/start"), headers: [
            "x-api-key": secret, "Authorization": "Bearer \(secret)", "Cookie": "s=\(secret)", "User-Agent": "Crate/test",
        ]))

        #expect(response.status == 200)
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].headers["x-api-key"] == secret)
        #expect(requests[1].headers["host"]?.hasPrefix("localhost") == true)
        for (name, value) in requests[1].headers {
            #expect(!value.contains(secret), "header \(name) leaked the key")
        }
        #expect(requests[1].headers["user-agent"] == "Crate/test")
    }

    @Test func digestCredentialsAreNotAnsweredForAnotherHost() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/start", responses: [.redirect(to: server.localhostURL.appendingPathComponent("landing").absoluteString, status: 307)])
        server.route("/landing", responses: [
            .json("{}", status: 401, headers: [("WWW-Authenticate", #"Digest realm="elsewhere", nonce="abc", qop="auth""#)]),
        ])

        let request = HTTPRequest(url: server.url("/start"), digest: HTTPCredentials(user: "digger", password: "s3cret"))
        let response = try await client.send(request)

        // The other host's challenge goes unanswered: one request there, no Authorization.
        #expect(response.status == 401)
        #expect(server.requests(path: "/landing").count == 1)
        #expect(server.requests(path: "/landing").first?.headers["authorization"] == nil)
        #expect(String(describing: request.digest!) == "digger:•••")
    }

    @Test func secretHeadersStayOnTheSameHost() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/start", responses: [.redirect(to: "/landing")])
        server.route("/landing", responses: [.text("ok")])

        _ = try await client.send(HTTPRequest(url: server.url("/start"), headers: ["x-api-key": "k"]))

        #expect(server.requests(path: "/landing").first?.headers["x-api-key"] == "k")
    }

    @Test func seeOtherTurnsPostIntoGet() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        server.route("/submit", responses: [.redirect(to: "/result", status: 303)])
        server.route("/result") { request in .text(request.method) }

        let response = try await client.send(HTTPRequest(method: "POST", url: server.url("/submit"), body: Data("x=1".utf8)))

        #expect(String(decoding: response.body, as: UTF8.self) == "GET")
    }
}
