import Foundation
import Testing
@testable import CrateCore

/// Translations: the placeholder format, the template in step with the sources, and no
/// user-facing literal in the window that bypasses `L10n`.
@Suite("Translations")
struct L10nTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func placeholdersInOrderByPositionAndPercent() {
        #expect(L10n.format("Scanning %@ of %@", [1, 2]) == "Scanning 1 of 2")
        #expect(L10n.format("%2$@ — %1$@", ["Title", "Artist"]) == "Artist — Title")
        #expect(L10n.format("%@ %% match", [91]) == "91 % match")
        #expect(L10n.format("No placeholder", ["x"]) == "No placeholder")
        // A translation with a placeholder too many shows it rather than crash.
        #expect(L10n.format("%@ and %@", ["one"]) == "one and %@")
        #expect(L10n.format("%3$@", ["one"]) == "%3$@")
        #expect(L10n.format("100%", []) == "100%")
    }

    @Test func withoutACatalogueTheEnglishTextIsUsed() {
        #expect(L10n.tr("Removed “%@”", "Blue Train") == "Removed “Blue Train”")
        #expect(L10n.plural("%@ album", "%@ albums", 1, 1) == "1 album")
        #expect(L10n.plural("%@ album", "%@ albums", 2, "2,000") == "2,000 albums")
    }

    /// The literal ids of every `L10n.tr` / `L10n.plural` call in `file` (comments skipped).
    static func messageIDs(in text: String) -> [(line: Int, id: String)] {
        let call = try! NSRegularExpression(pattern: #"L10n\.(tr|plural)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?"#)
        var out: [(Int, String)] = []
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            let ns = line as NSString
            for match in call.matches(in: line, range: NSRange(location: 0, length: ns.length)) {
                out.append((number + 1, ns.substring(with: match.range(at: 2))))
                if ns.substring(with: match.range(at: 1)) == "plural", match.range(at: 3).location != NSNotFound {
                    out.append((number + 1, ns.substring(with: match.range(at: 3))))
                }
            }
        }
        return out
    }

    /// The msgids of a .pot, in their escaped form (as in the source literal).
    static func potIDs(_ text: String) -> Set<String> {
        var ids = Set<String>()
        for line in text.components(separatedBy: "\n") {
            for prefix in ["msgid \"", "msgid_plural \""] where line.hasPrefix(prefix) && line.hasSuffix("\"") {
                ids.insert(String(line.dropFirst(prefix.count).dropLast()))
            }
        }
        return ids
    }

    static func swiftFiles(under folder: String) throws -> [URL] {
        let base = root.appendingPathComponent(folder)
        let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    static func relative(_ url: URL) -> String {
        String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
    }

    /// `scripts/update-pot` (or `meson compile crate-pot`) was run after the last string change:
    /// every id in the sources is in po/crate.pot, every file with one is in po/POTFILES, every
    /// id is a plain literal (no interpolation), and the pseudo-locale has every id.
    @Test func templateIsUpToDate() throws {
        let pot = try String(contentsOf: Self.root.appendingPathComponent("po/crate.pot"), encoding: .utf8)
        let pseudo = try String(contentsOf: Self.root.appendingPathComponent("po/en@pseudo.po"), encoding: .utf8)
        let listed = Set(try String(contentsOf: Self.root.appendingPathComponent("po/POTFILES"), encoding: .utf8)
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
        let ids = Self.potIDs(pot)
        let pseudoIDs = Self.potIDs(pseudo)
        var problems: [String] = []
        var total = 0
        for file in try Self.swiftFiles(under: "Sources") {
            let found = Self.messageIDs(in: try String(contentsOf: file, encoding: .utf8))
            guard !found.isEmpty else { continue }
            let name = Self.relative(file)
            if !listed.contains(name) { problems.append("\(name) uses L10n but is not in po/POTFILES") }
            for (line, id) in found {
                total += 1
                if id.contains("\\(") { problems.append("\(name):\(line): interpolation in a message id: \(id)") }
                else if !ids.contains(id) { problems.append("\(name):\(line): not in po/crate.pot (run scripts/update-pot): \(id)") }
                else if !pseudoIDs.contains(id) { problems.append("\(name):\(line): not in po/en@pseudo.po (run scripts/update-pseudo-po): \(id)") }
            }
        }
        #expect(total > 300, "the sources should have a few hundred messages, found \(total)")
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) problems:\n" + problems.prefix(40).joined(separator: "\n")))
    }

    // MARK: - Text shown from data files

    /// One message of a .po/.pot: context, id and translation in their escaped form.
    struct POEntry: Hashable {
        var context: String?
        var id: String
        var translation: String
    }

    static func entries(_ text: String) -> [POEntry] {
        var out: [POEntry] = []
        var context: String?, id: String?
        func value(_ line: String, _ prefix: String) -> String? {
            line.hasPrefix(prefix + " \"") && line.hasSuffix("\"") ? String(line.dropFirst(prefix.count + 2).dropLast()) : nil
        }
        for line in text.components(separatedBy: "\n") {
            if let v = value(line, "msgctxt") { context = v }
            else if let v = value(line, "msgid") { id = v }
            else if let v = value(line, "msgstr") {
                if let id { out.append(POEntry(context: context, id: id, translation: v)) }
                context = nil
                id = nil
            }
        }
        return out
    }

    /// The text as a C/PO literal writes it.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// Everything the window and the CLI show from data files, read with the loaders the app
    /// uses: (the file's name, which is the message context; the English text).
    static func shownDataText() throws -> [(file: String, text: String)] {
        let data = root.appendingPathComponent("data")
        let dial = try CrateDialTable.load(from: data.appendingPathComponent(CrateDialTable.fileName))
        let genres = try GenreTaxonomy.load(from: data.appendingPathComponent(GenreTaxonomy.fileName))
        return dial.entries.flatMap { [(CrateDialTable.fileName, $0.title), (CrateDialTable.fileName, $0.sentence)] }
            + genres.allEntries.map { (GenreTaxonomy.fileName, $0.name) }
    }

    /// `scripts/update-pot` was run after the data files changed: every dial title and sentence
    /// and every genre name is in po/crate.pot with its file as context, and the pseudo-locale
    /// translates each (so a run under `LANGUAGE=en@pseudo` shows none of them in plain English).
    @Test func dataFileTextIsInTheTemplate() throws {
        let pot = Set(Self.entries(try String(contentsOf: Self.root.appendingPathComponent("po/crate.pot"), encoding: .utf8))
            .map { "\($0.context ?? "")\u{4}\($0.id)" })
        let pseudo = Dictionary(Self.entries(try String(contentsOf: Self.root.appendingPathComponent("po/en@pseudo.po"), encoding: .utf8))
            .map { ("\($0.context ?? "")\u{4}\($0.id)", $0.translation) }, uniquingKeysWith: { first, _ in first })
        let shown = try Self.shownDataText()
        #expect(shown.count > 200, "the dial's 10 texts and the genre bar's names, found \(shown.count)")
        var problems: [String] = []
        for (file, text) in shown {
            let key = "\(file)\u{4}\(Self.escaped(text))"
            if !pot.contains(key) { problems.append("data/\(file): \"\(text)\" is not in po/crate.pot (run scripts/update-pot)") }
            else if let translated = pseudo[key], !translated.isEmpty, translated != Self.escaped(text) { continue }
            else { problems.append("data/\(file): \"\(text)\" is not translated in po/en@pseudo.po (run scripts/update-pseudo-po)") }
        }
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) problems:\n" + problems.prefix(40).joined(separator: "\n")))
    }

    /// msgfmt's merge of the catalogues into a data file (what meson's `i18n.merge_file` installs).
    static func merged(_ file: String, type: String) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("crate-merge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")  // gettext, scripts/install-deps
        msgfmt.arguments = ["--\(type)", "--template", root.appendingPathComponent("data/\(file)").path,
                            "-d", root.appendingPathComponent("po").path, "-o", out.path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        #expect(msgfmt.terminationStatus == 0)
        return try String(contentsOf: out, encoding: .utf8)
    }

    /// The desktop entry's and the metainfo's text is in the template (po/data-strings.c) and
    /// the installed files get every language's translation: merged with the pseudo-locale, each
    /// translatable key and paragraph has its `[en@pseudo]` / `xml:lang="en@pseudo"` twin.
    @Test func desktopEntryAndMetainfoAreTranslated() throws {
        let desktop = try Self.merged("dev.crate.Crate.desktop", type: "desktop")
        for key in ["Name", "GenericName", "Comment", "Keywords"] {
            let line = desktop.components(separatedBy: "\n").first { $0.hasPrefix("\(key)[en@pseudo]=") }
            #expect(line?.contains("[") == true && line?.hasSuffix("]") == true, "\(key) is not translated: \(line ?? "missing")")
        }
        let metainfo = try Self.merged("dev.crate.Crate.metainfo.xml", type: "xml")
        let source = try String(contentsOf: Self.root.appendingPathComponent("data/dev.crate.Crate.metainfo.xml"), encoding: .utf8)
        for element in ["name", "summary", "p", "developer_name"] {
            let english = source.components(separatedBy: "<\(element)>").count - 1
            #expect(english > 0)
            #expect(metainfo.components(separatedBy: "<\(element) xml:lang=\"en@pseudo\">").count - 1 == english,
                    "every <\(element)> has its pseudo-locale translation")
        }
    }

    /// Ids and MusicBrainz tag names are never extracted (they are sent, not shown).
    @Test func dataFileIdentifiersStayOutOfTheTemplate() throws {
        let ids = Set(Self.entries(try String(contentsOf: Self.root.appendingPathComponent("po/crate.pot"), encoding: .utf8))
            .filter { $0.context == GenreTaxonomy.fileName }.map(\.id))
        let genres = try GenreTaxonomy.load(from: Self.root.appendingPathComponent("data").appendingPathComponent(GenreTaxonomy.fileName))
        let names = Set(genres.allEntries.map(\.name))
        let sentOnly = genres.allEntries.flatMap(\.searchTags).filter { !names.contains($0) }
        #expect(!sentOnly.isEmpty)
        #expect(sentOnly.filter(ids.contains).isEmpty, "MusicBrainz tags in the template: \(sentOnly.filter(ids.contains))")
    }

    /// Without a catalogue the data file's English comes back unchanged, however long.
    @Test func dataTextWithoutACatalogueIsTheEnglish() {
        #expect(L10n.data("Rock", file: "genres.json") == "Rock")
        #expect(L10n.data("Mixed Crate", file: "crate-dial.json") == "Mixed Crate")
        let long = String(repeating: "Fewer hits, more digging. ", count: 40)
        #expect(L10n.data(long, file: "crate-dial.json") == long)
        #expect(L10n.data("", file: "genres.json") == "")
    }

    // MARK: - No literal bypasses L10n in the window

    /// Files of the window that only tests and diagnostics run (their text is never shown to users).
    static let testOnlyFiles: Set<String> = ["SelfTest.swift", "WindowCycleTest.swift", "TestEvents.swift", "SpareWindow.swift",
                                             "StartupTiming.swift", "LiveObjects.swift", "Screenshot.swift"]

    /// Literals that are not text, allowed where text usually goes: a number format. Icon names, CSS
    /// classes, action and signal names never appear in the positions checked below.
    static let allowedLiterals: Set<String> = ["%.1f"]

    /// Where a string literal is user-facing text: the argument of a GTK/libadwaita call that
    /// sets a label, title, tooltip, toast or button text, a labelled text argument of the
    /// window's own helpers, and a literal chosen by `?:` or `??` on such a line.
    static let textCall = try! NSRegularExpression(pattern: [
        #"\b(?:Gtk\.label|gtk_label_new|gtk_button_new_with_mnemonic|gtk_button_new_with_label|gtk_toggle_button_new_with_label|gtk_check_button_new_with_label|gtk_expander_new|gtk_file_chooser_native_new|gtk_about_dialog_set_comments|toasts\.show|banner\.show|notice\.show|error\.show|errorBanner\.show|toast\.show|infoRow|section|line|pill)\(\s*"([^"]*)""#,
        #"\b(?:Gtk\.setText|gtk_label_set_text|gtk_label_set_markup|gtk_button_set_label|gtk_widget_set_tooltip_text|Gtk\.setTooltip|gtk_window_set_title|adw_\w+_set_(?:title|subtitle|description|button_label|heading|body|label)|Gtk\.setAccessibleLabel|gtk_entry_set_placeholder_text|gtk_search_entry_set_placeholder_text|gtk_link_button_new_with_label)\([^"\n]*?,\s*"([^"]*)""#,
        #"\badw_view_stack_add_titled\([^,]+,[^,]+,[^,]+,\s*"([^"]*)""#,
        // (A dispatch queue's label is a name for debuggers, not text.)
        #"(?<!DispatchQueue\()\b(?:label|title|subtitle|button|message|description|tooltip|heading|placeholder|detail|body):\s*"([^"]*)""#,
    ].joined(separator: "|"))
    static let textCallName = try! NSRegularExpression(pattern: #"\b(?:Gtk\.label\(|Gtk\.setText\(|Gtk\.setAccessibleLabel\(|gtk_label_set_text\(|gtk_button_set_label\(|gtk_widget_set_tooltip_text\(|Gtk\.setTooltip\(|gtk_window_set_title\(|adw_\w+_set_(?:title|subtitle|description)\(|toasts\.show\(|\.update\(title:)"#)
    static let chosenLiteral = try! NSRegularExpression(pattern: #"(?:\s\?\?|\s\?|\s:|\w:)\s*"([^"]*)""#)

    static func bypasses(in text: String) -> [(line: Int, literal: String)] {
        var out: [(Int, String)] = []
        for (number, raw) in text.components(separatedBy: "\n").enumerated() {
            var line = raw
            if let comment = line.range(of: "// ") { line = String(line[..<comment.lowerBound]) }
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("///") { continue }
            let ns = line as NSString
            let whole = NSRange(location: 0, length: ns.length)
            var literals: [Int: String] = [:]  // By position, so a literal matched twice counts once.
            for match in textCall.matches(in: line, range: whole) {
                for group in 1..<match.numberOfRanges where match.range(at: group).location != NSNotFound {
                    literals[match.range(at: group).location] = ns.substring(with: match.range(at: group))
                }
            }
            if textCallName.firstMatch(in: line, range: whole) != nil {
                for match in chosenLiteral.matches(in: line, range: whole) {
                    // A literal inside L10n.tr("…") (e.g. "%@ of %@") is the id itself.
                    let before = ns.substring(to: match.range.location)
                    if before.hasSuffix("L10n.tr(") || before.hasSuffix("L10n.plural(") { continue }
                    literals[match.range(at: 1).location] = ns.substring(with: match.range(at: 1))
                }
            }
            for (_, literal) in literals.sorted(by: { $0.key < $1.key }) where literal.rangeOfCharacter(from: .letters) != nil && !allowedLiterals.contains(literal) {
                out.append((number + 1, literal))
            }
        }
        return out
    }

    @Test func everyWindowTextGoesThroughL10n() throws {
        var problems: [String] = []
        var files = 0
        for file in try Self.swiftFiles(under: "Sources/CrateDesktop") where !Self.testOnlyFiles.contains(file.lastPathComponent) {
            files += 1
            for (line, literal) in Self.bypasses(in: try String(contentsOf: file, encoding: .utf8)) {
                problems.append("\(Self.relative(file)):\(line): \"\(literal)\" is shown without L10n.tr")
            }
        }
        #expect(files > 50)
        #expect(problems.isEmpty, Comment(rawValue: "\(problems.count) user-facing literals bypass L10n:\n" + problems.prefix(40).joined(separator: "\n")))
    }

    /// The check itself catches what it should (and leaves translated text and non-text alone).
    @Test func theCheckFindsBypasses() {
        let bad = """
            let label = Gtk.label("Hello")
            gtk_widget_set_tooltip_text(button, "Play the album")
            gtk_button_set_label(crate_button(add), adding ? "Adding…" : "Add to Crate")
            toasts.show("Copied", seconds: 2)
            adw_preferences_row_set_title(crate_preferences_row(row), "Provider")
            empty.update(title: "No wall yet", detail: state.message ?? "Nothing here")
            let b = Gtk.iconButton("go-previous-symbolic", label: "Back")
            wallPill = Self.pill("Wall")
            """
        #expect(Self.bypasses(in: bad).map(\.literal) == ["Hello", "Play the album", "Adding…", "Add to Crate", "Copied", "Provider",
                                                          "No wall yet", "Nothing here", "Back", "Wall"])
        let good = """
            let label = Gtk.label(L10n.tr("Hello"), classes: ["dim-label", "caption"])
            gtk_widget_set_tooltip_text(button, L10n.tr("Play the album"))
            gtk_button_set_label(crate_button(add), adding ? L10n.tr("Adding…") : L10n.tr("Add to Crate"))
            let b = Gtk.iconButton("go-previous-symbolic", label: L10n.tr("Back"))
            Gtk.setText(label, L10n.tr("%@ of %@", a, b))
            let empty = Gtk.label("", classes: ["title-1"])
            gtk_widget_add_css_class(widget, "suggested-action")
            """
        #expect(Self.bypasses(in: good).isEmpty)
    }
}
