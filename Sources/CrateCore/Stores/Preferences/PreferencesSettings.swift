import Foundation

/// The settings file the Preferences stores edit together: the *saved* settings (never the
/// environment's one-off overrides), which fields a `CRATE_*` variable sets for this session, and
/// the one way to write a change. Each page store changes only its own fields through `save`.
@MainActor
public final class PreferencesSettings {
    let environment: AppEnvironment
    private(set) var saved: Settings
    /// Why settings.json could not be read (the defaults are shown instead).
    let loadError: String?
    /// What this session runs with: the saved settings plus the variables.
    var effective: Settings { (try? saved.applyingOverrides(from: environment.variables)) ?? saved }
    /// Fields a `CRATE_*` variable sets for this session, with the variable: they show the value
    /// in effect, cannot be edited here, and are never saved.
    public let setForSession: [PreferencesField: String]
    /// Which `CRATE_*` variables override the saved settings in this session, if any.
    public let overrideNotice: String?
    /// Called after every save with the settings the process now runs with (saved + overrides),
    /// so the app rebuilds its services in one place.
    var onSaved: ((Settings) -> Void)?

    init(environment: AppEnvironment) {
        self.environment = environment
        do {
            saved = try environment.savedSettings()
            loadError = nil
        } catch {
            saved = Settings()
            loadError = UserMessage.text(for: error)
        }
        let variables = environment.variables
        let provider = ((try? saved.applyingOverrides(from: variables)) ?? saved).provider
        var setForSession: [PreferencesField: String] = [:]
        for field in PreferencesField.allCases {
            if let name = PreferencesField.variable(for: field, provider: provider, in: variables) { setForSession[field] = name }
        }
        self.setForSession = setForSession
        let overrides = Settings.activeOverrides(in: variables)
        let names = overrides.map { "$" + $0 }.joined(separator: ", ")
        overrideNotice = overrides.isEmpty ? nil : overrides.count == 1
            ? L10n.tr("This session also uses %@, which wins over what is saved here and is never saved.", names)
            : L10n.tr("This session also uses %@, which win over what is saved here and are never saved.", names)
    }

    /// "Set by CRATE_PROVIDER for this session", for a field a variable sets.
    public func sessionNote(_ field: PreferencesField) -> String? {
        setForSession[field].map { L10n.tr("Set by %@ for this session", $0) }
    }

    /// Writes the saved settings with `change` made, runs `also` (storing a typed key), then tells
    /// the app, which then finds the new key too. The error says why in plain words; nothing is
    /// announced when something could not be stored.
    func save(_ change: (inout Settings) -> Void, also: () throws -> Void = {}) throws(PreferencesSaveError) {
        var next = saved
        change(&next)
        do {
            try next.save(paths: environment.paths)
            saved = next
            try also()
        } catch {
            throw PreferencesSaveError(message: UserMessage.text(for: error))
        }
        // The variables were valid when the process started; if not, the saved settings stand.
        onSaved?(effective)
    }
}
