import Foundation
import Testing
@testable import CrateCore

/// The hand-off between the decoding thread and the one using rows as they arrive: the consumer
/// must never wait forever, and must stop reading rows once decoding has failed.
@Suite("Row progress")
struct RowProgressTests {
    @Test func consumerSeesEveryRowThenTheEnd() async {
        let progress = RowProgress()
        let seen = await withCheckedContinuation { (done: CheckedContinuation<[Int], Never>) in
            Thread.detachNewThread {
                var seen: [Int] = [], rows = 0
                while rows < 100, let ready = progress.wait(beyond: rows), ready > rows {
                    seen.append(ready)
                    rows = ready
                }
                done.resume(returning: seen)
            }
            for rows in stride(from: 16, through: 96, by: 16) { progress.publish(rows) }
            progress.publish(100)
            progress.end(failed: false)
        }
        #expect(seen.last == 100)
        #expect(seen == seen.sorted())
    }

    @Test func failureStopsTheConsumerEvenMidway() {
        let progress = RowProgress()
        progress.publish(32)
        progress.end(failed: true)
        #expect(progress.wait(beyond: 0) == nil)
        #expect(progress.wait(beyond: 32) == nil)
    }

    @Test func endWithoutNewRowsDoesNotBlock() {
        let progress = RowProgress()
        progress.publish(10)
        progress.end(failed: false)
        #expect(progress.wait(beyond: 10) == 10)  // Caller sees no progress and stops.
    }

    /// A photo whose data breaks off part-way fails cleanly or decodes what is there — it never
    /// hangs the row consumer or crashes, whatever the cut.
    @Test func photosCutAnywhereNeverHang() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fixtures/images/photos/cover-00-12mp.jpg").standardized
        let data = try Data(contentsOf: url)
        let preparer = ImagePreparer()
        for fraction in [0.02, 0.3, 0.7, 0.99] {
            var cut = data.prefix(Int(Double(data.count) * fraction))
            cut.append(contentsOf: [UInt8](repeating: 0x5A, count: 4096))  // Garbage after the cut.
            do {
                let photo = try preparer.preparePhoto(cut)
                #expect(!photo.visionJPEG.isEmpty)
            } catch let error as ImageError {
                #expect(!error.message.isEmpty)
            }
        }
    }
}
