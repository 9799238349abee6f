import Foundation

/// What a genre feed is about: a super-genre, and the subcategories picked on the genre bar
/// (none: the whole genre).
public struct GenreScope: Equatable, Sendable {
    public let genre: Genre
    public let selected: [GenreEntry]

    public init(genre: Genre, selected: [GenreEntry] = []) {
        self.genre = genre
        self.selected = selected
    }

    /// The genre by id or name, with subcategories by id or name; unknown names are errors. A
    /// subcategory's id or name in place of the genre ("post-rock") means its genre with that
    /// subcategory picked.
    public init(taxonomy: GenreTaxonomy, genre name: String, subcategories: [String] = []) throws {
        let genre: Genre
        var picked: [GenreEntry] = []
        if let found = taxonomy.genre(named: name) {
            genre = found
        } else if let found = taxonomy.subcategory(named: name) {
            genre = found.genre
            picked.append(found.entry)
        } else {
            throw GenreFeedError.unknownGenre(name)
        }
        for sub in subcategories {
            guard let entry = genre.subcategory(named: sub) else { throw GenreFeedError.unknownSubcategory(genre: genre.displayName, subcategory: sub) }
            if !picked.contains(entry) { picked.append(entry) }
        }
        self.init(genre: genre, selected: picked)
    }

    /// What the feed is called ("Rock", "Rock: Post-Rock + Shoegaze").
    public var title: String {
        selected.isEmpty ? genre.name : "\(genre.name): " + selected.map(\.name).joined(separator: " + ")
    }

    /// The title in the user's language ("Rock: Post-Rock + Shoegaze" with translated names).
    public var displayTitle: String {
        selected.isEmpty ? genre.displayName
            : L10n.tr("%@: %@", genre.displayName, selected.map(\.displayName).joined(separator: " + "))
    }

    /// Every tag an album may carry to belong to the scope: the picked subcategories' tags, or
    /// the genre's and all its subcategories'.
    public var filterTags: [String] {
        let entries = selected.isEmpty ? [genre.entry] + genre.subcategories : selected
        var seen = Set<String>()
        return entries.flatMap(\.searchTags).filter { seen.insert($0).inserted }
    }

    /// The searches that run side by side: one per picked subcategory, or the genre itself.
    public var searchGroups: [[String]] {
        selected.isEmpty ? [genre.entry.searchTags] : selected.map(\.searchTags)
    }
}

/// MusicBrainz release-group searches for genre feeds, every tag escaped (`LuceneQuery.tag`).
public enum GenreQuery {
    /// `(tag:"a" OR tag:"b")` (one tag: `tag:"a"`).
    public static func tags(_ tags: [String]) -> String {
        LuceneQuery.anyTag(tags)
    }

    /// Albums with one of the tags.
    public static func albums(tags: [String]) -> String {
        "\(self.tags(tags)) AND primarytype:album"
    }

    /// Albums with one of the tags first released from `from` on (`YYYY-MM-DD`).
    public static func newReleases(tags: [String], from: String) -> String {
        "\(self.tags(tags)) AND primarytype:album AND firstreleasedate:[\(from) TO *]"
    }

    /// Those of `groups` that carry one of the tags.
    public static func filter(groups: [MBID], tags: [String]) -> String {
        "rgid:(" + groups.map(\.rawValue).joined(separator: " OR ") + ") AND \(self.tags(tags))"
    }

    /// Albums by any of the artists.
    public static func albums(byArtists artists: [MBID]) -> String {
        "arid:(" + artists.map(\.rawValue).joined(separator: " OR ") + ") AND primarytype:album"
    }
}

/// The genre feeds' MusicBrainz work: searches side by side, merged without duplicates, and the
/// tag filter that keeps the albums of another signal that belong to the genre.
public struct GenreSearcher: Sendable {
    public let musicBrainz: MusicBrainzClient
    public let coverArt: URL

    public init(musicBrainz: MusicBrainzClient, coverArt: URL) {
        self.musicBrainz = musicBrainz
        self.coverArt = coverArt
    }

    /// Release groups MusicBrainz lists per filter request (its search limit).
    public static let filterBatch = 40

    /// Runs every query side by side and merges the answers round robin (the first of each, then
    /// the second of each, …), each release group once; live albums, compilations and other
    /// secondary types are left out. Fails only when every query failed.
    public func merged(_ queries: [String], limit: Int, offset: @Sendable (Int) -> Int = { _ in 0 }, signal: WallSignal) async throws -> [WallItem] {
        let musicBrainz = self.musicBrainz
        let offsets = queries.indices.map(offset)
        let results = await withTaskGroup(of: (Int, Result<[ReleaseGroupHit], Error>).self) { group in
            for (index, query) in queries.enumerated() {
                group.addTask {
                    (index, await attempt { try await musicBrainz.searchReleaseGroups(lucene: query, limit: limit, offset: offsets[index]).groups })
                }
            }
            var out = [Result<[ReleaseGroupHit], Error>](repeating: .success([]), count: queries.count)
            for await (index, result) in group { out[index] = result }
            return out
        }
        let lists = results.compactMap { try? $0.get() }
        let failures = results.compactMap { result -> Error? in
            if case .failure(let error) = result { return error }
            return nil
        }
        if lists.isEmpty, let failure = failures.first { throw failure }
        var merged: [WallItem] = []
        for index in 0..<(lists.map(\.count).max() ?? 0) {
            for list in lists where index < list.count && list[index].secondaryTypes.isEmpty {
                merged.append(item(list[index], signal: signal))
            }
        }
        return uniqueByReleaseGroup(merged)
    }

    /// The albums of `items` MusicBrainz tags with one of `tags`, in their order (batched, one
    /// search per `filterBatch` albums).
    public func filter(_ items: [WallItem], tags: [String]) async throws -> [WallItem] {
        let unique = uniqueByReleaseGroup(items)
        var kept = Set<MBID>()
        var start = 0
        while start < unique.count {
            let batch = Array(unique[start..<min(start + Self.filterBatch, unique.count)]).map(\.releaseGroupID)
            let page = try await musicBrainz.searchReleaseGroups(lucene: GenreQuery.filter(groups: batch, tags: tags), limit: 100)
            kept.formUnion(page.groups.map(\.id))
            start += Self.filterBatch
        }
        return unique.filter { kept.contains($0.releaseGroupID) }
    }

    func item(_ hit: ReleaseGroupHit, signal: WallSignal) -> WallItem {
        WallItem(signal: signal, releaseGroupID: hit.id, title: hit.title, artist: hit.artist,
                 artURL: CoverArtURL.thumbnail(base: coverArt, releaseGroup: hit.id, caaRelease: nil, caaID: nil))
    }
}
