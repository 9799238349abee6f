/// The accounts Crate talks to besides the provider: the MusicBrainz contact, the ListenBrainz
/// user and token, the Discogs token. The tokens are `CredentialCheckStore`s; `save()` writes the
/// fields and any token typed.
@MainActor
public final class AccountsPreferencesStore {
    public let state = ObservableValue(AccountsPreferencesState())
    /// The ListenBrainz user token and its "Test" (checked against the user name typed).
    public let listenBrainz: CredentialCheckStore<AccountTarget>
    /// The Discogs personal access token and its "Test".
    public let discogs: CredentialCheckStore<AccountTarget>
    private let settings: PreferencesSettings

    init(settings: PreferencesSettings, listenBrainz: CredentialClient<AccountTarget>, discogs: CredentialClient<AccountTarget>) {
        self.settings = settings
        let keys = settings.environment.keys
        self.listenBrainz = CredentialCheckStore(.listenBrainz, client: listenBrainz, keys: keys)
        self.discogs = CredentialCheckStore(.discogs, client: discogs, keys: keys)
        let saved = settings.saved, effective = settings.effective, session = settings.setForSession
        var initial = AccountsPreferencesState()
        initial.contact = session[.contact] != nil ? effective.musicBrainzContact : saved.musicBrainzContact
        initial.listenBrainzUser = (session[.listenBrainzUser] != nil ? effective.listenBrainzUser : saved.listenBrainzUser) ?? ""
        initial.listenBrainzListens = effective.listens.listenBrainz
        initial.lastFMListens = effective.listens.lastFM
        state.set(initial)
    }

    // MARK: - Intents

    public func setContact(_ text: String) {
        state.update { $0.contact = text }
    }

    /// The ListenBrainz user whose listening feeds the wall. A token's test was about the old
    /// name, so it is forgotten.
    public func setListenBrainzUser(_ text: String) {
        guard text != state.value.listenBrainzUser else { return }
        state.update { $0.listenBrainzUser = text }
        listenBrainz.reset()
    }

    /// Listens on or off for one service, saved at once (a switch has no apply button).
    public func setListens(_ service: ListenService, on: Bool) {
        state.update {
            switch service {
            case .listenBrainz: $0.listenBrainzListens = on
            case .lastFM: $0.lastFMListens = on
            }
        }
        do {
            try settings.save { $0.listens.set(service, on: on) }
        } catch {
            state.update { $0.errorMessage = error.message }
        }
    }

    /// ListenBrainz "Test": the token (typed, else saved) must belong to the user name typed.
    public func testListenBrainz() {
        listenBrainz.check(target)
    }

    /// Discogs "Test": whose token it is (typed, else saved).
    public func testDiscogs() {
        discogs.check(target)
    }

    /// Validates and saves the fields and any token typed. False, with `errorMessage` set, when
    /// something must be fixed first; nothing is written then.
    @discardableResult
    public func save() -> Bool {
        let saved = settings.saved, session = settings.setForSession
        // A field set by a variable shows this session's value: the saved one stays saved.
        let contact = session[.contact] != nil ? saved.musicBrainzContact : state.value.contact.trimmingCharacters(in: .whitespaces)
        let user = session[.listenBrainzUser] != nil ? saved.listenBrainzUser ?? "" : state.value.listenBrainzUser.trimmingCharacters(in: .whitespaces)
        if user.contains(where: { $0 == "/" || $0.isNewline }) {
            state.update { $0.errorMessage = L10n.tr("A ListenBrainz user name cannot contain a slash or a line break.") }
            return false
        }
        do {
            try settings.save({
                if !contact.isEmpty { $0.musicBrainzContact = contact }
                $0.listenBrainzUser = user.isEmpty ? nil : user
            }, also: {
                try listenBrainz.saveTyped()
                try discogs.saveTyped()
            })
        } catch {
            state.update { $0.errorMessage = error.message }
            return false
        }
        if state.value.errorMessage != nil { state.update { $0.errorMessage = nil } }
        return true
    }

    /// What a token is tested against: the settings in effect and the user name typed.
    private var target: AccountTarget {
        AccountTarget(settings: settings.effective, user: state.value.listenBrainzUser.trimmingCharacters(in: .whitespaces))
    }
}
