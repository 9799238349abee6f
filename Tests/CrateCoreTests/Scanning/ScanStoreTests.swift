import CrateTestSupport
import Foundation
import Testing
@testable import CrateCore

/// A scanner whose answers and pauses the test scripts.
private final class ScriptedScanner: AlbumScanner, @unchecked Sendable {
    enum Step { case result(ScanResult), failure(ScanFailure), hang }
    private let lock = NSLock()
    private var steps: [String: Step]
    private(set) var scanned: [String] = []
    let album = Album(id: 1, title: "Rumours", artist: "Fleetwood Mac")

    init(_ steps: [String: Step]) { self.steps = steps }

    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        lock.withLock { scanned.append("choose:\(candidate.title)") }
        // Like the pipeline, the switch offers the album it replaced back as a candidate.
        return ScanResult(entry: HistoryEntry(scan: Scan(id: scanID + 1, albumID: 2, method: .manual), album: candidate), candidates: [album])
    }

    func scan(barcode: Barcode, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        try await run("barcode:\(barcode.digits)", events: events)
    }

    func scan(file: URL, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        try await run(file.lastPathComponent, events: events)
    }

    private func run(_ name: String, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        let step: Step? = lock.withLock {
            scanned.append(name)
            return steps[name]
        }
        switch step ?? .failure(.notIdentified) {
        case .result(let result):
            events(.identified(result.entry.album))
            events(.loadingReview(result.entry.album))
            return result
        case .failure(let failure):
            throw failure
        case .hang:
            try await Task.sleep(nanoseconds: 60_000_000_000)
            throw ScanFailure.notIdentified
        }
    }
}

private func result(_ title: String) -> ScanResult {
    let album = Album(id: 1, title: title, artist: "Artist")
    return ScanResult(entry: HistoryEntry(scan: Scan(id: 1, albumID: 1, method: .vision), album: album))
}

@Suite("ScanStore")
@MainActor
struct ScanStoreTests {
    @Test func goesThroughTheSeedStatesToComplete() async {
        let scanner = ScriptedScanner(["a.jpg": .result(result("Rumours"))])
        let store = ScanStore(scanner: scanner, sleep: { _ in })
        var phases: [String] = []
        var messages: [String] = []
        let token = store.state.subscribe { state in
            switch state.phase {
            case .idle: phases.append("idle")
            case .identifying: phases.append("identifying")
            case .identified: phases.append("identified")
            case .loadingReview: phases.append("loadingReview")
            case .complete: phases.append("complete")
            case .failed: phases.append("failed")
            }
            messages.append(state.message)
        }
        var saved: [ScanResult] = []
        store.onSaved = { saved.append($0) }
        store.scan(files: [URL(fileURLWithPath: "/tmp/a.jpg")])
        await store.waitUntilIdle()
        #expect(phases.contains("identifying"))
        #expect(phases.last == "complete")
        #expect(messages.contains(ScanStore.identifyingMessage))
        #expect(messages.contains("We found Rumours by Artist"))
        #expect(messages.contains(ScanStore.reviewMessage))
        #expect(saved.count == 1)
        token.cancel()
    }

    /// A barcode runs in the queue like a photo; its failure names no file and keeps the barcode,
    /// so the window can say it in the barcode bar.
    @Test func aBarcodeIsLookedUpInTurnAndItsFailureKeepsTheBarcode() async throws {
        let known = try Barcode(typed: "075992731317"), unknown = try Barcode(typed: "5099902943527")
        let scanner = ScriptedScanner(["a.jpg": .result(result("Tusk")), "barcode:075992731317": .result(result("Rumours"))])
        let store = ScanStore(scanner: scanner, sleep: { _ in })
        var saved: [String] = []
        store.onSaved = { saved.append($0.entry.album.title) }
        var messages: [String] = []
        let token = store.state.subscribe { messages.append($0.message) }
        store.scan(files: [URL(fileURLWithPath: "/tmp/a.jpg")])
        store.scan(barcode: known)
        await store.waitUntilIdle()
        #expect(scanner.scanned == ["a.jpg", "barcode:075992731317"])
        #expect(saved == ["Tusk", "Rumours"])
        #expect(messages.contains("Looking up barcode 075992731317…"))
        #expect(store.state.value.barcode == known)

        store.scan(barcode: unknown)
        await store.waitUntilIdle()
        #expect(store.state.value.phase == .failed(file: nil, .notIdentified))
        #expect(store.state.value.barcode == unknown)
        // The next photo is not taken for a barcode.
        store.scan(files: [URL(fileURLWithPath: "/tmp/a.jpg")])
        await store.waitUntilIdle()
        #expect(store.state.value.barcode == nil)
        token.cancel()
    }

