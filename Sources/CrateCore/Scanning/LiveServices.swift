import Foundation

/// Builds the scan pipeline's services from the user's settings: libcurl clients pointed at the
/// configured endpoints, and the configured provider (if any) for vision and reviews.
public enum LiveServices {
    public static func make(settings: Settings, keys: KeyStore, database: AppDatabase, offline: Bool = false) -> ScanPipeline.Services {
        if offline { return .offline }
        let transport = CurlHTTPClient()
        let prompts = PromptLibrary.locate()
        let provider = ProviderFactory.make(settings: settings, keys: keys, http: ResilientHTTPClient(base: transport), usage: database)
        return ScanPipeline.Services(
            identifier: provider.map { VisionIdentifier(provider: $0, prompts: prompts, advancedSearch: settings.advancedSearch) },
            musicBrainz: .live(settings: settings, transport: transport),
            coverArt: .live(settings: settings, transport: transport, validate: { try ImagePreparer.validate($0) }),
            reviewer: ReviewService(provider: provider, database: database, prompts: prompts, advancedSearch: settings.advancedSearch)
        )
    }
}
