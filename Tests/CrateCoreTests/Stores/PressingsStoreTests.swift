import Foundation
import Synchronization
import Testing
@testable import CrateCore

private let vinyl = MBID(validating: "7ec069c0-4424-3169-8ed0-d5e2473e0e84")!
private let cd = MBID(validating: "0f6b4c0a-2a1c-4d3e-9d6e-3f1a2b3c4d5e")!
private let pressings = [
    Pressing(releaseID: vinyl, title: "Rumours", facts: ReleaseFacts(releaseID: vinyl.rawValue, country: "GB", date: "1977-02-04")),
    Pressing(releaseID: cd, title: "Rumours", facts: ReleaseFacts(releaseID: cd.rawValue, country: "US", date: "2004-03-22")),
]

/// An answer the test releases when it chooses (a slow MusicBrainz).
private final class Gate: Sendable {
    private let waiters = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let opened = Mutex(false)
    func wait() async {
        await withCheckedContinuation { continuation in
            let now = opened.withLock { $0 }
            if now { continuation.resume() } else { waiters.withLock { $0.append(continuation) } }
        }
    }
    func open() {
        opened.withLock { $0 = true }
        for waiter in waiters.withLock({ list in defer { list = [] }; return list }) { waiter.resume() }
    }
}

@Suite("PressingsStore")
@MainActor
struct PressingsStoreTests {
    @Test func opensWithThePressingsAndMarksTheCurrentOne() async {
        let store = PressingsStore(client: PressingsClient(list: { _ in pressings }, switchTo: { _, _ in Album(title: "x", artist: "y") }))
        await store.open(albumID: 4, currentReleaseID: vinyl.rawValue)
        #expect(store.state.value.phase == .loaded(pressings))
        #expect(store.state.value.currentReleaseID == vinyl.rawValue)
        #expect(store.state.value.albumID == 4)
    }

    @Test func aListThatCannotBeReadSaysWhyInWords() async {
        let store = PressingsStore(client: PressingsClient(list: { _ in throw PressingError.noReleaseGroup }, switchTo: { _, _ in Album(title: "x", artist: "y") }))
        await store.open(albumID: 4, currentReleaseID: nil)
        #expect(store.state.value.phase == .failed(PressingError.noReleaseGroup.message))
    }

    @Test func choosingSwitchesAndFollowsTheAlbumThatNowStandsForTheRelease() async {
        let asked = Mutex<[String]>([])
        let merged = Album(id: 9, musicBrainzReleaseID: cd.rawValue, title: "Rumours", artist: "Fleetwood Mac")
        let store = PressingsStore(client: PressingsClient(list: { _ in pressings }, switchTo: { id, release in
            asked.withLock { $0.append("\(id) \(release)") }
            return merged
        }))
        await store.open(albumID: 4, currentReleaseID: vinyl.rawValue)
        let album = await store.choose(releaseID: cd.rawValue)
        #expect(album == merged)
        #expect(asked.withLock { $0 } == ["4 \(cd.rawValue)"])
        #expect(store.state.value.albumID == 9)
        #expect(store.state.value.currentReleaseID == cd.rawValue)
        #expect(store.state.value.switchingTo == nil)
    }

    @Test func aFailedSwitchChangesNothingAndSaysWhy() async {
        let store = PressingsStore(client: PressingsClient(list: { _ in pressings }, switchTo: { _, _ in throw PressingError.notAPressing }))
        await store.open(albumID: 4, currentReleaseID: vinyl.rawValue)
        #expect(await store.choose(releaseID: cd.rawValue) == nil)
        #expect(store.state.value.switchError == PressingError.notAPressing.message)
        #expect(store.state.value.currentReleaseID == vinyl.rawValue)
        #expect(store.state.value.phase == .loaded(pressings))
    }

    /// The pane moved to another album while MusicBrainz was slow: the late list is dropped.
    @Test func aListForAnAlbumNoLongerShownIsDropped() async {
        let gate = Gate()
        let store = PressingsStore(client: PressingsClient(list: { _ in
            await gate.wait()
            return pressings
        }, switchTo: { _, _ in Album(title: "x", artist: "y") }))
        let opening = Task { await store.open(albumID: 4, currentReleaseID: nil) }
        while store.state.value.phase != .loading { await Task.yield() }
        store.close()
        gate.open()
        await opening.value
        #expect(store.state.value.phase == .closed)
        #expect(store.state.value.albumID == nil)
    }
}
