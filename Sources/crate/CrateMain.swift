import ArgumentParser
import CrateCLI

/// The `crate` executable: an async entry point, so commands await their work directly.
@main
enum CrateMain {
    static func main() async {
        await CrateCommand.main(CrateCommand.joiningNegativeValues(Array(CommandLine.arguments.dropFirst())))
    }
}
