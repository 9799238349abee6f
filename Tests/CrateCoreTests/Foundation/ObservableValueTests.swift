import Testing
@testable import CrateCore

@Suite("ObservableValue")
@MainActor
struct ObservableValueTests {
    @Test func notifiesSubscribersOfEveryChange() {
        let value = ObservableValue(1)
        var seen: [Int] = []
        let token = value.subscribe { seen.append($0) }
        value.set(2)
        value.set(2)  // Same value again: still a change notification; nothing is coalesced.
        value.update { $0 += 1 }
        #expect(seen == [2, 2, 3])
        token.cancel()
    }

    @Test func initialDeliversCurrentValue() {
        let value = ObservableValue("a")
        var seen: [String] = []
        let token = value.subscribe(initial: true) { seen.append($0) }
        value.set("b")
        #expect(seen == ["a", "b"])
        _ = token
    }

    @Test func noNotificationAfterCancel() {
        let value = ObservableValue(0)
        var count = 0
        let token = value.subscribe { _ in count += 1 }
        value.set(1)
        token.cancel()
        value.set(2)
        #expect(count == 1)
        #expect(value.subscriberCount == 0)
    }

    @Test func releasingTheTokenCancels() {
        let value = ObservableValue(0)
        var count = 0
        do {
            let token = value.subscribe { _ in count += 1 }
            value.set(1)
            _ = token
        }
        value.set(2)
        #expect(count == 1)
        #expect(value.subscriberCount == 0)
    }

    /// A subscriber that captures its observable weakly must not keep it alive through the token.
    @Test func tokenDoesNotRetainTheObservable() {
        weak var weakValue: ObservableValue<Int>?
        var token: ObservationToken?
        do {
            let value = ObservableValue(0)
            weakValue = value
            token = value.subscribe { _ in }
        }
        #expect(weakValue == nil)
        token?.cancel()  // Cancelling after the observable is gone is harmless.
    }

    @Test func subscribersAreCalledInSubscriptionOrder() {
        let value = ObservableValue(0)
        var order: [String] = []
        var tokens: [ObservationToken] = []
        value.subscribe { _ in order.append("first") }.store(in: &tokens)
        value.subscribe { _ in order.append("second") }.store(in: &tokens)
        value.set(1)
        #expect(order == ["first", "second"])
    }

    @Test func handlerMayCancelItselfDuringNotification() {
        let value = ObservableValue(0)
        var token: ObservationToken?
        var calls = 0
        token = value.subscribe { _ in
            calls += 1
            token?.cancel()
        }
        value.set(1)
        value.set(2)
        #expect(calls == 1)
    }

    /// A handler that holds another subscription of the same value: cancelling the first releases
    /// the handler, which cancels the second while the first cancel is still under way. Crashed
    /// with an exclusivity violation when the window closed.
    @MainActor @Test func cancellingReleasesAHandlerThatHoldsAnotherSubscription() {
        let value = ObservableValue(0)
        var outer: ObservationToken? = Self.subscription(of: value, holding: value.subscribe { _ in })
        #expect(value.subscriberCount == 2)
        outer = nil
        _ = outer
        #expect(value.subscriberCount == 0, "both subscriptions ended")
    }

    @MainActor private static func subscription(of value: ObservableValue<Int>, holding inner: ObservationToken) -> ObservationToken {
        value.subscribe { _ in _ = inner }
    }
}
