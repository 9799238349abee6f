import ArgumentParser
import CrateCore
import Foundation

/// `crate listens status|send|enable|disable|connect-lastfm`: the listen outbox for ListenBrainz
/// and Last.fm (docs/decisions/0042-listens-and-the-turntable.md).
struct ListensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listens",
        abstract: "The listens (scrobbles) waiting for ListenBrainz and Last.fm.",
        subcommands: [Status.self, Send.self, Enable.self, Disable.self, ConnectLastFM.self]
    )

    /// One service's line of `status`.
    struct ServiceReport: Encodable {
        let service: String
        let enabled: Bool
        let configured: Bool
        let queued, sent, failed: Int
        let last_error: String?
        let next_attempt_at: String?
    }

    static func reports(environment: AppEnvironment) throws -> [ServiceReport] {
        let settings = try environment.settings()
        let status = try environment.database.listenStatus()
        return ListenService.allCases.map { service in
            let counts = status[service] ?? ListenServiceStatus()
            return ServiceReport(service: service.rawValue, enabled: settings.listens.isOn(service),
                                 configured: ListenSubmitters.make(service, environment: environment, settings: settings).isConfigured,
                                 queued: counts.queued, sent: counts.sent, failed: counts.failed, last_error: counts.lastError,
                                 next_attempt_at: counts.nextAttemptAt.map { ISO8601DateFormatter().string(from: $0) })
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show queued, sent and failed listens per service, with the last problem.")

        @Flag(help: "Print JSON.")
        var json = false

        func run() throws {
            let reports: [ServiceReport]
            do {
                reports = try ListensCommand.reports(environment: try openEnvironment())
            } catch {
                throw fail(error)
            }
            if json { return try Terminal.printJSON(reports) }
            for report in reports {
                let name = ListenService(rawValue: report.service)?.displayName ?? report.service
                let state = !report.enabled ? "off" : (report.configured ? "on" : "on, not set up")
                Terminal.say("\(name) (\(state)): queued \(report.queued), sent \(report.sent), failed \(report.failed)")
                if let error = report.last_error { Terminal.say("  Last problem: \(error)") }
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send every queued listen now (waits after failures are skipped).")

        @Flag(help: "Print JSON.")
        var json = false

        func run() async throws {
            /// `already_there`: of `sent`, listens an unanswered earlier request had delivered (found, not sent again).
            struct Out: Encodable { let service: String; let sent, already_there, deferred, failed: Int; let last_error: String? }
            var out: [Out] = []
            do {
                let environment = try openEnvironment()
                let submitters = ListenSubmitters.live(environment: environment, settings: try environment.settings())
                guard !submitters.isEmpty else {
                    throw ValidationError("No listen service is on: run `crate listens enable listenbrainz` or `crate listens enable lastfm`.")
                }
                try environment.database.makeListensDue()
                let sender = ListenSender(database: environment.database, submitters: submitters)
                let summaries = try await Interrupt.cancellingOnSignal { await sender.run(maxBatches: 100) }
                for submitter in submitters {
                    let summary = summaries[submitter.service] ?? ListenRunSummary()
                    let notSetUp = submitter.isConfigured ? nil : UserMessage.text(for: ListenSubmitError.notConfigured(submitter.service))
                    out.append(Out(service: submitter.service.rawValue, sent: summary.sent, already_there: summary.alreadyThere,
                                   deferred: summary.deferred, failed: summary.failed,
                                   last_error: summary.lastError ?? notSetUp))
                }
            } catch let error as ValidationError {
                throw error
            } catch {
                throw fail(error)
            }
            if json { return try Terminal.printJSON(out) }
            for line in out {
                let name = ListenService(rawValue: line.service)?.displayName ?? line.service
                let found = line.already_there > 0 ? " (\(line.already_there) already there from an unanswered send)" : ""
                Terminal.say("\(name): sent \(line.sent)\(found); \(line.deferred) to retry later; \(line.failed) refused.")
                if let error = line.last_error { Terminal.warn(error) }
            }
            if out.contains(where: { $0.last_error != nil && $0.sent == 0 && ($0.deferred > 0 || $0.failed > 0) }) { throw ExitCode(1) }
        }
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send listens to a service (listenbrainz or lastfm).")
        @Argument(help: "listenbrainz or lastfm") var service: ListenService
        func run() throws { try ListensCommand.set(service, on: true) }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop sending listens to a service (listenbrainz or lastfm).")
        @Argument(help: "listenbrainz or lastfm") var service: ListenService
        func run() throws { try ListensCommand.set(service, on: false) }
    }

    static func set(_ service: ListenService, on: Bool) throws {
        do {
            let environment = try openEnvironment()
            var settings = try environment.savedSettings()
            settings.listens.set(service, on: on)
            try settings.save(paths: environment.paths)
        } catch {
            throw fail(error)
        }
        Terminal.say(on ? "Listens go to \(service.displayName) from now on." : "Listens no longer go to \(service.displayName).")
    }
}

extension ListenService: ExpressibleByArgument {}
