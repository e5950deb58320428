import Foundation

/// How the files of one stem in one folder are drawn (`--pairs`).
public enum PairMode: String, Sendable, CaseIterable, Codable {
    /// A RAW and its JPEG/HEIC, a Live Photo's still and MOV, a GoPro clip and its
    /// proxies: one card, the still (or the clip) drawn, the others its companions.
    case merge
    /// Every file its own card.
    case separate
}

/// A file that belongs to another file's card (`CatalogEntry.companions`): not probed, not
/// drawn, listed in the image map beside the card's own file.
public struct Companion: Sendable, Hashable {
    /// What the file is to the card.
    public enum Role: String, Sendable, Hashable {
        /// The RAW of a RAW + JPEG/HEIC pair.
        case raw
        /// A Live Photo's MOV.
        case live
        /// A GoPro low-resolution proxy (`.LRV`).
        case proxy
        /// A GoPro thumbnail (`.THM`).
        case thumbnail
        /// An XMP sidecar (`IMG_1.CR2.xmp` or `IMG_1.xmp`): its rating, title and
        /// description are the photo's.
        case sidecar
    }

    public var role: Role
    /// The path to open (as the card's own path is).
    public var path: String
    /// The path relative to the folder (as the card's own relative path is).
    public var relativePath: String

    public init(role: Role, path: String, relativePath: String) {
        self.role = role
        self.path = path
        self.relativePath = relativePath
    }
}

/// The mark drawn in a card's corner for what it stands for besides its image.
public enum PairMark: String, Sendable, Hashable, CaseIterable {
    /// A RAW + JPEG/HEIC pair.
    case raw = "RAW"
    /// A Live Photo (still + MOV).
    case live = "LIVE"
    /// A Motion Photo (a clip inside the still's file).
    case motion = "MOTION"
}

/// Pairs the files of a folder listing by their names alone (no file is read): what each
/// card's file is and which files go with it.
enum FilePairs {
    /// Stills a RAW or a Live Photo's clip pairs with, in the order one is chosen when a
    /// stem has several.
    static let stillExtensions = ["jpg", "jpeg", "heic", "heif", "hif"]
    /// RAW files by their names (pairing reads no file; a RAW card alone is still known by
    /// its content).
    static let rawExtensions: Set<String> = [
        "3fr", "ari", "arw", "bay", "cr2", "cr3", "crw", "dcr", "dng", "erf", "fff", "iiq", "k25", "kdc", "mef", "mos", "mrw", "nef",
        "nrw", "orf", "ori", "pef", "raf", "raw", "rw2", "rwl", "sr2", "srf", "srw", "x3f",
    ]
    /// A Live Photo's clip.
    static let liveExtensions: Set<String> = ["mov"]
    /// Clips a GoPro proxy or thumbnail goes with.
    static let clipExtensions: Set<String> = ["mp4", "mov"]
    /// GoPro companions: a low-resolution proxy and a thumbnail.
    static let goProRoles: [String: Companion.Role] = ["lrv": .proxy, "thm": .thumbnail]

    /// The extensions a file that goes with another may have (a RAW, a clip, a proxy, a
    /// sidecar).
    static let companionExtensions = rawExtensions.union(liveExtensions).union(goProRoles.keys).union(["xmp"])

    /// A relative path's extension, lowercased ("" when its name has none).
    static func fileExtension(_ file: String) -> String {
        let utf8 = file.utf8
        var i = utf8.endIndex
        while i > utf8.startIndex {
            let before = utf8.index(before: i)
            let byte = utf8[before]
            if byte == UInt8(ascii: "/") { return "" }
            if byte == UInt8(ascii: ".") {
                // A leading dot starts no extension.
                if before == utf8.startIndex || utf8[utf8.index(before: before)] == UInt8(ascii: "/") { return "" }
                return String(file[i...]).lowercased()
            }
            i = before
        }
        return ""
    }

