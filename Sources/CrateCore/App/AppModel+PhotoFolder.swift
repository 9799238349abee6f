import Foundation

extension AppModel {
    /// The window's watched photo folder, scanning with the pipeline of the moment (services are
    /// rebuilt when Preferences save). Call `settingsChanged()` to start it and after each save.
    public func makePhotoFolderMonitor() -> PhotoFolderMonitor {
        PhotoFolderMonitor(database: environment.database, settings: { [weak self] in self?.services.settings ?? Settings() },
                           scanner: { [weak self] in self?.pipeline }, environment: environment.variables)
    }
}
