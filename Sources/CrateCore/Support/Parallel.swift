import Foundation

/// `DispatchQueue.concurrentPerform` for the imaging hot paths, whose iterations share captured
/// state safely by construction: each iteration writes only its own variables or slots (or, in
/// photo preparation, reads decoded rows only after `RowProgress` published them), and
/// `concurrentPerform` returns only after every iteration finished, so the caller then reads the
/// results race-free. The compiler cannot prove that about captured variables; this is the one
/// place the claim is made, and callers say which rule their iterations follow.
enum Parallel {
    static func perform(iterations: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            let shared = UncheckedSendableBox(body)
            DispatchQueue.concurrentPerform(iterations: iterations) { shared.value($0) }
        }
    }
}

/// Carries a value across a concurrency boundary that Swift cannot check. Only `Parallel` uses
/// it, under the rule written there.
private struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
