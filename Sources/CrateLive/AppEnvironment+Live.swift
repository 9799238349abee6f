import CrateCore
import Foundation

extension AppEnvironment {
    /// The environment of a real Crate process: XDG paths, the process environment, the Secret
    /// Service when there is one, libcurl. The window and every CLI command start here.
    public static func live(database: AppDatabase, paths: CratePaths = CratePaths(),
                            variables: [String: String] = ProcessInfo.processInfo.environment) -> AppEnvironment {
        let (secrets, status) = SecretServiceBackend.probe(environment: variables)
        return AppEnvironment(paths: paths, variables: variables, database: database, secrets: secrets, secretService: status)
    }
}
