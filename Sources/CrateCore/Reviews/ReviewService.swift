import Foundation

/// A review and whether it came from the cache.
public struct ReviewResult: Equatable, Sendable {
    public let review: Review
    public let cached: Bool
}

/// Writes honest, music-first album reviews from validated metadata (docs/decisions/0009-review-generation.md).
///
/// Rules it keeps:
/// 1. Only `ReviewInput` reaches the prompt; the system instruction is the versioned prompt file,
///    the metadata goes in the user message as JSON.
/// 2. The cache (normalised artist + title) is read before any call; `regenerate` skips it and
///    replaces the stored review.
/// 3. Search grounding by release year (≥ 2024 or unknown) when advanced search is on; a failed
///    search-grounded attempt is retried once without search.
/// 4. Output is validated and repaired or refused; money talk is regenerated once with a reminder,
///    then offending bullets and key tracks are dropped while ≥ 3 of each remain, else the review fails.
public final class ReviewService: Sendable {
    private let provider: (any LLMProvider)?
    private let database: AppDatabase
    private let prompts: PromptLibrary
    private let advancedSearch: Bool
    private let log: DiagnosticLog
    private let clock: @Sendable () -> Date

    public static let promptName = PromptLibrary.review

    /// - Parameter provider: nil when the user chose no provider (cached reviews still show).
    public init(provider: (any LLMProvider)?, database: AppDatabase, prompts: PromptLibrary, advancedSearch: Bool, log: DiagnosticLog = .standard, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.provider = provider
        self.database = database
        self.prompts = prompts
        self.advancedSearch = advancedSearch
        self.log = log
        self.clock = clock
    }

    /// False when no provider is configured: only cached reviews can be shown.
    public var canGenerate: Bool { provider != nil }

    /// The cached review for an album, if any (no provider call).
    public func cachedReview(for input: ReviewInput) -> Review? {
        let key = ReviewKey.make(artist: input.artist, title: input.title)
        do {
            // A review stored before the music-text keys, of an album the migration could not see.
            return try database.review(key: key) ?? database.review(key: LegacyReviewKey.make(artist: input.artist, title: input.title))
        } catch {
            // A read failure is reported and treated as a miss: the review can still be written.
            log("could not read cached review: \(error.localizedDescription)")
            return nil
        }
    }

    /// The review for `input`: cached unless `regenerate`, else generated and stored.
    /// - Throws: `ReviewError`.
    public func review(for input: ReviewInput, regenerate: Bool = false) async throws -> ReviewResult {
        if !regenerate, let cached = cachedReview(for: input) {
            return ReviewResult(review: cached, cached: true)
        }
        guard let provider else { throw ReviewError.noProvider }
        let prompt: Prompt
        do {
            prompt = try prompts.prompt(Self.promptName)
        } catch let failure as PromptLibrary.Failure {
            throw ReviewError.prompt(failure)
        }

        let (draft, response) = try await generate(input, prompt: prompt, provider: provider)
        let review = Review(
            key: ReviewKey.make(artist: input.artist, title: input.title),
            summary: draft.summary,
            bullets: draft.bullets,
            rating: draft.rating,
            recommendation: draft.recommendation,
            tier: draft.tier,
            keyTracks: draft.keyTracks,
            provider: provider.kind.rawValue,
            model: response.model,
            promptVersion: prompt.version,
            usedSearch: response.usedSearch,
            generatedAt: clock()
        )
        do {
            try database.saveReview(review)
        } catch {
            // Partial success: the review is shown even if it cannot be cached (read-only library).
            log("could not cache review: \((error as? CrateError)?.message ?? error.localizedDescription)")
        }
        return ReviewResult(review: review, cached: false)
    }

