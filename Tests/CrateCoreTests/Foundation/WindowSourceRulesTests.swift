import Foundation
import Testing

/// Rules on the window's source that a review would miss and a slow start-up would hide.
@Suite struct WindowSourceRulesTests {
    /// GTK's own tooltip setters ask the display where the pointer is on every call (a server grab
    /// and round trips under X11); with hundreds of cells bound at start-up they delayed the first
    /// covers by about a second. Tooltips go through `Gtk.setTooltip`, answered on demand.
    @Test func tooltipsNeverAskTheDisplay() throws {
        let offenders = try Self.lines(calling: ["gtk_widget_set_tooltip_text(", "gtk_widget_set_tooltip_markup("])
        #expect(offenders.isEmpty, Comment(rawValue: "use Gtk.setTooltip: " + offenders.joined(separator: ", ")))
    }

    /// A spinner started on a hidden page kept the window painting ~50 frames a second. Spinners
    /// go through `Gtk.spin`, which spins only while the spinner is on screen.
    @Test func spinnersSpinOnlyOnScreen() throws {
        let offenders = try Self.lines(calling: ["gtk_spinner_start(", "gtk_spinner_stop(", "gtk_spinner_set_spinning("])
        #expect(offenders.isEmpty, Comment(rawValue: "use Gtk.spin: " + offenders.joined(separator: ", ")))
    }

    /// Test events were printed from 122 places in app code: the pages and widgets only say what
    /// happens (callbacks, WidgetEvents) and Testing/ turns it into event lines.
    @Test func testEventsArePrintedFromTestingOnly() throws {
        let offenders = try Self.lines(calling: ["TestEvents."]).filter { !$0.hasPrefix("Sources/CrateDesktop/Testing/") }
        #expect(offenders.isEmpty, Comment(rawValue: "TestEvents outside Testing/: " + offenders.joined(separator: ", ")))
    }

    /// The window is a shell over its pages: it and its extensions stay under 500 lines.
    @Test func theMainWindowStaysAShell() throws {
        let files = try L10nTests.swiftFiles(under: "Sources/CrateDesktop/Window").filter { $0.lastPathComponent.hasPrefix("MainWindow") }
        let lines = try files.map { try String(contentsOf: $0, encoding: .utf8).components(separatedBy: "\n").count }.reduce(0, +)
        #expect(!files.isEmpty)
        #expect(lines < 500, "MainWindow and its extensions: \(lines) lines")
    }

    /// Lines of the window's Swift sources (comments aside) that call any of `calls`.
    static func lines(calling calls: [String]) throws -> [String] {
        var found: [String] = []
        var files = 0
        for file in try L10nTests.swiftFiles(under: "Sources/CrateDesktop") {
            files += 1
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if calls.contains(where: { line.contains($0) }) { found.append("\(L10nTests.relative(file)):\(number + 1)") }
            }
        }
        #expect(files > 50)
        return found
    }
}
