/// A weak reference to the main window, for callbacks that may outlive it.
struct WeakWindow {
    weak var window: MainWindow?
}
