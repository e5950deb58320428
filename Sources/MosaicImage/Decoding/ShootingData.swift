/// How a picture was taken and what its owner said of it: the exposure from its EXIF data,
/// the rating, title and description from its XMP (embedded, or the sidecar beside it).
/// Read by the probe only when asked (`ImageDecoder.readsExposure`, `readsXMP`).
public struct ShootingData: Sendable, Hashable, Codable {
    /// The lens (EXIF LensModel).
    public var lens: String?
    /// The sensitivity (EXIF PhotographicSensitivity).
    public var iso: Int?
    /// The f-number (EXIF FNumber): 2.8 for f/2.8.
    public var aperture: Double?
    /// The exposure time in seconds (EXIF ExposureTime).
    public var exposureTime: Double?
    /// The focal length in millimetres (EXIF FocalLength).
    public var focalLength: Double?
    /// XMP's rating: -1 (rejected), 0 (unrated) to 5 stars.
    public var rating: Int?
    /// XMP's title (`dc:title`).
    public var title: String?
    /// XMP's description (`dc:description`).
    public var description: String?

    public init(
        lens: String? = nil, iso: Int? = nil, aperture: Double? = nil, exposureTime: Double? = nil, focalLength: Double? = nil, rating: Int? = nil,
        title: String? = nil, description: String? = nil
    ) {
        self.lens = lens
        self.iso = iso
        self.aperture = aperture
        self.exposureTime = exposureTime
        self.focalLength = focalLength
        self.rating = rating
        self.title = title
        self.description = description
    }

    /// True when no field is known.
    public var isEmpty: Bool { self == ShootingData() }

    /// These fields, each replaced by `other`'s where `other` knows it (a sidecar over the
    /// embedded XMP, as Lightroom and darktable write their edits to the sidecar).
    public func overridden(by other: ShootingData) -> ShootingData {
        ShootingData(
            lens: other.lens ?? lens, iso: other.iso ?? iso, aperture: other.aperture ?? aperture, exposureTime: other.exposureTime ?? exposureTime,
            focalLength: other.focalLength ?? focalLength, rating: other.rating ?? rating, title: other.title ?? title,
            description: other.description ?? description)
    }

    /// A value held by reference (`ImageInfo.shooting`).
    final class Box: Sendable, Hashable, Codable {
        let value: ShootingData
        init(_ value: ShootingData) { self.value = value }
        static func == (a: Box, b: Box) -> Bool { a.value == b.value }
        func hash(into hasher: inout Hasher) { hasher.combine(value) }
        init(from decoder: any Decoder) throws { value = try ShootingData(from: decoder) }
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }
}
