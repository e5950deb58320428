import Foundation

/// What a card's caption says.
public enum CaptionMode: Hashable, Sendable, CustomStringConvertible {
    case none
    /// The file name.
    case name
    /// The file name without its extension.
    case stem
    /// The manifest's title and description, else the photo's own (XMP, else IPTC); the file's stem
    /// when there is no title.
    case title
    /// A template with {name} {stem} {ext} {width} {height} {index} {section} {title} (the
    /// manifest's, else the photo's XMP title, else the stem) {description} {size} (the
    /// file's, "3.2 MB") {date} (EXIF DateTimeOriginal, else DateTime, as "2023-07-14 18:22";
    /// empty when the photo has none, never the file's time) {date:FORMAT} (strftime-like)
    /// {mtime} (the file's time) {camera} (EXIF make and model) {lens} {iso} ("ISO 400")
    /// {aperture} ("f/2.8") {shutter} ("1/250 s") {focal} ("50 mm") {rating} (XMP, as stars);
    /// for videos {duration} ("1:02:03"), {codec}, {fps}, {resolution} ("1920x1080", as
    /// displayed) and {timestamp} (a frame's place in its clip); a line break ("\n")
    /// separates the title from the description.
    case template(String)

    /// The modes by name.
    public static let modeNames = ["none", "name", "stem", "title"]
    /// The placeholders a template may use.
    public static let placeholders = [
        "name", "stem", "ext", "width", "height", "index", "section", "title", "description", "size", "date", "mtime", "camera", "lens", "iso",
        "aperture", "shutter", "focal", "rating", "duration", "codec", "fps", "resolution", "timestamp",
    ]
    /// The placeholders that read the EXIF exposure (`ImageDecoder.readsExposure`).
    static let exposurePlaceholders: Set<String> = ["lens", "iso", "aperture", "shutter", "focal"]

    /// Parses `--caption`: `none`, `name`, `stem`, `title`, or a template (a typed `\n`
    /// becomes a line break).
    ///
    /// - Throws: `CaptionModeError.notAModeOrTemplate` for text that is neither a mode nor
    ///   holds a `{placeholder}` (a misspelt mode), `.unknownPlaceholder` for a
    ///   placeholder that does not exist, with the nearest one.
    public init(validating text: String) throws(CaptionModeError) {
        switch text {
        case "none": self = .none
        case "name": self = .name
        case "stem": self = .stem
        case "title": self = .title
        default:
            guard text.contains("{") else {
                throw .notAModeOrTemplate(text, suggestion: NearestName.nearest(text, among: Self.modeNames))
            }
            for placeholder in Self.placeholdersUsed(in: text) where !Self.placeholders.contains(placeholder) {
                if placeholder.hasPrefix("date:") {
                    do throws(DateFormat.Error) { _ = try DateFormat(String(placeholder.dropFirst(5))) } catch { throw .dateFormat(placeholder, error) }
                    continue
                }
                throw .unknownPlaceholder(placeholder, suggestion: NearestName.nearest(placeholder, among: Self.placeholders))
            }
            self = .template(text.replacingOccurrences(of: "\\n", with: "\n"))
        }
    }

