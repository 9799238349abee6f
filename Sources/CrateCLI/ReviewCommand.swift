import ArgumentParser
import CrateCore
import Foundation

/// `crate review`: an honest, music-first review of one album, from the cache or the provider.
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review an album: summary, evidence, rating, recommendation and key tracks."
    )

    @Option(help: "The artist.")
    var artist: String

    @Option(help: "The album title.")
    var title: String

    @Option(help: "Release year (four digits) or Unknown.")
    var year: String?

    @Option(help: "A genre (repeat for more, at most 10).")
    var genre: [String] = []

    @Option(help: "The record label.")
    var label: String?

    @Flag(help: "Write a new review even if one is cached, and replace it.")
    var regenerate = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let input: ReviewInput
        do {
            input = try ReviewInput(artist: artist, title: title, year: year, genres: genre, label: label)
        } catch let error as ReviewInputError {
            throw fail(ReviewError.invalidInput(error))
        }

        let service: ReviewService
        do {
            // Never nil online: without a provider it still answers from the cache.
            guard let reviewer = try openEnvironment().services().reviewer else { throw ReviewError.noProvider }
            service = reviewer
        } catch {
            throw fail(error)
        }

        let outcome: Result<ReviewResult, ReviewError>
        do {
            outcome = .success(try await service.review(for: input, regenerate: regenerate))
        } catch let error as ReviewError {
            outcome = .failure(error)
        } catch {
            throw fail(error)
        }

        switch outcome {
        case .success(let result):
            if json {
                print(ReviewJSON.render(ReviewJSON.object(result)))
            } else {
                Terminal.say(Self.text(result))
            }
        case .failure(let error):
            if json { print(ReviewJSON.render(ReviewJSON.unavailable(error))) }
            throw fail(error)
        }
    }

    static func text(_ result: ReviewResult) -> String {
        let r = result.review
        var lines = [
            "\(r.recommendation.uppercased())  \(String(format: "%.1f", r.rating))/10  (tier \(r.tier))",
            "",
            r.summary,
            "",
        ]
        lines += r.bullets.map { "  • \(Terminal.field($0))" }
        lines += ["", "Key tracks: " + r.keyTracks.map(Terminal.field).joined(separator: " · ")]
        lines.append("")
        lines.append("\(result.cached ? "cached" : "new") · \(r.provider) \(r.model) · \(r.promptVersion)\(r.usedSearch ? " · with web search" : "")")
        return lines.joined(separator: "\n")
    }
}
