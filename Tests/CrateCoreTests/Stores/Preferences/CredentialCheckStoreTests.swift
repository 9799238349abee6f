import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

@Suite("Credential check store")
@MainActor
struct CredentialCheckStoreTests {
    private func keys(_ dir: TemporaryDirectory) -> KeyStore {
        KeyStore(paths: dir.paths, environment: [:], secrets: MemorySecrets())
    }

    private let target = AccountTarget(settings: Settings(), user: "rob")

    @Test func aValidTokenSaysWhoseItIs() async throws {
        let dir = try TemporaryDirectory()
        let store = CredentialCheckStore(.discogs, client: .answering("crate-digger"), keys: keys(dir))
        #expect(store.state.value.check == .idle)
        #expect(store.state.value.status.hasPrefix("No token saved"))
        store.setSecret("typed")
        store.check(target)
        #expect(store.state.value.check == .checking)
        #expect(await settled(store) == .valid(identity: "crate-digger", message: "Connected as crate-digger."))
    }

    @Test func aRefusedTokenIsInvalidAndAMissingOneIsSaidBeforeAnyRequest() async throws {
        let dir = try TemporaryDirectory()
        let held = HeldValidation()
        let store = CredentialCheckStore(.discogs, client: held.client(), keys: keys(dir))
        store.check(target)
        #expect(store.state.value.check == .invalid("Paste your Discogs personal access token first (Discogs → Settings → Developers)."))
        #expect(await held.secrets.isEmpty)

        let refused = CredentialCheckStore(.discogs, client: .failing(DiscogsError.tokenRejected), keys: keys(dir))
        refused.setSecret("wrong")
        refused.check(target)
        #expect(await settled(refused) == .invalid(Credential<AccountTarget>.discogsTokenRefused))
    }

    @Test func aNetworkDownIsOfflineInPlainWords() async throws {
        let dir = try TemporaryDirectory()
        let store = CredentialCheckStore(.listenBrainz, client: .failing(ListenBrainzError.network(.cannotConnect("curl: 127.0.0.1:9"))),
                                         keys: keys(dir))
        store.setSecret("token")
        store.check(target)
        guard case .offline(let message) = await settled(store) else { Issue.record("\(store.state.value.check)"); return }
        #expect(message.contains("Could not reach ListenBrainz"))
        #expect(!message.contains("127.0.0.1") && !message.contains("curl"))
    }

    @Test func aListenBrainzTokenOfAnotherUserIsInvalid() async throws {
        let dir = try TemporaryDirectory()
        let store = CredentialCheckStore(.listenBrainz, client: .answering("rob"), keys: keys(dir))
        store.setSecret("token")
        store.check(AccountTarget(settings: Settings(), user: "someone"))
        #expect(await settled(store) == .invalid("This token belongs to rob, not someone."))
        store.check(AccountTarget(settings: Settings(), user: ""))
        #expect(await settled(store) == .valid(identity: "rob", message: "The token belongs to rob. Type rob as the user name to use your listening."))
    }

    @Test func editingTheTokenDuringACheckCancelsIt() async throws {
        let dir = try TemporaryDirectory()
        let held = HeldValidation()
        let store = CredentialCheckStore(.discogs, client: held.client(), keys: keys(dir))
        var seen: [CredentialCheck] = []
        let token = store.state.subscribe { seen.append($0.check) }
        store.setSecret("first")
        store.check(target)
        await held.started.wait(for: 1)

        // When the token is edited while Discogs has not answered
        store.setSecret("second")

        // Then the check is cancelled and forgotten, and its late answer changes nothing
        await held.cancelled.wait(for: 1)
        #expect(store.state.value.check == .idle)
        await held.answer(1, .success("first-owner"))
        store.check(target)
        await held.started.wait(for: 2)
        await held.answer(2, .success("second-owner"))
        #expect(await settled(store) == .valid(identity: "second-owner", message: "Connected as second-owner."))
        #expect(await held.secrets == ["first", "second"])
        #expect(!seen.contains { $0.message?.contains("first-owner") == true })
        token.cancel()
    }

    @Test func aSlowCheckIsSupersededByANewerOne() async throws {
        let dir = try TemporaryDirectory()
        let held = HeldValidation()
        let store = CredentialCheckStore(.discogs, client: held.client(), keys: keys(dir))
        var seen: [CredentialCheck] = []
        let token = store.state.subscribe { seen.append($0.check) }
        store.setSecret("token")
        store.check(target)
        await held.started.wait(for: 1)
        store.check(target)  // Test pressed again before the first answer
        await held.started.wait(for: 2)

        // The newer answer comes first, then the slow one: only the newer one is shown.
        await held.answer(2, .success("newer"))
        #expect(await settled(store) == .valid(identity: "newer", message: "Connected as newer."))
        await held.answer(1, .failure(DiscogsError.tokenRejected))
        await held.cancelled.wait(for: 1)
        #expect(store.state.value.check == .valid(identity: "newer", message: "Connected as newer."))
        #expect(!seen.contains(.invalid(Credential<AccountTarget>.discogsTokenRefused)))
        token.cancel()
    }

    @Test func aTypedTokenIsSavedOnceAndNeverKeptInState() async throws {
        let dir = try TemporaryDirectory()
        let store = CredentialCheckStore(.discogs, client: .answering("x"), keys: KeyStore(paths: dir.paths, environment: [:]))
        store.setSecret("  discogs-secret\n")
        #expect(store.hasTyped)
        try store.saveTyped()
        #expect(!store.hasTyped)
        #expect(KeyStore(paths: dir.paths, environment: [:]).discogsToken().token == "discogs-secret")
        #expect(store.state.value.status.hasPrefix("A token is saved (from "))
        #expect(!"\(store.state.value)".contains("discogs-secret"))
    }
}
