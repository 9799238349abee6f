import CIntl
import Foundation

/// Every user-facing string goes through here: gettext's catalogue for the text domain "crate"
/// (`po/`, compiled by meson or `scripts/build-locales`), looked up by the English text.
///
/// Placeholders are `%@` (in order) or `%1$@`, `%2$@` (by position, for translations that
/// reorder them); `%%` is a literal percent sign. Strings never interpolate values into the
/// message id (`"\(x)"`): the id must be the literal `xgettext` sees, so values go as arguments.
///
///     L10n.tr("Removed “%@”", album.title)
///     L10n.plural("%@ album", "%@ albums", count, count)
///
/// `scripts/update-pot` extracts these calls (`tr`, and `plural` with its first two arguments)
/// into `po/crate.pot`. Without a catalogue for the user's language the English text is used.
public enum L10n {
    /// The gettext text domain.
    public static let domain = "crate"

    /// Where compiled catalogues are looked for, first existing wins: `$CRATE_LOCALE_DIR`,
    /// `<exe>/../share/locale` (installed), the source tree's `.build/locale` (`scripts/build-locales`).
    public static func localeDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let override = environment["CRATE_LOCALE_DIR"], !override.isEmpty { return override }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = exe.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/locale").path
        if FileManager.default.fileExists(atPath: installed) { return installed }
        // Sources/CrateCore/Localization/L10n.swift → the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/locale").path
    }

    /// Binds the text domain once, on first use (the locale comes from LANG, LC_*, LANGUAGE).
    private static let bound: Bool = crate_intl_bind(domain, localeDirectory()) == 0

    /// Binds the text domain now: for text that others look up in it (GtkBuilder files).
    public static func prepare() {
        _ = bound
    }

    /// The translation of `msgid` with `arguments` put in its placeholders.
    public static func tr(_ msgid: String, _ arguments: any CustomStringConvertible...) -> String {
        _ = bound
        // Without a translation gettext returns its argument: copy it while the buffer lives.
        let text = msgid.withCString { String(cString: crate_intl_gettext(domain, $0)) }
        return format(text, arguments)
    }

    /// The translation of the singular or plural form for `count` (the language's plural rule
    /// picks the form), with `arguments` put in its placeholders (usually the count itself).
    public static func plural(_ singular: String, _ plural: String, _ count: Int, _ arguments: any CustomStringConvertible...) -> String {
        _ = bound
        let text = singular.withCString { one in
            plural.withCString { many in String(cString: crate_intl_ngettext(domain, one, many, UInt(count.magnitude))) }
        }
        return format(text, arguments)
    }

    /// Text Crate shows from one of its data files (`data/<file>`: the dial's titles and
    /// sentences, the genre bar's names): the English in the file is the message id and the
    /// file's name its context (`msgctxt`), so "Rock" from the genre list is translated apart
    /// from any "Rock" in the code. `scripts/update-data-strings` lists these texts for
    /// `xgettext`. Identifiers and MusicBrainz tag names (what queries send) never come here.
    public static func data(_ text: String, file: String) -> String {
        _ = bound
        return file.withCString { context in
            text.withCString { String(cString: crate_intl_pgettext(domain, context, $0)) }
        }
    }

    /// Puts `arguments` into `%@` / `%N$@` placeholders; `%%` becomes `%`. A placeholder without
    /// an argument is left as it is (a broken translation shows its placeholder, never crashes).
    public static func format(_ template: String, _ arguments: [any CustomStringConvertible]) -> String {
        guard template.contains("%") else { return template }
        var out = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            guard character == "%" else {
                out.append(character)
                index = template.index(after: index)
                continue
            }
            let rest = template[template.index(after: index)...]
            if rest.hasPrefix("%") {
                out.append("%")
                index = template.index(index, offsetBy: 2)
            } else if rest.hasPrefix("@") {
                if next < arguments.count { out += arguments[next].description } else { out += "%@" }
                next += 1
                index = template.index(index, offsetBy: 2)
            } else if let dollar = rest.firstIndex(of: "$"), let position = Int(rest[rest.startIndex..<dollar]),
                      rest[template.index(after: dollar)...].hasPrefix("@") {
                let end = template.index(dollar, offsetBy: 2)
                if position >= 1, position <= arguments.count {
                    out += arguments[position - 1].description
                } else {
                    out += template[index..<end]
                }
                index = end
            } else {
                out.append(character)
                index = template.index(after: index)
            }
        }
        return out
    }
}
