import CGtk

/// The widgets of data/ui/preferences-window.ui that `PreferencesWindow` binds, by their ids.
@MainActor
struct PreferencesRows {
    typealias Widget = UnsafeMutablePointer<GtkWidget>
    let window, provider, key, keyStatus, keyLink, test, testButton, testSpinner: Widget
    let advanced, model, endpoint, searchSwitch, contact: Widget
    let listenBrainzUser, listenBrainzToken, listenBrainzTest, listenBrainzTestButton: Widget
    let discogsToken, discogsTest, discogsTestButton: Widget
    let listenBrainzListens, lastFMListens: Widget
    let lastFMConnect, lastFMConnectButton, lastFMDoneButton, lastFMSpinner: Widget
    let usage, scans, tokens, cost, budgetStatus, budgetScans, budgetCost, notice, error: Widget

    init(_ ui: UIFile) {
        window = ui.widget("preferences-window")
        provider = ui.widget("provider"); key = ui.widget("key"); keyStatus = ui.widget("key-status"); keyLink = ui.widget("key-link")
        test = ui.widget("test"); testButton = ui.widget("test-button"); testSpinner = ui.widget("test-spinner")
        advanced = ui.widget("advanced"); model = ui.widget("model"); endpoint = ui.widget("endpoint")
        searchSwitch = ui.widget("search-switch"); contact = ui.widget("contact")
        listenBrainzUser = ui.widget("listenbrainz-user"); listenBrainzToken = ui.widget("listenbrainz-token")
        listenBrainzTest = ui.widget("listenbrainz-test"); listenBrainzTestButton = ui.widget("listenbrainz-test-button")
        discogsToken = ui.widget("discogs-token"); discogsTest = ui.widget("discogs-test"); discogsTestButton = ui.widget("discogs-test-button")
        listenBrainzListens = ui.widget("listenbrainz-listens-switch"); lastFMListens = ui.widget("lastfm-listens-switch")
        lastFMConnect = ui.widget("lastfm-connect"); lastFMConnectButton = ui.widget("lastfm-connect-button")
        lastFMDoneButton = ui.widget("lastfm-done-button"); lastFMSpinner = ui.widget("lastfm-spinner")
        usage = ui.widget("usage-group"); scans = ui.widget("scans"); tokens = ui.widget("tokens"); cost = ui.widget("cost")
        budgetStatus = ui.widget("budget-status"); budgetScans = ui.widget("budget-scans"); budgetCost = ui.widget("budget-cost")
        notice = ui.widget("notice-label"); error = ui.widget("error-label")
    }
}
