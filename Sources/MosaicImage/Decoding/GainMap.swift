/// A gain map a photo carries beside its standard image: the map that turns the standard
/// (SDR) image into its HDR rendition on a display that can show it. mosaic always draws
/// the standard image (its own colours, through its own profile), never the map nor the HDR
/// rendition; the probe says the map is there (`ImageInfo.gainMap`).
public enum GainMap: String, Sendable, Hashable, Codable {
    /// Google's Ultra HDR (Adobe's gain map XMP, `hdrgm:`): a JPEG with a second JPEG, the
    /// map, appended and listed by its MPF and XMP `GContainer` directory.
    case ultraHDR = "ultrahdr"
    /// ISO 21496-1: a JPEG's APP2 version marker, or a HEIF's `tmap` derived image item.
    case iso21496 = "iso21496"
    /// Apple's: a HEIF auxiliary image of type `urn:com:apple:photo:2020:aux:hdrgainmap`.
    case apple

    /// The map's kind for people ("Ultra HDR", "ISO 21496-1", "Apple").
    public var name: String {
        switch self {
        case .ultraHDR: "Ultra HDR"
        case .iso21496: "ISO 21496-1"
        case .apple: "Apple"
        }
    }
}
