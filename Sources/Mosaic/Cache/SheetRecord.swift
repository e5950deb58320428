import Foundation
import MosaicImage

/// A sheet this machine wrote and what it was made of, so that a run that would write the
/// same bytes leaves the files as they are (same inode, same time: an rsync or a build
/// system sees nothing new) and skips the drawing.
///
/// The fingerprint covers everything that decides the pages' and the map's bytes: the
/// code's version, the options (but the thread count), the request (destination, format
/// settings, map), every element's kind and frame, every card's path, caption and file
/// content digest, and the font files the text is set in. The files are trusted to be
/// what was written while their identity (device, inode, size, times) is the one
/// recorded right after the rename: a file edited, replaced or removed since is written
/// again. Only a render without a problem, warning or missing character is recorded (a
/// skipped run could not tell them again).
struct SheetRecord {
    var fingerprint: CacheDigest
    var files: [(path: String, identity: ContentIdentity)]
    var pageCount: Int
    var rendered: Int
    var written: String

    static let magic = "MOSAIC-S1"

    func entry() -> [UInt8] {
        var writer = EntryWriter(magic: Self.magic)
        writer.digest(fingerprint)
        writer.int(pageCount)
        writer.int(rendered)
        writer.text(written)
        writer.int(files.count)
        for file in files {
            writer.data(FileNames.bytes(of: file.path))
            CardCache.writeIdentity(file.identity, into: &writer)
        }
        return writer.sealed()
    }

    init(fingerprint: CacheDigest, files: [(path: String, identity: ContentIdentity)], pageCount: Int, rendered: Int, written: String) {
        self.fingerprint = fingerprint
        self.files = files
        self.pageCount = pageCount
        self.rendered = rendered
        self.written = written
    }

    init?(entry: [UInt8]) {
        guard var reader = EntryReader(sealed: entry, magic: Self.magic), let fingerprint = reader.digest(), let pageCount = reader.int(),
            let rendered = reader.int(), let written = reader.text(), let count = reader.int(), count >= 0, count < 1_000_000
        else { return nil }
        var files: [(String, ContentIdentity)] = []
        for _ in 0..<count {
            guard let path = reader.data(), let identity = CardCache.readIdentity(&reader) else { return nil }
            files.append((FileNames.string(fromBytes: path), identity))
        }
        guard reader.isAtEnd else { return nil }
        self.init(fingerprint: fingerprint, files: files, pageCount: pageCount, rendered: rendered, written: written)
    }
}

extension CardCache {
    /// Where the record of the sheet written to `destination` is kept.
    func sheetRecordPath(_ destination: String) -> String {
        let absolute = destination.hasPrefix("/") ? destination : FileManager.default.currentDirectoryPath + "/" + destination
        return Self.fanOut(hostFolder + "/sheets", CacheDigest(text: absolute))
    }

    /// The fingerprint of `sheet` drawn as `request` asks; nil when some card's file cannot
    /// be digested or a card is drawn from memory (then the sheet is always drawn).
    func sheetFingerprint(_ sheet: ContactSheet, request: OutputRequest) -> CacheDigest? {
        let stream = DigestStream()
        stream.add("sheet 1")
        stream.add(codeVersion)
        var options = sheet.options
        options.jobs = 1
        stream.add(String(describing: options))
        stream.add(String(describing: request))
        for face in sheet.typesetter.fonts.openedFaces {
            let path = String(face[..<(face.lastIndex(of: "#") ?? face.endIndex)])
            guard let status = FileNames.status(path) else { return nil }
            stream.add("\(face) \(ContentIdentity(status))")
        }
        let layout = sheet.layout
        for page in 0..<layout.pageCount {
            stream.add("page \(layout.pageSize(page))")
            for element in layout.elements(onPage: page) {
                stream.add("\(element.kind.rawValue) \(element.frame) \(element.imageFrame.map(String.init(describing:)) ?? "") \(element.captionFrame.map(String.init(describing:)) ?? "")")
                guard let path = element.itemPath else { continue }
                let card = sheet.card(path)
                guard card.entry.bitmap == nil, card.entry.pixels == nil else { return nil }
                stream.add(bytes: FileNames.bytes(of: card.entry.path))
                stream.add(card.caption.map { "\($0.title)|\($0.description)" } ?? "-")
                // A pair's mark is drawn and its companions are in the map: a MOV added
                // beside a photo changes the sheet.
                for companion in card.entry.companions { stream.add(bytes: Array(companion.role.rawValue.utf8) + FileNames.bytes(of: companion.path)) }
                stream.add(card.entry.marks.map(\.rawValue).joined(separator: " "))
                if let problem = card.entry.problem {
                    stream.add(problem.description)
                } else if card.entry.summarizedFailures != nil {
                    return nil
                } else {
                    // A file its codec reads by path (a video, perhaps of gigabytes) is not
                    // read whole to be digested: its identity on this machine (the record is
                    // this machine's) stands for its content once it has settled; a file
                    // written just now keeps its sheet drawn every time.
                    if let info = card.entry.info, sheet.options.codecs.codec(of: info.format)?.readsFromPath ?? true {
                        guard let status = FileNames.status(card.entry.path), (status.st_mode & S_IFMT) == S_IFREG else { return nil }
                        let identity = ContentIdentity(status)
                        guard identity.isSettled(now: ContentIdentity.now(), after: settling) else { return nil }
                        stream.add("file \(identity.device) \(identity.inode) \(identity.size) \(identity.modified) \(identity.changed)")
                        continue
                    }
                    guard let content = contentDigest(of: card.entry.path) else { return nil }
                    stream.add(content.digest)
                }
            }
        }
        return stream.finish()
    }

    /// The summary and closing line of the sheet recorded for `destination` with
    /// `fingerprint`, when every file it wrote is still as written; nil otherwise.
    func unchangedSheet(_ fingerprint: CacheDigest, destination: String) -> (summary: RenderSummary, written: String)? {
        guard let (bytes, _) = CacheFiles.read(sheetRecordPath(destination), limit: 1 << 26), let record = SheetRecord(entry: bytes),
            record.fingerprint == fingerprint, !record.files.isEmpty
        else { return nil }
        for file in record.files {
            var status = stat()
            guard FileNames.withSystemPath(file.path, { lstat($0, &status) }) == 0, ContentIdentity(status) == file.identity else { return nil }
        }
        let pages = record.files.map(\.path).prefix(record.pageCount)
        let summary = RenderSummary(files: Array(pages), pageCount: record.pageCount, rendered: record.rendered, failures: [], warnings: [], missingCharacters: [])
        return (summary, record.written)
    }

    /// Records the files just written for `destination` (pages first, then the map).
    func recordSheet(_ fingerprint: CacheDigest, destination: String, summary: RenderSummary, files: [String], written: String) {
        var identities: [(String, ContentIdentity)] = []
        for file in files {
            var status = stat()
            guard FileNames.withSystemPath(file, { lstat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
            identities.append((file, ContentIdentity(status)))
        }
        let record = SheetRecord(fingerprint: fingerprint, files: identities, pageCount: summary.pageCount, rendered: summary.rendered, written: written)
        store(record.entry(), at: sheetRecordPath(destination))
    }

    /// Forgets the record for `destination` (before its files are replaced: a run
    /// interrupted between the renames and the new record leaves no stale record).
    func forgetSheet(destination: String) {
        CacheFiles.remove(sheetRecordPath(destination))
    }
}
