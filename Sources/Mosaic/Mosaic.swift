// The facade: everything a program needs to make contact sheets, behind one import.
@_exported import MosaicImage
@_exported import MosaicLayout
@_exported import MosaicText

/// mosaic's release, as `mosaic --version` prints it.
public enum MosaicVersion {
    /// Semantic version of the command and the libraries.
    public static let string = "0.6.0"
}
