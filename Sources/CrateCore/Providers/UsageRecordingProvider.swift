import Foundation

/// Wraps a provider and records every call (success or failure) in the `usage` table.
/// Recording never changes the call's outcome: a failed write is logged, not thrown. With a
/// `meter`, a call is refused (`UsageBudgetError.usedUp`, nothing sent) once this month's budget
/// is used up.
public final class UsageRecordingProvider: LLMProvider {
    public let base: any LLMProvider
    private let database: AppDatabase
    private let log: DiagnosticLog
    private let meter: UsageMeter?
    private let clock: @Sendable () -> Date

    public var kind: ProviderKind { base.kind }
    public var model: String { base.model }
    public var supportsSearch: Bool { base.supportsSearch }

    public init(_ base: any LLMProvider, database: AppDatabase, meter: UsageMeter? = nil, log: DiagnosticLog = .standard,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.database = database
        self.meter = meter
        self.log = log
        self.clock = clock
    }

    public func complete(_ request: LLMRequest) async throws -> LLMResponse {
        try meter?.checkProviderAllowed()
        let started = clock()
        let begin = DispatchTime.now().uptimeNanoseconds
        func elapsedMs() -> Int { Int((DispatchTime.now().uptimeNanoseconds - begin) / 1_000_000) }
        do {
            let response = try await base.complete(request)
            // The reply's own words are not trusted for the bill: a count no call can have is
            // clamped, and the call is priced as the model Crate asked for (a reply naming
            // another, or none, would otherwise be "not priced" and free).
            let usage = response.usage.clamped
            if response.usage.isOutOfBounds {
                log("\(kind.displayName) replied with token counts no call can have; counted as \(usage.input ?? 0) in, \(usage.output ?? 0) out")
            }
            if response.model != model {
                log("\(kind.displayName) replied as model \(Self.shortName(response.model)) to a request for \(model); priced as \(model)")
            }
            record(UsageRecord(
                at: started, provider: kind.rawValue, model: model, purpose: request.purpose,
                inputTokens: usage.input, outputTokens: usage.output,
                durationMs: elapsedMs(), success: true, usedSearch: response.usedSearch
            ))
            return response
        } catch {
            let code = (error as? ProviderError)?.code ?? "other"
            record(UsageRecord(
                at: started, provider: kind.rawValue, model: model, purpose: request.purpose,
                inputTokens: nil, outputTokens: nil, durationMs: elapsedMs(), success: false,
                usedSearch: request.useSearch && supportsSearch, errorCode: code
            ))
            throw error
        }
    }

    /// A model name from a reply, for the log: bounded, printable ASCII only.
    static func shortName(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(64)))
    }

    private func record(_ record: UsageRecord) {
        do {
            try database.recordUsage(record)
        } catch {
            log("could not record provider usage: \((error as? CrateError)?.message ?? "\(type(of: error))")")
        }
    }
}
