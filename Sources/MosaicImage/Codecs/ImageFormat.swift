import MosaicLayout

/// An image file format, named by its codec ("jpeg", "png"). Formats are recognised by
/// their signature (never the extension), through `CodecRegistry`.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The short lowercase name ("jpeg").
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The name as written in messages ("JPEG", "WebP"): its standard codec's `name`; a
    /// format no standard codec reads is its raw value in capitals ("PPM").
    public var description: String { CodecRegistry.standard.codec(of: self)?.name ?? rawValue.uppercased() }

    /// The format of `registry` (the one in use) whose signature starts `bytes`, or nil.
    public static func detect(_ bytes: some Collection<UInt8>, in registry: CodecRegistry) -> ImageFormat? {
        registry.codec(for: Array(bytes.prefix(CodecRegistry.signatureLength)))?.format
    }
}
