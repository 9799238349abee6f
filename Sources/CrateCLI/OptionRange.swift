import ArgumentParser

/// The allowed range of every numeric command-line value, checked in each command's `validate()`
/// so an absurd number is a usage error with a sentence (exit 64), never an overflow later
/// (`--simulate-seconds 9223372036854776` once crashed multiplying by 1000).
enum OptionRange {
    /// A year of simulated playback: far beyond any album or grid, and safe in milliseconds.
    static let simulateSeconds = 1...31_536_000
    /// Photos per `batch run`, scans per `history`: generous, and nothing multiplies them.
    static let limit = 1...1_000_000
    /// Synthetic scans per `debug write-scans`.
    static let debugScans = 0...1_000_000
    /// Scans per monthly budget (`crate usage --budget-scans`).
    static let budgetScans = 1...1_000_000

    /// Throws "`name` must be a whole number from `range.lowerBound` to `range.upperBound` (not `value`)."
    static func check(_ value: Int, in range: ClosedRange<Int>, name: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound) (not \(value)).")
        }
    }

    /// Album ids are positive (`crate history --json` lists them).
    static func checkAlbumID(_ id: Int64) throws {
        guard id >= 1 else {
            throw ValidationError("\(id) is not an album id: album ids are whole numbers from 1 up (see `crate history --json`).")
        }
    }
}