    /// The user message: the metadata block, as JSON so no value can pose as an instruction.
    public static func userMessage(for input: ReviewInput) -> String {
        var fields: [String: Any] = [
            "artist": input.artist,
            "title": input.title,
            "release_year": input.year,
            "genres": input.genres,
        ]
        fields["record_label"] = input.label ?? "Unknown"
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .prettyPrinted])) ?? Data("{}".utf8)
        return "Review this album.\n<album>\n\(String(decoding: data, as: UTF8.self))\n</album>\nAnswer with the JSON object only."
    }

    // MARK: - Private

    private func generate(_ input: ReviewInput, prompt: Prompt, provider: any LLMProvider) async throws -> (ReviewDraft, LLMResponse) {
        let search = advancedSearch && input.wantsSearchGrounding
        guard search else {
            return try await attempt(input, prompt: prompt, provider: provider, search: false)
        }
        do {
            return try await attempt(input, prompt: prompt, provider: provider, search: true)
        } catch let error as ReviewError where Self.plainRetryHelps(error) {
            // Search context can overflow or derail the answer; the model's own knowledge is the net.
            log("search-grounded review failed (\(error.logCode)); retrying without search")
            return try await attempt(input, prompt: prompt, provider: provider, search: false)
        }
    }

    /// One attempt: a call, validation, and at most one regeneration for money talk.
    private func attempt(_ input: ReviewInput, prompt: Prompt, provider: any LLMProvider, search: Bool) async throws -> (ReviewDraft, LLMResponse) {
        let message = Self.userMessage(for: input)
        let (first, firstResponse) = try await call(provider, prompt: prompt, user: message, search: search)
        guard MoneyFilter.flags(first) else { return (first, firstResponse) }

        log("review mentioned money; regenerating once with a reminder")
        let (second, secondResponse) = try await call(provider, prompt: prompt, user: message + "\n\n" + MoneyFilter.reminder, search: search)
        guard MoneyFilter.flags(second) else { return (second, secondResponse) }

        // Still there: keep the review only if the summary is clean and enough bullets and key
        // tracks survive.
        let bullets = second.bullets.filter { !MoneyFilter.flags($0) }
        let tracks = second.keyTracks.filter { !MoneyFilter.flags($0) }
        guard !MoneyFilter.flags(second.summary), bullets.count >= ReviewDraft.bulletRange.lowerBound,
              tracks.count >= ReviewDraft.keyTrackRange.lowerBound else {
            throw ReviewError.invalidOutput(.moneyTalk)
        }
        log("dropped \(second.bullets.count - bullets.count) bullet(s) and \(second.keyTracks.count - tracks.count) key track(s) that mentioned money")
        return (second.replacing(bullets: bullets, keyTracks: tracks), secondResponse)
    }

    private func call(_ provider: any LLMProvider, prompt: Prompt, user: String, search: Bool) async throws -> (ReviewDraft, LLMResponse) {
        let request = LLMRequest(system: prompt.text, user: user, useSearch: search, purpose: .review, maxOutputTokens: 1500)
        let response: LLMResponse
        do {
            response = try await provider.complete(request)
        } catch let error as ProviderError {
            throw ReviewError.provider(error)
        }
        do {
            return (try ReviewDraft.parse(response.text), response)
        } catch let error as ReviewOutputError {
            throw ReviewError.invalidOutput(error)
        }
    }

    /// Key and quota problems and rate limits will not be cured by dropping the search tool.
    private static func plainRetryHelps(_ error: ReviewError) -> Bool {
        switch error {
        case .provider(let providerError):
            if providerError.needsSettings { return false }
            if case .rateLimited = providerError { return false }
            return true
        case .invalidOutput: return true
        case .invalidInput, .noProvider, .prompt: return false
        }
    }
}

extension ReviewError {
    /// A key-free code for logs.
    var logCode: String {
        switch self {
        case .invalidInput: return "invalid input"
        case .noProvider: return "no provider"
        case .provider(let error): return error.code
        case .invalidOutput(let error): return error.detail
        case .prompt: return "prompt missing"
        }
    }
}
