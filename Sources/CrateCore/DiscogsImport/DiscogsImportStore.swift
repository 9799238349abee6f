import Foundation

/// What the window's import banner shows.
public struct DiscogsImportState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case idle
        /// Reading the file or the Discogs pages, before anything is staged.
        case reading
        case importing(DiscogsImportProgress)
        /// Done (or stopped early, said in the message): what happened, in plain words.
        case finished(String)
        case failed(String)
    }

    public var phase: Phase = .idle

    public init(phase: Phase = .idle) {
        self.phase = phase
    }

    /// "1 200 of 5 000 records · about 2 minutes left".
    public static func describe(_ progress: DiscogsImportProgress) -> String {
        L10n.tr("Importing from Discogs: %@ of %@ records · about %@ left", progress.done, progress.total, WaitDuration.spoken(progress.secondsLeft))
    }
}

/// The window's Discogs import: a CSV export or the API, staged then matched by
/// `DiscogsImporter` off the main actor, its progress in `state`.
@MainActor
public final class DiscogsImportStore {
    public let state = ObservableValue(DiscogsImportState())
    private let database: AppDatabase
    private let musicBrainz: MusicBrainzClient?
    private let discogs: DiscogsClient?
    private var task: Task<Void, Never>?

    public init(database: AppDatabase, musicBrainz: MusicBrainzClient?, discogs: DiscogsClient?) {
        self.database = database
        self.musicBrainz = musicBrainz
        self.discogs = discogs
    }

    public var isRunning: Bool { task != nil }
    public var canUseAPI: Bool { discogs != nil }

    /// Imports a Discogs CSV export.
    public func importCSV(_ file: URL) {
        start(source: "csv", name: file.lastPathComponent) { try DiscogsCSVReader.read(file: file) }
    }

    /// Imports the token's own collection and wantlist from the Discogs API.
    public func importFromDiscogs() {
        guard let discogs else {
            state.set(DiscogsImportState(phase: .failed(DiscogsError.noToken.message)))
            return
        }
        start(source: "api", name: "discogs") {
            let user = try await discogs.identity()
            return try await discogs.collection(user: user) + discogs.wantlist(user: user)
        }
    }

    /// Goes on with what an interrupted import left (at start, when rows are pending).
    public func resumeIfPending() {
        guard ((try? database.discogsImportCounts().pending) ?? 0) > 0 else { return }
        start(source: nil, name: "") { [] }
    }

    public func cancel() {
        task?.cancel()
    }

    public func dismiss() {
        guard task == nil else { return }
        state.set(DiscogsImportState())
    }

    private func show(_ progress: DiscogsImportProgress) {
        guard task != nil else { return }
        state.set(DiscogsImportState(phase: .importing(progress)))
    }

    private func start(source: String?, name: String, read: @escaping @Sendable () async throws -> [DiscogsImportItem]) {
        guard task == nil else { return }
        guard let musicBrainz else {
            state.set(DiscogsImportState(phase: .failed(L10n.tr("MusicBrainz is needed to match the records."))))
            return
        }
        state.set(DiscogsImportState(phase: .reading))
        let database = self.database
        task = Task { [weak self] in
            let phase: DiscogsImportState.Phase
            do {
                let items = try await read()
                if let source { _ = try await Task.detached { try database.stageDiscogsImport(items, source: source, name: name) }.value }
                let importer = DiscogsImporter(database: database, musicBrainz: musicBrainz)
                guard let store = self else { return }
                let summary = try await importer.run { progress in
                    Task { @MainActor in store.show(progress) }
                }
                let p = summary.progress
                var text = L10n.plural("Imported from Discogs: %@ record matched on MusicBrainz", "Imported from Discogs: %@ records matched on MusicBrainz",
                                       p.matched, p.matched)
                if p.discogsOnly > 0 { text += L10n.tr(", %@ kept as Discogs only", p.discogsOnly) }
                if let stopped = summary.stoppedEarly { text += " — " + stopped }
                phase = .finished(text)
            } catch DiscogsImportError.importingElsewhere where source == nil {
                // At start: a command is importing; it finishes the job.
                phase = .idle
            } catch is CancellationError {
                phase = .finished(L10n.tr("Import paused; it goes on the next time Crate starts."))
            } catch {
                phase = .failed(UserMessage.text(for: error))
            }
            self?.task = nil
            self?.state.set(DiscogsImportState(phase: phase))
        }
    }
}
