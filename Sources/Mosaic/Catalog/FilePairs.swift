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

    /// The files of `files` (relative paths, in order) that get cards, each with its
    /// companions, in the order of `files`: a companion's place is its card's.
    static func group(_ files: [String]) -> [(file: String, companions: [(role: Companion.Role, file: String)])] {
        // By folder and stem: the extension lowercased.
        var byStem: [String: [(index: Int, ext: String)]] = [:]
        var stems: [String] = []
        stems.reserveCapacity(files.count)
        for (index, file) in files.enumerated() {
            let ns = file as NSString
            let stem = ns.deletingPathExtension
            stems.append(stem)
            byStem[stem, default: []].append((index, ns.pathExtension.lowercased()))
        }
        var companionOf: [Int: Int] = [:]  // companion index -> card index
        var roles: [Int: Companion.Role] = [:]
        for (_, group) in byStem where group.count > 1 {
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
        for (index, file) in files.enumerated() {
            let ext = (file as NSString).pathExtension.lowercased()
            guard let role = goProRoles[ext], companionOf[index] == nil else { continue }
            let stem = stems[index]
            var candidates = [stem]
            let name = (stem as NSString).lastPathComponent
            if name.hasPrefix("GL") {
                let folder = (stem as NSString).deletingLastPathComponent
                for prefix in ["GX", "GH"] {
                    let other = prefix + name.dropFirst(2)
                    candidates.append(folder.isEmpty ? other : folder + "/" + other)
                }
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
        var cards: [(file: String, companions: [(role: Companion.Role, file: String)])] = []
        cards.reserveCapacity(files.count - companionOf.count)
        for (index, file) in files.enumerated() where companionOf[index] == nil {
            cards.append((file, companions[index] ?? []))
        }
        return cards
    }
}
