import Foundation

/// "Tell Crate what it is": the form's search and its answer.
public struct IdentifyState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case idle
        case searching
        /// The releases that fit, best first (none: MusicBrainz knows nothing that fits).
        case found([ScanCandidate])
        /// A field is wrong, or MusicBrainz could not be asked, in plain words.
        case failed(String)
    }

    public var phase: Phase = .idle

    public init() {}
}

/// Searches MusicBrainz for what the user says a record is. Saving the one chosen goes through
/// the scan queue (`ScanStore.identify`), like every scan, so it shows as one.
@MainActor
public final class IdentifyStore {
    public let state = ObservableValue(IdentifyState())
    private let candidates: @Sendable (ManualIdentification) async throws -> [ScanCandidate]
    /// Counts searches: an answer for an older one is dropped.
    private var request = 0

    public init(candidates: @escaping @Sendable (ManualIdentification) async throws -> [ScanCandidate]) {
        self.candidates = candidates
    }

    public func search(artist: String, title: String, year: String?, label: String?, catalogNumber: String?) async {
        request += 1
        let current = request
        let manual: ManualIdentification
        do {
            manual = try ManualIdentification(artist: artist, title: title, year: year, label: label, catalogNumber: catalogNumber)
        } catch {
            state.set(IdentifyState(phase: .failed(error.message)))
            return
        }
        state.set(IdentifyState(phase: .searching))
        let phase: IdentifyState.Phase
        do {
            phase = .found(try await candidates(manual))
        } catch {
            phase = .failed(UserMessage.text(for: error))
        }
        guard current == request else { return }
        state.set(IdentifyState(phase: phase))
    }

    /// A new form: no answer shown.
    public func reset() {
        request += 1
        state.set(IdentifyState())
    }
}

extension IdentifyState {
    init(phase: Phase) {
        self.phase = phase
    }
}
