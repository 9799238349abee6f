import Foundation
import Testing
@testable import CrateCore

/// A door a scripted scan waits at until the test opens it. Waiting is cancellable, and gives up
/// after `limit` so a test of a broken store fails instead of hanging (a ceiling far above any
/// wait of a busy machine: a gate that gave up early would let its scan finish too soon).
private final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private let limit: TimeInterval

    init(limit: TimeInterval = 120) { self.limit = limit }

    func open() { lock.withLock { isOpen = true } }

    func wait() async throws {
        let deadline = Date().addingTimeInterval(limit)
        while !lock.withLock({ isOpen }) && Date() < deadline {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
    }
}

/// A scanner for the race tests: each file name maps to a script; "choose" waits at `chooseGate`.
private final class RacingScanner: AlbumScanner, @unchecked Sendable {
    enum Script {
        /// Returns at once, then reports `.identified(late)` from elsewhere once `gate` opens.
        case returnsThenReportsLate(ScanResult, late: Album, gate: Gate)
        /// Waits at `gate`, then returns.
        case waits(Gate, ScanResult)
        case result(ScanResult)
    }

    private let lock = NSLock()
    private let scripts: [String: Script]
    private var log: [String] = []
    let chooseGate: Gate

    init(_ scripts: [String: Script], chooseGate: Gate = Gate()) {
        self.scripts = scripts
        self.chooseGate = chooseGate
    }

    var calls: [String] { lock.withLock { log } }
    private func record(_ call: String) { lock.withLock { log.append(call) } }

    func scan(file: URL, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        let name = file.lastPathComponent
        record(name)
        switch scripts[name] {
        case .returnsThenReportsLate(let result, let late, let gate):
            events(.identified(result.entry.album))
            Task.detached { [self] in
                try? await gate.wait()
                events(.identified(late))
                record("late event sent")
            }
            return result
        case .waits(let gate, let result):
            do { try await gate.wait() } catch { record("\(name) cancelled"); throw error }
            return result
        case .result(let result):
            events(.identified(result.entry.album))
            return result
        case nil:
            throw ScanFailure.notIdentified
        }
    }

    func choose(_ candidate: Album, replacing scanID: Int64, events: @escaping @Sendable (ScanEvent) -> Void) async throws -> ScanResult {
        record("choose:\(candidate.title)")
        do { try await chooseGate.wait() } catch { record("choose cancelled"); throw error }
        return ScanResult(entry: HistoryEntry(scan: Scan(id: scanID + 1, albumID: 2, method: .manual), album: candidate))
    }
}

private func result(_ title: String, candidates: [Album] = []) -> ScanResult {
    let album = Album(id: 1, title: title, artist: "Artist")
    return ScanResult(entry: HistoryEntry(scan: Scan(id: 1, albumID: 1, method: .vision), album: album), candidates: candidates)
}

private func file(_ name: String) -> URL { URL(fileURLWithPath: "/tmp/\(name)") }

/// Polls (on the main actor, letting other work run) until `condition` holds (the scripted
/// scanner's calls are not observable) or a ceiling that only catches a hang passes.
@MainActor
private func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<60_000 where !condition() {
        try await Task.sleep(nanoseconds: 2_000_000)
    }
}

@Suite("ScanStore races")
@MainActor
struct ScanStoreRaceTests {
    private let live = Album(id: 2, title: "Rumours (Live)", artist: "Fleetwood Mac")

    @Test func filesDroppedWhileChoosingAreScannedAfterIt() async throws {
        let scanner = RacingScanner(["a.jpg": .result(result("Rumours", candidates: [live])), "b.jpg": .result(result("Tusk"))])
        let store = ScanStore(scanner: scanner, sleep: { _ in })
        store.scan(files: [file("a.jpg")])
        await store.waitUntilIdle()

        store.choose(live)
        try await eventually { scanner.calls.contains("choose:Rumours (Live)") }
        store.scan(files: [file("b.jpg")])  // Dropped while "Not this album?" runs.
        scanner.chooseGate.open()
        await store.waitUntilIdle()

        #expect(scanner.calls == ["a.jpg", "choose:Rumours (Live)", "b.jpg"], "the dropped file is scanned once the switch is done")
        guard case .complete(let last) = store.state.value.phase else { Issue.record("not complete: \(store.state.value.phase)"); return }
        #expect(last.entry.album.title == "Tusk")
    }

    @Test func cancelStopsChoosing() async throws {
        let scanner = RacingScanner(["a.jpg": .result(result("Rumours", candidates: [live]))])
        let store = ScanStore(scanner: scanner, sleep: { _ in })
        store.scan(files: [file("a.jpg")])
        await store.waitUntilIdle()

        store.choose(live)
        try await eventually { scanner.calls.contains("choose:Rumours (Live)") }
        store.cancel()  // Escape; the gate is never opened.
        await store.waitUntilIdle()

        #expect(scanner.calls.contains("choose cancelled"), "the switch's task was cancelled")
        #expect(store.state.value.phase == .failed(file: nil, .cancelled))
        #expect(!store.state.value.isBusy)
    }

    @Test func aLateEventFromOneScanNeverRelabelsTheNext() async throws {
        let lateGate = Gate()
        let nextGate = Gate()
        let late = Album(id: 9, title: "Late", artist: "Previous Scan")
        let scanner = RacingScanner([
            "a.jpg": .returnsThenReportsLate(result("Rumours"), late: late, gate: lateGate),
            "b.jpg": .waits(nextGate, result("Tusk")),
        ])
        let store = ScanStore(scanner: scanner, sleep: { _ in })
        var phases: [ScanState.Phase] = []
        let token = store.state.subscribe { phases.append($0.phase) }
        store.scan(files: [file("a.jpg"), file("b.jpg")])
        try await eventually { scanner.calls.contains("b.jpg") }
        #expect(store.state.value.phase == .identifying)

        lateGate.open()  // a.jpg's scanner reports once more, while b.jpg is being identified.
        try await eventually { scanner.calls.contains("late event sent") }
        try await Task.sleep(nanoseconds: 50_000_000)  // Room for a hop to the main actor.

        #expect(store.state.value.phase == .identifying, "b.jpg is still being identified")
        #expect(!phases.contains(.identified(late)), "a.jpg's late event never labels b.jpg's scan")
        store.cancel()
        await store.waitUntilIdle()
        token.cancel()
    }
}
