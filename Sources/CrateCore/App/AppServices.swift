import Foundation

/// Everything built from one set of settings: the clients pointed at the configured endpoints,
/// the configured provider (vision and reviews), and what the scan pipeline, the detail pane and
/// playback need from them. Rebuilt as a whole when settings change.
public struct AppServices: Sendable {
    public let environment: AppEnvironment
    public let settings: Settings
    /// The provider with its key, recording usage; nil when none is configured or offline.
    public let provider: (any LLMProvider)?
    public let musicBrainz: MusicBrainzClient?
    public let coverArt: CoverArtClient?
    public let reviewer: ReviewService?
    public let identifier: VisionIdentifier?
    /// This month's usage and the budget (read by `crate usage`, Preferences and the scan).
    public let usage: UsageMeter
    /// Discogs links, when a Discogs token is set (settings, Secret Service or `CRATE_DISCOGS_TOKEN`).
    public let discogs: DiscogsClient?

    init(environment: AppEnvironment, settings: Settings, offline: Bool) {
        self.environment = environment
        self.settings = settings
        let usage = UsageMeter(database: environment.database, prices: PriceTable.load(paths: environment.paths, environment: environment.variables),
                               budget: settings.monthlyBudget)
        self.usage = usage
        guard !offline else {
            provider = nil; musicBrainz = nil; coverArt = nil; reviewer = nil; identifier = nil; discogs = nil
            return
        }
        let transport = environment.transport
        let database = environment.database
        let prompts = PromptLibrary.locate()
        let provider = ProviderFactory.make(settings: settings, keys: environment.keys, http: ResilientHTTPClient(base: transport), usage: database, meter: usage)
        self.provider = provider
        musicBrainz = .live(settings: settings, transport: transport, limiter: environment.limiter)
        coverArt = .live(settings: settings, transport: transport, limiter: environment.limiter, validate: { try ImagePreparer.validateArtwork($0) })
        reviewer = ReviewService(provider: provider, database: database, prompts: prompts, advancedSearch: settings.advancedSearch)
        discogs = environment.keys.discogsToken().token.map { token in
            DiscogsClient(http: ResilientHTTPClient(base: transport, policy: DiscogsClient.retryPolicy, limiter: environment.limiter),
                          limiter: environment.limiter, baseURL: settings.endpoints.discogs, token: token, contact: settings.musicBrainzContact)
        }
        identifier = provider.map { VisionIdentifier(provider: $0, prompts: prompts, advancedSearch: settings.advancedSearch) }
    }

    /// The scan pipeline's view of these services.
    public var scan: ScanPipeline.Services {
        ScanPipeline.Services(identifier: identifier, musicBrainz: musicBrainz, coverArt: coverArt, reviewer: reviewer, usage: usage,
                              discogs: discogs)
    }

    /// A scan pipeline over the library with these services.
    public func makeScanPipeline() -> ScanPipeline {
        ScanPipeline(database: environment.database, paths: environment.paths, services: scan)
    }

    /// Artist pages: the library's cache always; MusicBrainz only when online.
    public var artistCatalogue: ArtistCatalogueService {
        ArtistCatalogueService(client: musicBrainz, database: environment.database)
    }

    /// Artist-page covers (250 px release-group fronts), saved in the cache directory.
    public var releaseGroupCovers: ReleaseGroupCovers {
        ReleaseGroupCovers(paths: environment.paths, client: coverArt)
    }

    /// Track lists for playback: the library first, MusicBrainz for albums saved without one.
    public var trackLists: TrackListProvider {
        musicBrainz.map { TrackListProvider.musicBrainz($0, database: environment.database) } ?? .unavailable
    }

    /// The detail pane's review functions: the cache always; generation only with a provider.
    public var reviewLookup: AlbumDetailStore.ReviewLookup {
        let reviewer = self.reviewer
        return { album in try reviewer?.cachedReview(for: album) }
    }

    public var reviewGenerator: AlbumDetailStore.ReviewGenerator? {
        guard let reviewer, reviewer.canGenerate else { return nil }
        return { album, regenerate in try await reviewer.review(for: album, regenerate: regenerate) }
    }
}
