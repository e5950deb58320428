import MosaicLayout

/// The codecs mosaic reads with, tried in order by signature.
public struct CodecRegistry: Sendable {
    /// How many bytes of a file's start the codecs are shown to recognise it.
    public static let signatureLength = 16

    /// The registered codecs, in the order they are tried.
    public let codecs: [any ImageCodec]

    public init(codecs: [any ImageCodec]) {
        self.codecs = codecs
    }

    /// Every format mosaic reads: one line per codec.
    public static let standard = CodecRegistry(codecs: [
        RawCodec(),
        JPEGCodec(),
        PNGCodec(),
        WebPCodec(),
        GIFCodec(),
        HEIFCodec.heic,
        HEIFCodec.avif,
        TIFFCodec(),
        JXLCodec(),
        VideoCodec(),
    ])

    /// The codec whose signature starts `signature`, or nil.
    public func codec(for signature: [UInt8]) -> (any ImageCodec)? {
        codecs.first { $0.matches(signature: signature) }
    }

    /// The codec that recognises `header` (a file's first bytes, as many as were read:
    /// `ImageCodec.matches(header:)`), or nil.
    public func codec(forHeader header: [UInt8]) -> (any ImageCodec)? {
        codecs.first { $0.matches(header: header) }
    }

    /// The same registry with `codec` in place of the one of its format (a RAW codec told
    /// to draw from the raw data, `RawCodec(drawing: .full)`).
    public func replacing(_ codec: any ImageCodec) -> CodecRegistry {
        CodecRegistry(codecs: codecs.map { $0.format == codec.format ? codec : $0 })
    }

    /// The codec of `format`, or nil when none is registered.
    public func codec(of format: ImageFormat) -> (any ImageCodec)? {
        codecs.first { $0.format == format }
    }

    /// True when a file named `name` claims, by its extension, to be in a registered format.
    public func claims(name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        let ext = name[name.index(after: dot)...].lowercased()
        return codecs.contains { $0.fileExtensions.contains(ext) }
    }

    /// The formats' names as messages write them ("JPEG", "JPEG XL"), in order: its codecs'.
    public var names: [String] { codecs.map(\.name) }

    /// The formats, for messages ("JPEG or PNG").
    public var formatNames: String { Self.sentence(names) }

    /// Names as a message lists them: "JPEG", "JPEG or PNG", "JPEG, PNG or WebP"; "no" for none.
    public static func sentence(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "no" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}

extension CodecRegistry: Hashable {
    /// Two registries are the same when they list the same formats in the same order.
    public static func == (a: CodecRegistry, b: CodecRegistry) -> Bool {
        a.description == b.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }
}

extension CodecRegistry: CustomStringConvertible {
    /// The formats, in order ("raw jpeg png webp ...", a codec's settings in brackets): stable across processes, so that a
    /// sheet's digest (which describes its options) is too.
    public var description: String {
        codecs.map { $0.settings.isEmpty ? $0.format.rawValue : "\($0.format.rawValue)(\($0.settings))" }.joined(separator: " ")
    }
}
