import Foundation

/// Seed 001's search gate: ID call 2 (search finalisation) runs only when call 1 asked for a search,
/// read at least 3 characters of text, read them with medium or high confidence, and the user
/// turned advanced search on. It blocks wasteful searches on covers with nothing to search for.
public enum SearchGate {
    public static let minimumReadableCharacters = 3

    public static func allows(_ answer: IdentificationAnswer, advancedSearch: Bool) -> Bool {
        advancedSearch
            && answer.searchNeeded
            && readableCharacterCount(answer.readableText) >= minimumReadableCharacters
            && answer.textConfidence >= .medium
    }

    /// Letters and digits only: "  - ! " is not text worth searching for.
    static func readableCharacterCount(_ text: String) -> Int {
        text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.count
    }
}
