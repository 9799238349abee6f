import GRDB

/// The albums already known for ListenBrainz recordings (`wall_recording_map`), by recording.
public struct CachedRecordingAlbumsRequest: ReadRequest {
    public var recordings: [MBID]

    public init(_ recordings: [MBID]) {
        self.recordings = recordings
    }

    public func fetch(_ db: Database) throws -> [MBID: ListenBrainzReleaseGroup] {
        var found: [MBID: ListenBrainzReleaseGroup] = [:]
        // SQLite's limit on bound parameters: ask 500 at a time.
        for chunk in stride(from: 0, to: recordings.count, by: 500) {
            let slice = Array(recordings[chunk..<min(chunk + 500, recordings.count)])
            let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
            for row in try Row.fetchAll(db, sql: "SELECT * FROM wall_recording_map WHERE recordingId IN (\(marks))", arguments: StatementArguments(slice.map(\.rawValue))) {
                guard let recording = MBID(validating: row["recordingId"] as String), let group = MBID(validating: row["releaseGroupId"] as String) else { continue }
                found[recording] = ListenBrainzReleaseGroup(releaseGroupID: group, title: row["title"], artist: row["artist"],
                                                            releaseID: MBID(validating: row["releaseId"] as String?), caaID: row["caaId"],
                                                            caaReleaseID: MBID(validating: row["caaReleaseId"] as String?),
                                                            primaryType: nil, releaseDate: nil, listenCount: nil)
            }
        }
        return found
    }
}