    @Test func failureShowsTheSeedMessage() async {
        let store = ScanStore(scanner: ScriptedScanner([:]), sleep: { _ in })
        store.scan(files: [URL(fileURLWithPath: "/tmp/unknown.jpg")])
        await store.waitUntilIdle()
        #expect(store.state.value.phase == .failed(file: URL(fileURLWithPath: "/tmp/unknown.jpg"), .notIdentified))
        #expect(store.state.value.message == "Unable to identify this cover art")
    }

    @Test func badImagesNameTheProblem() async {
        let store = ScanStore(scanner: ScriptedScanner(["x.jpg": .failure(.badImage("This file is not an image"))]), sleep: { _ in })
        store.scan(files: [URL(fileURLWithPath: "/tmp/x.jpg")])
        await store.waitUntilIdle()
        #expect(store.state.value.message == "This file is not an image")
    }

    @Test func severalFilesScanInOrderWithACount() async {
        let scanner = ScriptedScanner(["1.jpg": .result(result("One")), "2.jpg": .failure(.notIdentified), "3.jpg": .result(result("Three"))])
        let store = ScanStore(scanner: scanner, sleep: { _ in })
        var counts: [String] = []
        let token = store.state.subscribe { if let text = $0.countText, counts.last != text { counts.append(text) } }
        store.scan(files: ["1.jpg", "2.jpg", "3.jpg"].map { URL(fileURLWithPath: "/tmp/\($0)") })
        await store.waitUntilIdle()
        #expect(scanner.scanned == ["1.jpg", "2.jpg", "3.jpg"])
        #expect(counts == ["Scanning 1 of 3", "Scanning 2 of 3", "Scanning 3 of 3"])
        #expect(store.state.value.total == 0)
        token.cancel()
    }

    @Test func slowIdentificationChangesTheMessageAfterTheDelay() async throws {
        let store = ScanStore(scanner: ScriptedScanner(["slow.jpg": .hang]), sleep: { seconds in
            #expect(seconds == 3.5)
        })
        store.scan(files: [URL(fileURLWithPath: "/tmp/slow.jpg")])
        #expect(await waitUntil(store.state) { store.state.value.message == ScanStore.searchingMessage } != nil)
        store.cancel()
        await store.waitUntilIdle()
        #expect(store.state.value.phase == .failed(file: URL(fileURLWithPath: "/tmp/slow.jpg"), .cancelled))
    }

    @Test func cancelDropsTheRestOfTheQueue() async throws {
        let scanner = ScriptedScanner(["a.jpg": .hang, "b.jpg": .result(result("B"))])
        let store = ScanStore(scanner: scanner, sleep: { _ in try? await Task.sleep(nanoseconds: 60_000_000_000) })
        store.scan(files: [URL(fileURLWithPath: "/tmp/a.jpg"), URL(fileURLWithPath: "/tmp/b.jpg")])
        #expect(await waitFor { scanner.scanned == ["a.jpg"] } != nil)  // Cancelled while a.jpg hangs.
        store.cancel()
        await store.waitUntilIdle()
        #expect(scanner.scanned == ["a.jpg"])
        #expect(!store.state.value.isBusy)
    }

    @Test func notThisAlbumSwitchesToACandidate() async {
        var first = result("Rumours")
        first.candidates = [Album(id: 2, title: "Rumours (Live)", artist: "Fleetwood Mac")]
        first.candidateScores = [0.7]
        let scanner = ScriptedScanner(["a.jpg": .result(first)])
        let store = ScanStore(scanner: scanner, sleep: { _ in })
        var saved: [String] = []
        store.onSaved = { saved.append($0.entry.album.title) }
        store.scan(files: [URL(fileURLWithPath: "/tmp/a.jpg")])
        await store.waitUntilIdle()
        #expect(store.state.value.candidates.map(\.album.title) == ["Rumours (Live)"], "the state offers the runners-up")
        #expect(store.state.value.candidates.map(\.score) == [0.7])
        store.choose(first.candidates[0])
        await store.waitUntilIdle()
        #expect(scanner.scanned == ["a.jpg", "choose:Rumours (Live)"])
        #expect(saved == ["Rumours", "Rumours (Live)"])
        guard case .complete(let chosen) = store.state.value.phase else { Issue.record("not complete"); return }
        #expect(chosen.entry.scan.method == .manual)
        #expect(store.state.value.candidates.map(\.album.title) == ["Rumours"], "the switch's own candidates are offered")
    }
}
