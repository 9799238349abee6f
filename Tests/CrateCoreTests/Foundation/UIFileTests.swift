import Foundation
import Testing

/// The window's GtkBuilder layouts (data/ui/): every text they show is translatable and in the
/// template, and every file is extracted (po/POTFILES) and compiled into the GResource.
@Suite("GtkBuilder layouts")
struct UIFileTests {
    static let root = L10nTests.root

    static func uiFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("data/ui"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "ui" }.sorted { $0.path < $1.path }
    }

    /// Properties and menu attributes whose value is text a user reads.
    static let textElement = try! NSRegularExpression(
        pattern: #"<(?:property|attribute) name="(?:label|title|subtitle|description|tooltip-text|placeholder-text)"([^>]*)>([^<]*)</"#)

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func everyFileIsExtractedAndCompiled() throws {
        let files = try Self.uiFiles()
        #expect(files.count >= 3)
        let potfiles = try String(contentsOf: Self.root.appendingPathComponent("po/POTFILES"), encoding: .utf8)
            .components(separatedBy: "\n")
        let gresource = try String(contentsOf: Self.root.appendingPathComponent("data/crate.gresource.xml"), encoding: .utf8)
        for file in files {
            let name = file.lastPathComponent
            #expect(potfiles.contains("data/ui/\(name)"), "data/ui/\(name) is not in po/POTFILES")
            #expect(gresource.contains("<file>ui/\(name)</file>"), "data/ui/\(name) is not in data/crate.gresource.xml")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("<interface domain=\"crate\">"), "data/ui/\(name) does not name the gettext domain")
        }
    }

    @Test func everyShownTextIsTranslatedInTheTemplate() throws {
        let pot = Catalogue(try String(contentsOf: Self.root.appendingPathComponent("po/crate.pot"), encoding: .utf8))
        let pseudo = Catalogue(try String(contentsOf: Self.root.appendingPathComponent("po/en@pseudo.po"), encoding: .utf8))
        var problems: [String] = []
        var count = 0
        for file in try Self.uiFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            let ns = text as NSString
            for match in Self.textElement.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let value = Self.unescaped(ns.substring(with: match.range(at: 2)))
                guard value.rangeOfCharacter(from: .letters) != nil else { continue }
                count += 1
                let place = "data/ui/\(file.lastPathComponent): \"\(value)\""
                let id = L10nTests.escaped(value)
                if !ns.substring(with: match.range(at: 1)).contains("translatable=\"yes\"") { problems.append("\(place) is not translatable") }
                else if !pot.ids.contains(id) { problems.append("\(place) is not in po/crate.pot (run scripts/update-pot)") }
                else if pseudo.translations[id].map({ $0.isEmpty || $0 == id }) ?? true { problems.append("\(place) is not in po/en@pseudo.po") }
            }
        }
        #expect(count > 50, "the header, Preferences and the shortcuts window have dozens of texts, found \(count)")
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }
}

/// The ids (and translations) of a .pot/.po without context, in their escaped form.
private struct Catalogue {
    var ids = Set<String>()
    var translations: [String: String] = [:]

    init(_ text: String) {
        for entry in L10nTests.entries(text) where entry.context == nil {
            ids.insert(entry.id)
            translations[entry.id] = entry.translation
        }
    }
}
