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

    /// The decoding thread's own work sees every row exactly once, in order, and before the
    /// consumer can: the luma table is complete for every row a consumer has been told about.
    @Test func decoderHookSeesEachRowOnceBeforeItIsPublished() {
        let log = HookLog()
        let progress = RowProgress(onDecoderThread: { rows in log.ranges.append(rows) })
        for rows in [16, 16, 40, 100] {
            progress.publish(rows)
            #expect(log.ranges.last?.upperBound == rows)
            #expect(progress.wait(beyond: 0) == rows)
        }
        progress.end(failed: false)
        #expect(log.ranges == [0..<16, 16..<40, 40..<100])
    }

    /// The luma table built on the decoding thread is the one the consumer used to build: the
    /// same hashes and the same vision JPEG from either split, photo after photo, also for a
    /// sideways (EXIF-rotated) 12 MP photo.
    @Test func tableOnEitherThreadGivesTheSameHashes() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fixtures/images/photos").standardized
        var decoder = ImagePreparer()
        decoder.integralOnDecoderThread = true
        var consumer = ImagePreparer()
        consumer.integralOnDecoderThread = false
        for name in ["cover-00-12mp.jpg", "cover-01-12mp.jpg", "cover-05-photo-0.jpg"] {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            let a = try decoder.preparePhoto(data), b = try consumer.preparePhoto(data)
            #expect(a.hashes.candidates == b.hashes.candidates, "\(name)")
            #expect(a.hashes.pHash == b.hashes.pHash && a.hashes.dHash == b.hashes.dHash, "\(name)")
            #expect(a.visionJPEG == b.visionJPEG, "\(name)")
            #expect(!a.hashes.candidates.isEmpty)
        }
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

/// Ranges seen by a decoder hook; written by one thread only (the test's).
private final class HookLog: @unchecked Sendable {
    var ranges: [Range<Int>] = []
}
