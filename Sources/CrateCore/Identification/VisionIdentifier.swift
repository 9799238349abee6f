import Foundation

/// Which vision tier answered.
public enum VisionTier: String, Codable, Sendable {
    /// Tier 1: ID call 1 alone.
    case vision
    /// Tier 2: ID call 2 with web search, after the search gate.
    case visionSearch = "vision+search"

    public var method: IdentificationMethod {
        self == .vision ? .vision : .visionSearch
    }
}

/// An album named by the vision provider.
public struct VisionIdentification: Equatable, Sendable {
    public internal(set) var answer: IdentificationAnswer
    public let tier: VisionTier
    /// The model that gave the answer.
    public let model: String
}

/// The result of tiers 1 and 2.
public enum VisionOutcome: Equatable, Sendable {
    case identified(VisionIdentification)
    /// The provider could not tell; `lastAnswer` is what it said, when it said anything.
    case notIdentified(lastAnswer: IdentificationAnswer?)
}

/// Tiers 1 and 2 of identification: ID call 1 reads the cover; ID call 2 finishes with a web search,
/// only through the `SearchGate`. The photo goes to the provider and nowhere else.
public final class VisionIdentifier: Sendable {
    private let provider: any LLMProvider
    /// The provider and model answering, for the identification journal.
    public var providerKind: ProviderKind { provider.kind }
    public var providerModel: String { provider.model }
    private let prompts: PromptLibrary
    private let advancedSearch: Bool
    private let log: DiagnosticLog

    public init(provider: any LLMProvider, prompts: PromptLibrary, advancedSearch: Bool, log: DiagnosticLog = .standard) {
        self.provider = provider
        self.prompts = prompts
        self.advancedSearch = advancedSearch
        self.log = log
    }

    /// Identifies the album on a prepared (1024 px) JPEG.
    /// - Throws: `IdentificationError` when call 1 fails or answers with something unreadable.
    public func identify(jpeg: Data) async throws -> VisionOutcome {
        let first = try await callOne(jpeg: jpeg)
        guard SearchGate.allows(first.answer, advancedSearch: advancedSearch) else {
            return first.answer.isIdentified ? .identified(first) : .notIdentified(lastAnswer: first.answer)
        }
        // A provider without search would only repeat call 1 at full price.
        guard provider.supportsSearch else {
            log("search gate open but \(provider.kind.displayName) has no web search; keeping the first answer")
            return first.answer.isIdentified ? .identified(first) : .notIdentified(lastAnswer: first.answer)
        }
        do {
            var second = try await callTwo(jpeg: jpeg, firstLook: first.answer)
            // The search call's prompt asks for no sleeve details; what the first look read on the
            // same sleeve (catalogue number, barcode, tracks) still holds.
            second.answer.sleeve = second.answer.sleeve.filling(from: first.answer.sleeve)
            if second.answer.isIdentified { return .identified(second) }
            return first.answer.isIdentified ? .identified(first) : .notIdentified(lastAnswer: second.answer)
        } catch let error as IdentificationError {
            if case .provider(let providerError) = error, providerError.needsSettings { throw error }
            // Partial success beats failure: call 1's answer stands when call 2 breaks.
            log("ID call 2 failed (\(error.logCode)); keeping the first answer")
            return first.answer.isIdentified ? .identified(first) : .notIdentified(lastAnswer: first.answer)
        }
    }

    // MARK: - Private

    private func callOne(jpeg: Data) async throws -> VisionIdentification {
        let prompt = try load(PromptLibrary.identify)
        let request = LLMRequest(
            system: prompt.text,
            user: "Identify the album on this cover. Answer with the JSON object only.",
            jpeg: jpeg, useSearch: false, purpose: .identify, maxOutputTokens: 900
        )
        return try await ask(request, tier: .vision)
    }

    private func callTwo(jpeg: Data, firstLook: IdentificationAnswer) async throws -> VisionIdentification {
        let prompt = try load(PromptLibrary.identifySearch)
        let notes: [String: Any] = [
            "readable_text": firstLook.readableText,
            "text_confidence": firstLook.textConfidence.rawValue,
            "artist": firstLook.artist,
            "album": firstLook.album,
        ]
        let json = (try? JSONSerialization.data(withJSONObject: notes, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let request = LLMRequest(
            system: prompt.text,
            user: "<first_look>\n\(json)\n</first_look>\nIdentify the album on this cover. Answer with the JSON object only.",
            jpeg: jpeg, useSearch: true, purpose: .identify, maxOutputTokens: 1200
        )
        return try await ask(request, tier: .visionSearch)
    }

    private func ask(_ request: LLMRequest, tier: VisionTier) async throws -> VisionIdentification {
        let response: LLMResponse
        do {
            response = try await provider.complete(request)
        } catch let error as ProviderError {
            throw IdentificationError.provider(error)
        }
        return VisionIdentification(answer: try IdentificationAnswer.parse(response.text), tier: tier, model: response.model)
    }

    private func load(_ name: String) throws -> Prompt {
        do {
            return try prompts.prompt(name)
        } catch let failure as PromptLibrary.Failure {
            throw IdentificationError.prompt(failure)
        }
    }
}

extension IdentificationError {
    /// A key-free code for logs.
    var logCode: String {
        switch self {
        case .unreadableAnswer: return "unreadable answer"
        case .provider(let error): return error.code
        case .prompt: return "prompt missing"
        }
    }
}
