import GRDB

/// A read-only question to the library, asked inside one read transaction.
///
/// Reads live beside the features that ask them (`Library/`, `History/`, `Records/`, …) as small
/// request types; `AppDatabase` keeps the writes that protect invariants and answers every
/// request through `read(_:)`. A request takes its parameters as properties and can be composed
/// with others inside one `read { db in … }` (one snapshot for all of them).
public protocol ReadRequest: Sendable {
    associatedtype Value: Sendable
    func fetch(_ db: Database) throws -> Value
}
