import Foundation

/// Wraps a provider so no known secret — any provider key, the ListenBrainz and Discogs tokens —
/// survives in an answer. A server (or a model told to) may echo a key back in a successful
/// reply; unscrubbed it became an identified artist, was printed, stored and sent to MusicBrainz,
/// or was stored inside a review. The secret is removed before anything reads the answer.
public final class SecretScrubbingProvider: LLMProvider {
    public let base: any LLMProvider
    private let secrets: [String]
    private let log: DiagnosticLog

    public var kind: ProviderKind { base.kind }
    public var model: String { base.model }
    public var supportsSearch: Bool { base.supportsSearch }

    /// Secrets shorter than this are not looked for: they would match ordinary words.
    static let minimumLength = 8

    public init(_ base: any LLMProvider, secrets: [String], log: DiagnosticLog = .standard) {
        self.base = base
        // Longest first, so a secret that contains another is removed whole.
        self.secrets = Set(secrets.filter { $0.count >= Self.minimumLength }).sorted { $0.count > $1.count }
        self.log = log
    }

    public func complete(_ request: LLMRequest) async throws -> LLMResponse {
        let response = try await base.complete(request)
        let text = Self.scrub(response.text, secrets: secrets)
        let model = Self.scrub(response.model, secrets: secrets)
        guard text != response.text || model != response.model else { return response }
        log("\(kind.displayName) echoed a secret in its answer; it was removed before use")
        return LLMResponse(text: text, model: model, usage: response.usage, usedSearch: response.usedSearch)
    }

    /// `text` without any of `secrets`.
    static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "")
        }
        return result
    }
}

extension KeyStore {
    /// Every secret Crate holds: the providers' keys and the ListenBrainz and Discogs tokens.
    public func knownSecrets() -> [String] {
        let keys = ProviderKind.allCases.filter { $0 != .none }.compactMap { key(for: $0) }
        return keys + [listenBrainzToken().token, discogsToken().token, lastFMSecret().value, lastFMSession().value].compactMap { $0 }
    }
}
