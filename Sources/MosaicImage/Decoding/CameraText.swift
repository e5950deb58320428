/// When and with what a picture was taken, as its EXIF data says.
public struct CameraText: Sendable, Hashable {
    /// DateTimeOriginal (else DateTime) as written: "2023:07:14 18:22:05".
    public var date: String?
    public var make: String?
    public var model: String?
    /// OffsetTimeOriginal (else OffsetTime) as written: "+02:00".
    public var offset: String?

    public init(date: String? = nil, make: String? = nil, model: String? = nil, offset: String? = nil) {
        self.date = date
        self.make = make
        self.model = model
        self.offset = offset
    }

    /// "2023-07-14 18:22" from an EXIF date; nil when it is not one.
    public var displayDate: String? {
        guard let date else { return nil }
        let digits = Array(date.utf8)
        guard digits.count >= 16, digits[4] == UInt8(ascii: ":"), digits[7] == UInt8(ascii: ":"), digits[13] == UInt8(ascii: ":") else { return nil }
        let day = String(decoding: digits[0..<10], as: UTF8.self).replacingColons()
        return day + " " + String(decoding: digits[11..<16], as: UTF8.self)
    }

    /// Make and model, the make left out when the model already starts with it
    /// ("Canon" + "Canon EOS R5" is "Canon EOS R5"); "" when neither is known.
    public var camera: String {
        let make = self.make ?? "", model = self.model ?? ""
        if make.isEmpty { return model }
        if model.isEmpty { return make }
        let brand = make.split(separator: " ").first.map { $0.lowercased() } ?? ""
        return model.lowercased().hasPrefix(brand) ? model : make + " " + model
    }
}

extension String {
    fileprivate func replacingColons() -> String { String(map { $0 == ":" ? "-" : $0 }) }

    /// Without `character` at either end.
    func trimming(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
