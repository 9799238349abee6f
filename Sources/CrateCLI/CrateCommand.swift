import ArgumentParser
import CrateCore
import CrateLive
import Foundation

/// `crate`: Crate without a window, for scripts, diagnostics and tests.
public struct CrateCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "crate",
        abstract: "Identify record covers, review albums and keep your crate — from the terminal.",
        version: "crate \(CrateVersion.string)",
        subcommands: [ScanCommand.self, BatchCommand.self, ReviewCommand.self, HistoryCommand.self, ArtistCommand.self, GenresCommand.self, GenreCommand.self, DoctorCommand.self, PlayCommand.self, MusicCommand.self, CDsCommand.self, RepairCommand.self,
                      WallCommand.self, FavoriteCommand.self, DislikeCommand.self, UnrateCommand.self, FeedbackCommand.self, ListensCommand.self, DiscogsCommand.self, SpinCommand.self, UsageCommand.self, DebugCommand.self,
                      OwnCommand.self, UnownCommand.self, WantCommand.self, UnwantCommand.self, CollectionCommand.self, PressingsCommand.self, PressingCommand.self, IdentifyCommand.self, ExportCommand.self, WatchCommand.self,
                      MusicBrainzCollectionCommand.self, ImportCommand.self]
    )

    public init() {}
}

/// Turns a core error into the CLI's message (worded by `UserMessage`) and exit code 1.
func fail(_ error: Error) -> ExitCode {
    Terminal.warn(UserMessage.text(for: error))
    return ExitCode(1)
}

/// The composition root for a command: the library (notices printed to stderr), the process
/// environment, the Secret Service when the session has one.
func openEnvironment(paths: CratePaths = CratePaths()) throws -> AppEnvironment {
    AppEnvironment.live(database: try openDatabase(paths: paths), paths: paths)
}

/// Opens the library, printing any recovery notice to stderr.
func openDatabase(paths: CratePaths) throws -> AppDatabase {
    let database = try AppDatabase.open(paths: paths)
    if let notice = database.recoveryNotice {
        Terminal.warn(notice)
    }
    if let notice = database.readOnlyNotice {
        Terminal.warn(notice)
    }
    return database
}

extension CrateCommand {
    /// `--count -5` becomes `--count=-5`. ArgumentParser reads a value that starts with `-` as
    /// another option and said "Missing value for '--count <count>'"; joined, the value reaches
    /// the command's range check, which says what is allowed.
    public static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return result + arguments[index...] }
            if argument.hasPrefix("--"), !argument.contains("="), index + 1 < arguments.count,
               isNegativeNumber(arguments[index + 1]) {
                result.append(argument + "=" + arguments[index + 1])
                index += 2
                continue
            }
            result.append(argument)
            index += 1
        }
        return result
    }

    private static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        return Double(text) != nil
    }
}
