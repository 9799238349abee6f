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
            record(UsageRecord(
                at: started, provider: kind.rawValue, model: response.model, purpose: request.purpose,
                inputTokens: response.usage.input, outputTokens: response.usage.output,
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

    private func record(_ record: UsageRecord) {
        do {
            try database.recordUsage(record)
        } catch {
            log("could not record provider usage: \((error as? CrateError)?.message ?? "\(type(of: error))")")
        }
    }
}
