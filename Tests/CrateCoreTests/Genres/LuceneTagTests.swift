import CrateCore
import Foundation
import Testing

/// Tag queries for MusicBrainz's Lucene search: every tag in the taxonomy, and the hard cases.
@Suite("Lucene tag escaping")
struct LuceneTagTests {
    /// Lucene's special characters outside quotes.
    static let special: Set<Character> = ["+", "-", "&", "|", "!", "(", ")", "{", "}", "[", "]", "^", "\"", "~", "*", "?", ":", "\\", "/"]

    /// Reads one `tag:"…"` term the way Lucene's parser does and returns the tag it searches
    /// for, or nil if the term would not parse as exactly one quoted tag term (an unescaped
    /// quote ends the phrase early; an unescaped special character could be read as syntax).
    static func parseTagTerm<S: StringProtocol>(_ term: S) -> String? {
        guard term.hasPrefix("tag:\""), term.hasSuffix("\""), term.count >= 6 else { return nil }
        let inner = term.dropFirst(5).dropLast()
        var value = ""
        var escaping = false
        for character in inner {
            if escaping {
                guard special.contains(character) else { return nil }
                value.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if special.contains(character) {
                return nil
            } else {
                value.append(character)
            }
        }
        return escaping ? nil : value
    }

    /// Splits `(tag:"a" OR tag:"b")` into its terms, respecting escapes inside the quotes.
    static func parseAnyTag(_ query: String) -> [String]? {
        var body = Substring(query)
        if body.hasPrefix("(") {
            guard body.hasSuffix(")") else { return nil }
            body = body.dropFirst().dropLast()
        }
        var terms: [String] = []
        var current = ""
        var inQuotes = false
        var escaping = false
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if !inQuotes, body[index...].hasPrefix(" OR ") {
                terms.append(current)
                current = ""
                index = body.index(index, offsetBy: 4)
                continue
            }
            current.append(character)
            if escaping { escaping = false } else if character == "\\" { escaping = true } else if character == "\"" { inQuotes.toggle() }
            index = body.index(after: index)
        }
        terms.append(current)
        guard !inQuotes else { return nil }
        return terms.map { parseTagTerm($0) ?? "<unparsable \($0)>" }
    }

    @Test(arguments: ["drum & bass", "r&b", "post-rock", "AC/DC", "rhythm & blues", "sunn o)))", "!!!", "a\"quote", "back\\slash",
                      "what?", "c++", "AND", "key:value", "[bracket]", "{brace}", "~tilde*", "^caret", "a||b"])
    func hardTagsRoundTrip(_ tag: String) {
        let query = LuceneQuery.tag(tag)
        #expect(Self.parseTagTerm(query) == tag, "\(query)")
    }

    @Test func examplesAreEscapedAsExpected() {
        #expect(LuceneQuery.tag("drum & bass") == #"tag:"drum \& bass""#)
        #expect(LuceneQuery.tag("r&b") == #"tag:"r\&b""#)
        #expect(LuceneQuery.tag("post-rock") == #"tag:"post\-rock""#)
        #expect(LuceneQuery.tag("AC/DC") == #"tag:"AC\/DC""#)
        #expect(LuceneQuery.anyTag(["r&b", "soul"]) == #"(tag:"r\&b" OR tag:"soul")"#)
        #expect(LuceneQuery.anyTag(["soul"]) == #"tag:"soul""#)
        #expect(LuceneQuery.anyTag([]) == "")
        // Control characters and runs of spaces say nothing to a search engine.
        #expect(LuceneQuery.tag("drum\n  and\tbass") == #"tag:"drum and bass""#)
    }

    @Test func everyTagInTheDataFileRoundTrips() throws {
        let taxonomy = try GenreTaxonomy.load(from: GenreTaxonomyTests.dataFile)
        var checked = 0
        for entry in taxonomy.allEntries {
            for tag in entry.searchTags {
                #expect(Self.parseTagTerm(LuceneQuery.tag(tag)) == tag, "\(entry.id): \(tag) → \(LuceneQuery.tag(tag))")
                checked += 1
            }
            #expect(Self.parseAnyTag(LuceneQuery.anyTag(entry.searchTags)) == entry.searchTags, "\(entry.id): \(LuceneQuery.anyTag(entry.searchTags))")
        }
        #expect(checked > 300)
    }
}
