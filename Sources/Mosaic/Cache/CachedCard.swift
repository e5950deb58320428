import MosaicImage

/// A card's image as the renderer draws it (decoded, upright, in sRGB, resampled to its
/// frame) and the decoder's warning: one `cards/` entry.
struct CachedCard: Sendable {
    var image: Bitmap
    /// The warning's message, count and kind (its path is the card's, set on reading).
    var warning: DecodingWarning?

    init(image: Bitmap, warning: DecodingWarning?) {
        self.image = image
        self.warning = warning
    }

    /// The entry's bytes: the key again (an entry under another name is not used), the
    /// size, the pixels, the warning, and the checksum.
    func entry(key: CacheDigest) -> [UInt8] {
        var writer = EntryWriter(magic: CardCache.cardMagic, capacity: image.pixels.count + 64)
        writer.digest(key)
        writer.int(image.width)
        writer.int(image.height)
        writer.data(image.pixels)
        if let warning {
            writer.u8(warning.isDataLoss ? 2 : 1)
            writer.int(warning.count)
            writer.text(warning.message)
        } else {
            writer.u8(0)
        }
        return writer.sealed()
    }

    /// Reads an entry; nil when it is damaged or was made for another key.
    init?(entry: [UInt8], key: CacheDigest) {
        guard var reader = EntryReader(sealed: entry, magic: CardCache.cardMagic), reader.digest() == key,
            let width = reader.int(), let height = reader.int(), let pixels = reader.data(),
            width > 0, height > 0, let image = Bitmap(width: width, height: height, pixels: pixels), let kind = reader.u8()
        else { return nil }
        self.image = image
        switch kind {
        case 0: warning = nil
        case 1, 2:
            guard let count = reader.int(), let message = reader.text() else { return nil }
            warning = DecodingWarning(path: "", message: message, count: count, isDataLoss: kind == 2)
        default: return nil
        }
        guard reader.isAtEnd else { return nil }
    }
}

/// Everything that decides a card's pixels besides its file's content, written out: the
/// key of a `cards/` entry is the digest of this text and the content digest.
struct CardKey {
    var parts: [String] = []

    mutating func add(_ name: String, _ value: Any) { parts.append("\(name)=\(String(describing: value))") }

    func key(content: CacheDigest, codeVersion: String) -> CacheDigest {
        CacheDigest(text: "card 1\n\(codeVersion)\n\(content)\n" + parts.joined(separator: "\n"))
    }
}
