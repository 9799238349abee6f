import ArgumentParser
import CrateCore
import Foundation

/// Hidden commands for reliability tests; not part of the documented CLI.
struct DebugCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug",
        abstract: "Internal commands for Crate's own tests.",
        shouldDisplay: false,
        subcommands: [WriteScans.self, ReadBarcodes.self]
    )

    /// Saves scans as fast as it can and reports each one only after its commit, so a test can
    /// kill it at any moment and check that every reported scan survived (docs/reliability.md #1).
    struct WriteScans: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "write-scans", abstract: "Save N synthetic scans, printing `saved <scan id>` after each commit.")

        @Argument(help: "How many scans to save.")
        var count: Int

        func validate() throws {
            try OptionRange.check(count, in: OptionRange.debugScans, name: "The count")
        }

        func run() throws {
            do {
                let database = try openDatabase(paths: CratePaths())
                let run = UUID().uuidString.prefix(8)
                for index in 0..<count {
                    let entry: HistoryEntry
                    // Alternate the two scan writes: the plain save, and the bulk queue's save
                    // that also finishes a queue item in the same transaction.
                    let album = Album(title: "Durability \(run)-\(index)", artist: "Crate Test", year: "2026", genres: ["test"])
                    if index % 2 == 0 {
                        entry = try database.saveScan(of: album, method: .manual, confidence: 1)
                    } else {
                        try database.enqueueBatch(paths: ["/debug/\(run)/\(index).jpg"])
                        guard let item = try database.claimNextBatchItem(maxAttempts: 1_000_000), let id = item.id else {
                            throw CrateError.notFound("The queued debug photo")
                        }
                        entry = try database.saveScan(of: album, method: .manual, confidence: 1, completingBatchItem: id)
                    }
                    if let albumID = entry.album.id {
                        try database.setArtwork(albumID: albumID, status: .unavailable)
                    }
                    // write(2) straight to the pipe: nothing sits in a buffer when the kill comes.
                    FileHandle.standardOutput.write(Data("saved \(entry.scan.id ?? -1)\n".utf8))
                }
            } catch {
                throw fail(error)
            }
        }
    }
}
