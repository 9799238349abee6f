import Foundation

/// Preferences' "MusicBrainz Collection": sign in (the user name saved in the settings, the
/// password with the other secrets), choose one of the account's release collections, and sync
/// the owned records with it (docs/decisions/0047-musicbrainz-collection-sync.md).
@MainActor
public final class MusicBrainzCollectionStore {
    public let state = ObservableValue(MusicBrainzCollectionState())
    private let settings: PreferencesSettings
    private let client: MusicBrainzCollectionClient

    init(settings: PreferencesSettings, client: MusicBrainzCollectionClient) {
        self.settings = settings
        self.client = client
        show()
    }

    /// Saves the user name and password, then lists the account's collections (which checks
    /// them: a refused password is said, and the password is not kept).
    public func signIn(user: String, password: String) async {
        let user = user.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !user.isEmpty, !password.isEmpty else {
            return fail(L10n.tr("Type your MusicBrainz user name and password."))
        }
        state.update { $0.work = .signingIn; $0.message = nil; $0.isError = false }
        let account = HTTPCredentials(user: user, password: password)
        do {
            let collections = try await client.collections(account)
            let keys = settings.environment.keys
            try settings.save({ $0.musicBrainzAccount.user = user }, also: { _ = try keys.saveMusicBrainzPassword(password) })
            state.update { $0.collections = collections; $0.work = nil }
            show()
        } catch let error as PreferencesSaveError {
            fail(error.message)
        } catch {
            fail(UserMessage.text(for: error))
        }
    }

    /// Lists the collections again with the saved account.
    public func refresh() async {
        guard let account = credentials() else { return }
        do {
            let collections = try await client.collections(account)
            state.update { $0.collections = collections }
        } catch {
            fail(UserMessage.text(for: error))
        }
    }

    /// Chooses the collection at `index` of the listed ones.
    public func choose(index: Int) {
        let listed = state.value.collections
        guard listed.indices.contains(index) else { return }
        let collection = listed[index]
        do {
            try settings.save {
                $0.musicBrainzAccount.collectionID = collection.id
                $0.musicBrainzAccount.collectionName = collection.name
            }
        } catch {
            return fail(error.message)
        }
        show()
    }

    /// Syncs now; `confirmRemovals` also removes from the collection what is no longer owned here.
    public func sync(confirmRemovals: Bool = false) async {
        guard state.value.work == nil, let account = credentials() else { return }
        guard let collection = settings.effective.musicBrainzAccount.collectionID else {
            return fail(MusicBrainzCollectionError.noCollectionChosen.errorDescription ?? "")
        }
        state.update { $0.work = .syncing; $0.message = nil; $0.isError = false }
        do {
            let summary = try await client.sync(account, collection, confirmRemovals)
            state.update {
                $0.work = nil
                $0.message = summary.text
                $0.awaitingRemoval = summary.awaitingConfirmation.count
            }
        } catch {
            fail(UserMessage.text(for: error))
        }
    }

    private func credentials() -> HTTPCredentials? {
        do {
            return try settings.environment.keys.musicBrainzCredentials(settings.effective.musicBrainzAccount)
        } catch {
            fail(UserMessage.text(for: error))
            return nil
        }
    }

    private func fail(_ message: String) {
        state.update { $0.work = nil; $0.message = message; $0.isError = true }
    }

    private func show() {
        let account = settings.effective.musicBrainzAccount
        let signedIn = account.user != nil && settings.environment.keys.musicBrainzPassword().value != nil
        state.update {
            $0.user = account.user ?? ""
            $0.isSignedIn = signedIn
            $0.chosenID = account.collectionID
            $0.chosenName = account.collectionName
        }
    }
}
