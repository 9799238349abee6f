import CrateCore
import CrateTestSupport
import Foundation
import Testing

/// Pacing shared between processes through `SharedPacingStore`: two `RateLimiter`s over one
/// directory stand for two Crate processes (each process has its own limiter; only the directory
/// is shared).
@Suite("Pacing shared between processes")
struct SharedPacingTests {
    static let host = "musicbrainz.org"

    /// The core promise, concurrently: 2 "processes" × 3 requests, and no two of the 6 starts
    /// are less than 1.0 s apart. Before the store, each limiter only paced itself and the two
    /// first requests went out together. The callers run for real, side by side; time is a
    /// manual clock that moves only when every caller is asleep or done, to the next wake-up,
    /// so a busy machine cannot make a caller late and the gaps are exact.
    @Test(.timeLimit(.minutes(10)))  // a hang guard: the whole suite under stress-ng took over 2 minutes
    func twoLimitersOverOneDirectoryNeverHandOutSlotsUnderASecondApart() async throws {
        let dir = try TemporaryDirectory()
        let store = SharedPacingStore(directory: dir.url)
        let clock = ManualClock()
        let limiters = [RateLimiter(clock: clock, store: store), RateLimiter(clock: clock, store: store)]
        let callers = 6
        let done = EventCounter()
        let running = Task {
            try await withThrowingTaskGroup(of: TimeInterval.self) { group in
                for limiter in limiters {
                    for _ in 0..<callers / limiters.count {
                        group.addTask {
                            try await limiter.acquire(host: Self.host, interval: RetryPolicy.musicBrainz.minimumInterval)
                            defer { done.signal() }
                            return clock.uptime()
                        }
                    }
                }
                return try await group.reduce(into: [TimeInterval]()) { $0.append($1) }
            }
        }
        while done.count < callers {
            if clock.sleeperCount + done.count == callers {
                clock.advanceToNextWake()
            } else {
                try await Task.sleep(for: .milliseconds(1))  // A caller is between two waits.
            }
        }
        let sorted = try await running.value.sorted()
        #expect(sorted.count == callers)
        let gaps = zip(sorted.dropFirst(), sorted).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 1.0 }, "gaps \(gaps)")
    }

    /// The race behind two slots granted together: a caller reads the clock, then waits a moment
    /// for the lock while another one books. Its "now" is then a millisecond before the file was
    /// written — not a clock set back — and the booking after it must still wait its turn.
    @Test func aCallerThatReadTheClockJustBeforeAnotherOneWroteKeepsTheQueue() throws {
        let dir = try TemporaryDirectory()
        let store = SharedPacingStore(directory: dir.url)
        let now = Date().timeIntervalSince1970
        #expect(try store.reserve(key: Self.host, interval: 1.1, now: now, maxDeferral: 15) == .slot(now))
        // Read its clock 1 ms before the first booking was written.
        guard case .slot(let second) = try store.reserve(key: Self.host, interval: 1.1, now: now - 0.001, maxDeferral: 15) else {
            Issue.record("expected a slot")
            return
        }
        #expect(abs(second - (now + 1.1)) < 0.002)
        // When that slot comes, the next caller is given the one after it, not "now".
        guard case .slot(let third) = try store.reserve(key: Self.host, interval: 1.1, now: second + 0.0003, maxDeferral: 15) else {
            Issue.record("expected a slot")
            return
        }
        #expect(third >= second + 1.1 - 0.002, "third slot \(third - now) s after the first")
    }

    /// The same on a virtual clock, one request at a time: the second "process" has never sent
    /// anything itself, yet it waits for the first one's slot.
    @Test func aSecondProcessWaitsForTheFirstOnesSlot() async throws {
        let dir = try TemporaryDirectory()
        let store = SharedPacingStore(directory: dir.url)
        let clock = TestClock()
        let first = RateLimiter(clock: clock, store: store)
        let second = RateLimiter(clock: clock, store: store)
        let start = clock.uptime()
        try await first.acquire(host: Self.host, interval: 1.1)
        try await second.acquire(host: Self.host, interval: 1.1)
        try await first.acquire(host: Self.host, interval: 1.1)
        let wakes = clock.wakeTimes.map { ($0 - start).rounded(toPlaces: 3) }
        #expect(wakes.first == 1.1, "the second process waited for the first one's slot: \(wakes)")
        #expect(wakes.last == 2.2, "and the first one then waited for the second one's: \(wakes)")
    }

    @Test func theInProcessLimiterStillPacesWithoutAStore() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(clock: clock)
        try await limiter.acquire(host: Self.host, interval: 1.1)
        try await limiter.acquire(host: Self.host, interval: 1.1)
        #expect(clock.sleeps.map { $0.rounded(toPlaces: 3) } == [1.1])
    }

    @Test(arguments: ["", "garbage", "crate-pacing 1\nwritten x\nnext 1\ndeferred 1\n", "crate-pacing 1\nnext 9e99", "\u{0}\u{0}\u{0}"])
    func aCorruptOrEmptyFileIsNoState(content: String) throws {
        let dir = try TemporaryDirectory()
        let store = SharedPacingStore(directory: dir.url)
        try Data(content.utf8).write(to: store.fileURL(key: Self.host))
        let now = Date().timeIntervalSince1970
        #expect(try store.reserve(key: Self.host, interval: 1.1, now: now, maxDeferral: 15) == .slot(now))
        #expect(try store.reserve(key: Self.host, interval: 1.1, now: now, maxDeferral: 15) == .slot(now + 1.1), "rewritten cleanly")
    }

    /// The wall clock was set back an hour after the last request: the stored slot is shifted by
    /// the same amount, so the next request waits its 1.1 s, not an hour and a second.
    @Test func aClockThatWentBackwardsDoesNotStallPacing() throws {
        let dir = try TemporaryDirectory()
        let store = SharedPacingStore(directory: dir.url)
        let before = Date().timeIntervalSince1970
        #expect(try store.reserve(key: Self.host, interval: 1.1, now: before, maxDeferral: 15) == .slot(before))
        let after = before - 3600
        let reservation = try store.reserve(key: Self.host, interval: 1.1, now: after, maxDeferral: 15)
        guard case .slot(let start) = reservation else {
            Issue.record("expected a slot, got \(reservation)")
            return
        }
        #expect(abs(start - (after + 1.1)) < 0.001)
    }

    @Test func aStoredSlotFarInTheFutureIsIgnored() throws {
        let dir = try TemporaryDirectory()
        let store = SharedPacingStore(directory: dir.url)
        let now = Date().timeIntervalSince1970
        try Data("crate-pacing 1\nwritten \(now)\nnext \(now + 86_400)\ndeferred 0\n".utf8).write(to: store.fileURL(key: Self.host))
        #expect(try store.reserve(key: Self.host, interval: 1.1, now: now, maxDeferral: 15) == .slot(now))
    }

    /// A `Retry-After: 600` heard by one process holds back the others (for the 120 s Crate grants
    /// one answer), which fail fast with the time left instead of sleeping through it.
    @Test func aLongPauseHeardByOneProcessFailsTheOthersFast() async throws {
        let dir = try TemporaryDirectory()
        let store = SharedPacingStore(directory: dir.url)
        let clock = TestClock()
        let first = RateLimiter(clock: clock, store: store)
        let second = RateLimiter(clock: clock, store: store)
        await first.deferHost(Self.host, by: 600)
        await #expect(throws: RetryLaterError(host: Self.host, seconds: 120)) {
            try await second.acquire(host: Self.host, interval: 1.1, maxDeferral: 15)
        }
        #expect(clock.sleeps.isEmpty, "nothing slept")
        #expect(await second.pendingDeferral(host: Self.host) == 120)
        // A short pause is waited out by the other process.
        let other = "coverartarchive.org"
        await first.deferHost(other, by: 3)
        try await second.acquire(host: other, interval: 0, maxDeferral: 15)
        #expect(clock.sleeps == [3])
    }

    @Test func theRuntimeDirectoryIsPreferredWithTheCacheAsFallback() throws {
        let dir = try TemporaryDirectory()
        let runtime = dir.url.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let cache = dir.url.appendingPathComponent("cache")
        let notADirectory = dir.url.appendingPathComponent("file")
        try Data().write(to: notADirectory)

        #expect(SharedPacingStore.forUser(environment: ["XDG_RUNTIME_DIR": runtime.path], cacheDirectory: cache)?.directory.path
                == runtime.appendingPathComponent("crate").path)
        let fallback = cache.appendingPathComponent("pacing").path
        #expect(SharedPacingStore.forUser(environment: [:], cacheDirectory: cache)?.directory.path == fallback)
        #expect(SharedPacingStore.forUser(environment: ["XDG_RUNTIME_DIR": "relative/run"], cacheDirectory: cache)?.directory.path == fallback)
        #expect(SharedPacingStore.forUser(environment: ["XDG_RUNTIME_DIR": notADirectory.path], cacheDirectory: cache)?.directory.path == fallback)
    }

    @Test func keysNeverNameAPathOutsideTheDirectory() {
        let store = SharedPacingStore(directory: URL(fileURLWithPath: "/tmp/pacing"))
        #expect(store.fileURL(key: "../../etc/passwd").path == "/tmp/pacing/.._.._etc_passwd.pace")
        #expect(store.fileURL(key: "127.0.0.1:8080").lastPathComponent == "127.0.0.1_8080.pace")
        #expect(store.fileURL(key: "..").lastPathComponent == "_.pace")
    }

    /// When the store cannot be used, pacing goes on within the process instead of failing.
    @Test func anUnusableStoreFallsBackToInProcessPacing() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(clock: clock, store: SharedPacingStore(directory: URL(fileURLWithPath: "/proc/crate-cannot-be-here")))
        try await limiter.acquire(host: Self.host, interval: 1.1)
        try await limiter.acquire(host: Self.host, interval: 1.1)
        #expect(clock.sleeps.map { $0.rounded(toPlaces: 3) } == [1.1])
    }

    @Test(arguments: [(0.2, "1 second"), (45.0, "45 seconds"), (60.0, "1 minute"), (61.0, "2 minutes"), (600.0, "10 minutes"),
                      (3600.0, "1 hour"), (5400.0, "2 hours"), (86_400.0, "24 hours")])
    func waitsAreSaidInPlainWords(seconds: Double, words: String) {
        #expect(WaitDuration.spoken(seconds) == words)
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
