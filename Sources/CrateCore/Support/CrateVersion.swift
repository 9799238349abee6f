/// The version shown by `crate --version`, the About dialog and the MusicBrainz User-Agent.
public enum CrateVersion {
    public static let string = "0.1.0"
    public static let applicationID = "dev.crate.Crate"
}
