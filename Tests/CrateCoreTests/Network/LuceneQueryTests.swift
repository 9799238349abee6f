import CrateCore
import Testing

@Suite("Lucene escaping")
struct LuceneQueryTests {
    @Test(arguments: [
        ("AC/DC", #"AC\/DC"#),
        ("Sunn O)))", #"Sunn O\)\)\)"#),
        ("!!!", #"\!\!\!"#),
        ("Godspeed You! Black Emperor", #"Godspeed You\! Black Emperor"#),
        ("Florence + the Machine", #"Florence \+ the Machine"#),
        (#"a-b&&c||d{e}[f]^g"h~i*j?k:l\m"#, #"a\-b\&\&c\|\|d\{e\}\[f\]\^g\"h\~i\*j\?k\:l\\m"#),
    ])
    func escapesBareTerms(input: String, expected: String) {
        #expect(LuceneQuery.escape(input) == expected)
    }

    @Test(arguments: [
        ("AC/DC", #""AC/DC""#),
        ("Sunn O)))", #""Sunn O)))""#),
        ("!!!", #""!!!""#),
        ("Godspeed You! Black Emperor", #""Godspeed You! Black Emperor""#),
        ("Florence + the Machine", #""Florence + the Machine""#),
        (#"12" \ Vinyl"#, #""12\" \\ Vinyl""#),
    ])
    func quotesPhrases(input: String, expected: String) {
        #expect(LuceneQuery.phrase(input) == expected)
    }

    @Test func exactAndFuzzyQueries() {
        #expect(LuceneQuery.exactRelease(title: "Rumours", artist: "Fleetwood Mac") == #"release:"Rumours" AND artist:"Fleetwood Mac""#)
        #expect(LuceneQuery.fuzzyRelease(title: "Back in Black", artist: "AC/DC") == #"release:(Back~ in~ Black~) AND artist:(AC\/DC~)"#)
        #expect(LuceneQuery.exactRelease(title: "Untitled\n", artist: "") == #"release:"Untitled""#)
    }
}
