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

    /// "2023-07-14 18:22" from an EXIF date; nil when it is not one. Read as the probe and
    /// `--group-by` read it (`CaptureDate(exif:)`): a month 13, a 30 February,
    /// "0000:00:00 00:00:00" or full-width digits are no date, for every use.
    public var displayDate: String? {
        guard let date, let captured = CaptureDate(exif: date, offset: offset) else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = String(captured.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-\(two(captured.month))-\(two(captured.day)) \(two(captured.hour)):\(two(captured.minute))"
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
    /// Without `character` at either end.
    func trimming(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
