import Foundation

/// The provider's key: kept per provider; Ollama needs none.
extension Credential where Context == ProviderTarget {
    static func providerKey(_ kind: ProviderKind) -> Credential {
        Credential(
            missing: kind.needsKey ? ProviderError.missingKey(kind).message : nil,
            read: { keys in
                let found = keys.resolve(kind)
                return (found.source, found.key)
            },
            save: { keys, key in kind == .none ? .missing : try keys.save(key, for: kind) },
            status: { source in
                let none = kind == .none ? "" : (kind.needsKey ? L10n.tr("No key saved. Paste one above.") : L10n.tr("No key needed."))
                return statusLine(source, missing: none) { L10n.tr("A key is saved (%@). Type a new one to replace it.", $0) }
            },
            verdict: { model, target in
                .valid(identity: model, message: L10n.tr("Connected: %@ answered (model %@).", target.kind.displayName, model))
            },
            explain: { error, target in
                if let error = error as? ProviderError, ScanFailure.isUnreachable(error) {
                    return .offline(L10n.tr("Crate could not reach %@ at %@. Check the address and the internet connection.",
                                            target.kind.displayName, target.endpoint.host ?? target.endpoint.absoluteString))
                }
                return .invalid(UserMessage.text(for: error))
            })
    }
}

/// The ListenBrainz and Discogs tokens.
extension Credential where Context == AccountTarget {
    /// ListenBrainz: the token must belong to the user name typed, if one is.
    static var listenBrainz: Credential {
        Credential(
            missing: L10n.tr("Paste your ListenBrainz user token first (from your ListenBrainz settings page)."),
            read: { keys in
                let found = keys.listenBrainzToken()
                return (found.source, found.token)
            },
            save: { keys, token in try keys.saveListenBrainzToken(token) },
            status: { source in
                statusLine(source, missing: L10n.tr("No token saved. Without one, favourites and dislikes stay on this computer.")) {
                    L10n.tr("A token is saved (%@). Paste a new one to replace it.", $0)
                }
            },
            verdict: { name, target in
                if target.user.isEmpty {
                    return .valid(identity: name, message: L10n.tr("The token belongs to %@. Type %@ as the user name to use your listening.", name, name))
                }
                if name.caseInsensitiveCompare(target.user) == .orderedSame {
                    return .valid(identity: name, message: L10n.tr("Connected as %@.", name))
                }
                return .invalid(L10n.tr("This token belongs to %@, not %@.", name, target.user))
            },
            explain: { error, _ in
                if case ListenBrainzError.network = error { return .offline(UserMessage.text(for: error)) }
                return .invalid(UserMessage.text(for: error))
            })
    }

    /// Discogs: `/oauth/identity` names the token's user.
    static var discogs: Credential {
        Credential(
            missing: L10n.tr("Paste your Discogs personal access token first (Discogs → Settings → Developers)."),
            read: { keys in
                let found = keys.discogsToken()
                return (found.source, found.token)
            },
            save: { keys, token in try keys.saveDiscogsToken(token) },
            status: { source in
                statusLine(source, missing: L10n.tr("No token saved. Without one, albums are not linked to Discogs.")) {
                    L10n.tr("A token is saved (%@). Paste a new one to replace it.", $0)
                }
            },
            verdict: { name, _ in .valid(identity: name, message: L10n.tr("Connected as %@.", name)) },
            explain: { error, _ in
                switch error {
                case DiscogsError.tokenRejected: return .invalid(discogsTokenRefused)
                case DiscogsError.network(let error): return .offline(error.unreachable("Discogs"))
                default: return .invalid(UserMessage.text(for: error))
                }
            })
    }

    static var discogsTokenRefused: String {
        L10n.tr("Discogs did not accept this token. Copy it again from Discogs → Settings → Developers.")
    }
}
