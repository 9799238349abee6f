import Foundation
import GRDB

extension AppDatabase {
    /// `writer.write`, with SQLite's disk-full and I/O failures turned into `CrateError`s the
    /// user can read (docs/reliability.md #2). The transaction is rolled back either way, so a failed
    /// write never leaves half a scan behind.
    func guardedWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(updates)
        } catch let error as DatabaseError {
            throw Self.userFacing(error, path: fileURL?.path ?? "memory")
        }
    }

    static func userFacing(_ error: DatabaseError, path: String) -> Error {
        if isDamage(error) { return CrateError.libraryDamaged(path: path) }
        switch error.resultCode {
        case .SQLITE_FULL:
            return CrateError.diskFull(path: path)
        case .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_NOMEM:
            return CrateError.databaseWriteFailed(reason: error.message ?? "\(error.resultCode)")
        default:
            // Constraint and logic errors are programming mistakes: keep SQLite's detail for the log.
            return error
        }
    }
}