    /// A relative path's stem (the path without its last extension) and its extension,
    /// lowercased ("" when the name has none; a leading dot starts no extension).
    static func split(_ file: String) -> (stem: String, ext: String) {
        let utf8 = file.utf8
        let nameStart = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = utf8[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot != nameStart else { return (file, "") }
        return (String(file[..<dot]), String(file[file.index(after: dot)...]).lowercased())
    }

    /// The files of `files` (relative paths, in order) that get cards, each with its
    /// companions, in the order of `files`: a companion's place is its card's. Without
    /// `merge` (`--pairs separate`) only XMP sidecars go with the files they describe
    /// (a sidecar named for a whole name, `IMG_1.CR2.xmp`, with that file; one named for
    /// a stem, `IMG_1.xmp`, with every file of the stem).
    static func group(_ files: [String], merge: Bool = true) -> [(file: String, companions: [(role: Companion.Role, file: String)])] {
        // Most folders hold no file that could be a companion: no stem is looked at.
        let extensions = files.map(Self.fileExtension)
        guard extensions.contains(where: { Self.companionExtensions.contains($0) }) else { return files.map { ($0, []) } }
        // By folder and stem.
        var byStem: [String: [(index: Int, ext: String)]] = [:]
        var stems: [String] = []
        stems.reserveCapacity(files.count)
        for (index, file) in files.enumerated() {
            let stem = split(file).stem
            stems.append(stem)
            byStem[stem, default: []].append((index, extensions[index]))
        }
        var companionOf: [Int: Int] = [:]  // companion index -> card index
        var roles: [Int: Companion.Role] = [:]
        for (_, group) in byStem where merge && group.count > 1 {
            guard let still = stillExtensions.lazy.compactMap({ ext in group.first(where: { $0.ext == ext }) }).first else { continue }
            for member in group where member.index != still.index {
                if rawExtensions.contains(member.ext) {
                    roles[member.index] = .raw
                } else if liveExtensions.contains(member.ext) {
                    roles[member.index] = .live
                } else {
                    continue
                }
                companionOf[member.index] = still.index
            }
        }
        // GoPro: GOPR0001.MP4 with GOPR0001.LRV/.THM; GX010001.MP4 (or GH...) with
        // GL010001.LRV and GX010001.THM.
        for index in files.indices {
            let ext = extensions[index]
            guard merge, let role = goProRoles[ext], companionOf[index] == nil else { continue }
            let stem = stems[index]
            var candidates = [stem]
            let slash = stem.lastIndex(of: "/").map { stem.index(after: $0) } ?? stem.startIndex
            if stem[slash...].hasPrefix("GL") {
                for prefix in ["GX", "GH"] { candidates.append(stem[..<slash] + prefix + stem[stem.index(slash, offsetBy: 2)...]) }
            }
            for candidate in candidates {
                if let clip = byStem[candidate]?.first(where: { clipExtensions.contains($0.ext) }), companionOf[clip.index] == nil {
                    companionOf[index] = clip.index
                    roles[index] = role
                    break
                }
            }
        }
        var companions: [Int: [(role: Companion.Role, file: String)]] = [:]
        for (index, card) in companionOf.sorted(by: { $0.key < $1.key }) {
            if let role = roles[index] { companions[card, default: []].append((role, files[index])) }
        }
        // XMP sidecars: with the card of the file they name (by its whole name), else with
        // the cards of every file of their stem; one that names no file stays a file.
        var sidecars = Set<Int>()
        let hasSidecars = extensions.contains("xmp")
        let indexByName = hasSidecars ? Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) : [:]
        for (index, file) in files.enumerated() where hasSidecars && extensions[index] == "xmp" {
            let stem = stems[index]
            var described: [Int] = []
            if let named = indexByName[stem] {
                described = [named]
            } else {
                described = (byStem[stem] ?? []).map(\.index).filter { $0 != index && extensions[$0] != "xmp" }
            }
            let cards = Set(described.map { companionOf[$0] ?? $0 })
            guard !cards.isEmpty else { continue }
            sidecars.insert(index)
            for card in cards.sorted() { companions[card, default: []].append((.sidecar, file)) }
        }
        var cards: [(file: String, companions: [(role: Companion.Role, file: String)])] = []
        cards.reserveCapacity(files.count - companionOf.count - sidecars.count)
        for (index, file) in files.enumerated() where companionOf[index] == nil && !sidecars.contains(index) {
            cards.append((file, companions[index] ?? []))
        }
        return cards
    }

    /// True when a folder's cards (`group`'s) hold a still without a clip (a JPEG or HEIC)
    /// and a clip (a MOV) that is a card of its own: only then may a Live Photo of two
    /// names be in it, and content identifiers are read (`pairByContentIdentifier`).
    static func mayPairByContent(_ cards: [(file: String, companions: [(role: Companion.Role, file: String)])]) -> Bool {
        var still = false, clip = false
        for card in cards {
            let ext = fileExtension(card.file)
            if liveExtensions.contains(ext) {
                clip = true
            } else if stillExtensions.contains(ext), !card.companions.contains(where: { $0.role == .live }) {
                still = true
            }
            if still && clip { return true }
        }
        return false
    }

    /// A folder's probed cards with each MOV clip whose Apple content identifier a still
    /// without a clip shares made that still's Live Photo companion (`IMG_0001.HEIC` and
    /// `IMG_0001 (1).MOV`, renamed exports): the clip's card is gone, the still is marked
    /// LIVE. The first still of an identifier takes the first clip of it; others stay.
    static func pairByContentIdentifier(_ entries: CatalogEntries) -> CatalogEntries {
        var stills: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            guard let info = entry.info, info.video == nil, let identifier = info.contentIdentifier,
                stillExtensions.contains(fileExtension(entry.relativePath)), !entry.companions.contains(where: { $0.role == .live })
            else { continue }
            if stills[identifier] == nil { stills[identifier] = index }
        }
        guard !stills.isEmpty else { return entries }
        var clips: [Int: Int] = [:]  // still index -> clip index
        for (index, entry) in entries.enumerated() {
            guard let info = entry.info, info.video != nil, entry.problem == nil, let identifier = info.contentIdentifier,
                liveExtensions.contains(fileExtension(entry.relativePath)), let still = stills[identifier], clips[still] == nil
            else { continue }
            clips[still] = index
        }
        guard !clips.isEmpty else { return entries }
        let taken = Set(clips.values)
        var paired = CatalogEntries()
        paired.reserveCapacity(entries.count - taken.count)
        for (index, var entry) in entries.enumerated() where !taken.contains(index) {
            if let clip = clips[index] {
                let movie = entries[clip]
                entry.companions += [Companion(role: .live, path: movie.path, relativePath: movie.relativePath)] + movie.companions
            }
            paired.append(entry)
        }
        return paired
    }
}
