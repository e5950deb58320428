import Foundation

/// What a card's caption says.
public enum CaptionMode: Hashable, Sendable, CustomStringConvertible {
    case none
    /// The file name.
    case name
    /// The file name without its extension.
    case stem
    /// The manifest's title and description; the file's stem when there is no title.
    case title
    /// A template with {name} {stem} {ext} {width} {height} {index} {section} {title}
    /// {description} {size} (the file's, "3.2 MB") {date} (EXIF DateTimeOriginal, else the
    /// file's time) {camera} (EXIF make and model); for videos {duration} ("1:02:03"), {codec},
    /// {fps}, {resolution} ("1920x1080", as displayed) and {timestamp} (a frame's place in its
    /// clip); a line break ("\n") separates the title from the description.
    case template(String)

    /// The modes by name.
    public static let modeNames = ["none", "name", "stem", "title"]
    /// The placeholders a template may use.
    public static let placeholders = [
        "name", "stem", "ext", "width", "height", "index", "section", "title", "description", "size", "date", "camera", "duration", "codec", "fps", "resolution", "timestamp",
    ]

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

    /// True when a caption reads the file (its EXIF date or camera): such captions are set
    /// once and kept, others are made again whenever asked for (from the catalog entry).
    var readsFiles: Bool {
        guard case .template(let template) = self else { return false }
        return template.contains("{date}") || template.contains("{camera}")
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
        case .title: return Caption(title: entry.title ?? entry.stem, description: entry.description ?? "")
        case .template(let template):
            // The template's own line break separates title from description, before any
            // value is put in: a name holding a newline or "{width}" stays that name.
            let parts = template.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            var camera: CameraText?
            let value = { (placeholder: Substring) -> String? in
                switch placeholder {
                case "name": return entry.name
                case "stem": return entry.stem
                case "ext": return entry.fileExtension
                case "width": return entry.orientedSize.map { String($0.width) } ?? "?"
                case "height": return entry.orientedSize.map { String($0.height) } ?? "?"
                case "index": return String(index)
                case "section": return section
                case "title": return entry.title ?? entry.stem
                case "description": return entry.description ?? ""
                // The file's size and its EXIF fields: read only when asked for.
                case "size": return Self.humanSize(entry.fileSize)
                // Already read by the probe (--sort date, --group-by): not read again.
                case "date" where entry.info?.captured != nil:
                    return entry.info?.captured.map(Self.displayDate.string(from:))
                case "camera" where entry.info?.camera != nil:
                    return entry.info?.camera
                case "duration", "codec", "fps", "resolution", "timestamp":
                    return Self.videoValue(placeholder, entry)
                case "date", "camera":
                    let read = camera ?? ImageDecoder().cameraText(entry.path)
                    camera = read
                    return placeholder == "date" ? read.displayDate ?? Self.localTime(entry.modified) : read.camera
                default: return nil
                }
            }
            let title = Self.substitute(parts[0], value), description = parts.count > 1 ? Self.substitute(parts[1], value) : ""
            let caption = Caption(title: title, description: description)
            return caption.isEmpty ? nil : caption
        }
    }

    /// A video placeholder's value for `entry`: "" for a still image (and an unknown
    /// duration or a poster's timestamp), but `{resolution}`, which every image has.
    static func videoValue(_ placeholder: Substring, _ entry: CatalogEntry) -> String {
        let video = entry.info?.video
        switch placeholder {
        case "duration": return video?.duration.map { VideoInfo.timestamp($0) } ?? ""
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