    /// The names between braces in `template`, in order.
    public static func placeholdersUsed(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            names.append(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// The mode as typed: its name, or the template.
    public var description: String {
        switch self {
        case .none: return "none"
        case .name: return "name"
        case .stem: return "stem"
        case .title: return "title"
        case .template(let t): return t
        }
    }

    /// A file size for people, in decimal units: "812 B", "8.2 kB", "640 kB", "3.2 MB".
    public static func humanSize(_ bytes: Int) -> String {
        let units = ["kB", "MB", "GB", "TB"]
        guard bytes >= 1000 else { return "\(bytes) B" }
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.5 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return (value < 9.95 ? String(format: "%.1f", value) : String(format: "%.0f", value)) + " " + units[unit]
    }

    /// A file time (seconds since 1970, negative before) as local "2023-07-14 18:22"; ""
    /// when unknown (0: the file's status could not be read).
    static func localTime(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds != 0, abs(seconds) < 1e15 else { return "" }
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return "" }
        return String(format: "%04d-%02d-%02d %02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min))
    }

    /// What the probe must read for these captions: EXIF dates, camera, exposure, XMP.
    /// A caption never reads a file itself: what the probe did not read is empty.
    var fieldsRead: (date: Bool, camera: Bool, exposure: Bool, xmp: Bool) {
        switch self {
        case .none, .name, .stem: return (false, false, false, false)
        case .title: return (false, false, false, true)
        case .template(let template):
            let used = Self.placeholdersUsed(in: template)
            return (
                used.contains { $0 == "date" || $0.hasPrefix("date:") }, used.contains("camera"), used.contains { Self.exposurePlaceholders.contains($0) },
                used.contains { $0 == "rating" || $0 == "title" || $0 == "description" }
            )
        }
    }

    /// The caption for `entry`, the `index`-th card (from 1) in section `section`.
    func caption(for entry: CatalogEntry, index: Int, section: String) -> Caption? {
        if let count = entry.summarizedFailures {
            return self == .none ? nil : Caption(title: Self.summaryTitle(count), description: "see the summary")
        }
        switch self {
        case .none: return nil
        case .name: return Caption(title: entry.name)
        case .stem: return Caption(title: entry.stem)
        case .title: return Caption(title: Self.title(of: entry), description: Self.description(of: entry))
        case .template(let template):
            // The template's own line break separates title from description, before any
            // value is put in: a name holding a newline or "{width}" stays that name.
            let parts = template.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let shooting = entry.info?.shooting
            let value = { (placeholder: Substring) -> String? in
                switch placeholder {
                case "name": return entry.name
                case "stem": return entry.stem
                case "ext": return entry.fileExtension
                case "width": return entry.orientedSize.map { String($0.width) } ?? "?"
                case "height": return entry.orientedSize.map { String($0.height) } ?? "?"
                case "index": return String(index)
                case "section": return section
                case "title": return Self.title(of: entry)
                case "description": return Self.description(of: entry)
                case "size": return Self.humanSize(entry.fileSize)
                // What the probe read (`fieldsRead`): a photo without a date has none.
                case "date": return entry.info?.captured.map(Self.displayDate.string(from:)) ?? ""
                case "mtime": return Self.localTime(entry.modified)
                case "camera": return entry.info?.camera ?? ""
                case "lens": return shooting?.lens ?? ""
                case "iso": return shooting?.iso.map { "ISO \($0)" } ?? ""
                case "aperture": return shooting?.aperture.map(Self.apertureText) ?? ""
                case "shutter": return shooting?.exposureTime.map(Self.shutterText) ?? ""
                case "focal": return shooting?.focalLength.map(Self.focalText) ?? ""
                case "rating": return shooting?.rating.map(Self.stars) ?? ""
                case "duration", "codec", "fps", "resolution", "timestamp":
                    return Self.videoValue(placeholder, entry)
                default:
                    guard placeholder.hasPrefix("date:"), let format = try? DateFormat(String(placeholder.dropFirst(5))) else { return nil }
                    return entry.info?.captured.map(format.string(from:)) ?? ""
                }
            }
            // A value a photo lacks leaves no gap: "{camera} {iso} {rating}" of a photo with
            // a rating alone is "★★★★☆", not "  ★★★★☆".
            var lacking = false
            let known = { (placeholder: Substring) -> String? in
                let text = value(placeholder)
                if text?.isEmpty == true { lacking = true }
                return text
            }
            var title = Self.substitute(parts[0], known), description = parts.count > 1 ? Self.substitute(parts[1], known) : ""
            if lacking { (title, description) = (Self.closingGaps(title), Self.closingGaps(description)) }
            let caption = Caption(title: title, description: description)
            return caption.isEmpty ? nil : caption
        }
    }

    /// The manifest's title, else the photo's own (XMP, else IPTC), else the file's stem.
    static func title(of entry: CatalogEntry) -> String { entry.title ?? entry.info?.shooting?.title ?? entry.stem }

    /// The manifest's description, else the photo's own (XMP, else IPTC), else nothing.
    static func description(of entry: CatalogEntry) -> String { entry.description ?? entry.info?.shooting?.description ?? "" }

    /// "f/2.8", "f/8": one decimal at most.
    public static func apertureText(_ f: Double) -> String { "f/" + oneDecimal(f) }

    /// "1/250 s" below a second (the nearest whole denominator), "2 s", "1.5 s" from one.
    public static func shutterText(_ seconds: Double) -> String {
        guard seconds < 1 else { return oneDecimal(seconds) + " s" }
        return "1/\(Int((1 / seconds).rounded())) s"
    }

    /// "50 mm"; "4.2 mm" below 10 mm (a phone's lens).
    public static func focalText(_ millimetres: Double) -> String {
        (millimetres < 10 ? oneDecimal(millimetres) : String(Int(millimetres.rounded()))) + " mm"
    }

    /// A number with one decimal, without a trailing ".0".
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// A rating as stars: "★★★☆☆" for 3; "" unrated (0) or rejected (-1).
    static func stars(_ rating: Int) -> String {
        guard rating > 0 else { return "" }
        let filled = min(5, rating)
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
    }

    /// `text` without runs of spaces (one kept) and without spaces at its ends: what empty
    /// values leave between the spaces around them; and without the separators they leave
    /// hanging ("{date} · {size}" of an undated photo is "75 kB", not "· 75 kB"): a word
    /// of separators alone (`·`, `•`, `|`, `-`, `–`, `—`, `/`, `,`, `;`, `:`) at either
    /// end, or right after another, goes.
    static func closingGaps(_ text: String) -> String {
        let separators: Set<Character> = ["·", "•", "|", "-", "–", "—", "/", ",", ";", ":"]
        let isSeparator = { (word: Substring) in word.allSatisfy { separators.contains($0) } }
        var words: [Substring] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if isSeparator(word), words.last.map(isSeparator) ?? true { continue }
            words.append(word)
        }
        while let last = words.last, isSeparator(last) { words.removeLast() }
        return words.joined(separator: " ")
    }

    /// A video placeholder's value for `entry`: "" for a still image (and an unknown
    /// duration or a poster's timestamp), but `{resolution}`, which every image has.
    static func videoValue(_ placeholder: Substring, _ entry: CatalogEntry) -> String {
        let video = entry.info?.video
        switch placeholder {
        case "duration": return video?.duration.map { VideoInfo.duration($0) } ?? ""
        case "codec": return video?.codec ?? ""
        case "fps": return video.map(\.frameRateText) ?? ""
        case "resolution": return entry.orientedSize.map { "\($0.width)x\($0.height)" } ?? ""
        case "timestamp": return video?.frameTime.map { VideoInfo.timestamp($0, tenths: (video?.duration ?? 0) < VideoInfo.tenthsBelow) } ?? ""
        default: return ""
        }
    }

    /// `{date}` as `CameraText.displayDate` writes it: "2023-07-14 18:22".
    static let displayDate = (try? DateFormat("%Y-%m-%d %H:%M")) ?? DateFormat.iso

    /// The caption of the card that stands for `count` inputs that could not be read.
    static func summaryTitle(_ count: Int) -> String {
        var digits = Array(String(count))
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        return "and \(String(digits) + grouped) more could not be read"
    }

    /// `template` with each `{placeholder}` replaced by its value, in one pass: a value is
    /// put in as it is and never read again for placeholders. Braces that name no
    /// placeholder stay.
    static func substitute(_ template: Substring, _ value: (Substring) -> String?) -> String {
        var out = ""
        var rest = template
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}"), let text = value(after[..<close]) else {
                out += "{"
                rest = after
                continue
            }
            out += text
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }
}
