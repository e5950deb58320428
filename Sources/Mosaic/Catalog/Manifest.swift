import Foundation

/// Manifests: a sheet described in JSON or CSV, with sections and captions.
///
/// JSON:
///
///     {
///       "title": "Sample photos",
///       "sections": [
///         { "header": "Space", "footer": "NASA, public domain", "columns": 3,
///           "spacing": 8, "columnSpacing": 8, "rowSpacing": 8, "inset": 12,
///           "items": [ { "path": "astronaut.jpg", "title": "Astronaut",
///                        "description": "Eileen Collins ..." } ] }
///       ]
///     }
///
/// (or "items" at the top level, for one section). CSV: a header row naming the columns
/// `path` (required), `title`, `description`, `section`; rows with the same `section`
/// form a section headed by it, in order of first appearance. Paths are relative to the
/// manifest's folder.
extension Catalog {
    /// The inputs a manifest lists (JSON or CSV, by extension); paths are relative to the
    /// manifest. Sizes come from the images' headers, probed on `jobs` threads.
    ///
    /// - Throws: `CatalogError.manifest` naming the file and what is wrong with it.
    public static func manifest(
        _ path: String, decoder: ImageDecoder = ImageDecoder(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(CatalogError) -> Catalog {
        guard FileNames.status(path) != nil else { throw .notFound(path: path) }
        let data: Data
        do throws(ImageDecodingError) {
            data = Data(try FileBytes.read(path).bytes)
        } catch {
            throw .manifest(path: path, message: error.reason)
        }
        let manifest = try parseManifest(data, path: path)
        let base = (path as NSString).deletingLastPathComponent
        var sections = manifest.sections ?? []
        if let items = manifest.items { sections.insert(ManifestSection(items: items), at: 0) }
        guard sections.contains(where: { !($0.items ?? []).isEmpty }) else {
            throw .manifest(path: path, message: "it lists no images")
        }
        var catalog = Catalog(sections: [], title: manifest.title)
        for section in sections {
            let items = section.items ?? []
            var files = CatalogEntries()
            files.reserveCapacity(items.count)
            for item in items {
                // Packed once with its captions (setting them one by one packed it again each
                // time, and every packing of a captioned entry kept a box of its own).
                files.append(CatalogEntry(
                    path: item.path.hasPrefix("/") ? item.path : (base.isEmpty ? item.path : base + "/" + item.path), relativePath: item.path,
                    title: item.title, description: item.description))
                if let span = item.span, span < 1 {
                    throw .manifest(path: path, message: "\(item.path): span \(span) must be at least 1 (the columns the card spans)")
                }
            }
            // Listed by name: a file that is not an image is a placeholder, not skipped; a
            // FIFO or device is skipped (never opened). The entries come back in manifest
            // order, with their titles.
            let ordered = probe(files, decoder: decoder, jobs: jobs, catalog: &catalog, keepingOthers: true)
            // Spans by entry: the entries are the items in order, less those skipped.
            var spans: [Int: Int] = [:]
            var next = items.startIndex
            for (index, entry) in ordered.enumerated() {
                while next < items.endIndex, items[next].path != entry.relativePath { next += 1 }
                guard next < items.endIndex else { break }
                if let span = items[next].span, span > 1 { spans[index] = span }
                next += 1
            }
            let overrides = SectionOverrides(
                columns: section.columns, columnWidth: section.columnWidth, spacing: section.spacing,
                columnSpacing: section.columnSpacing, rowSpacing: section.rowSpacing, inset: section.inset,
                direction: section.direction)
            var catalogSection = CatalogSection(header: section.header, footer: section.footer, entries: ordered, overrides: overrides)
            catalogSection.spans = spans
            catalog.sections.append(catalogSection)
        }
        return catalog
    }

    /// Reads a manifest's text without touching the images it lists: what `manifest`
    /// does first, for a fuzzer and for tools that check manifests. `path` chooses the
    /// format (`.csv`, else JSON) and names the file in errors.
    ///
    /// - Returns: how many images it lists.
    /// - Throws: `CatalogError.manifest` naming the file and what is wrong with it.
    @discardableResult
    public static func checkManifest(_ data: Data, path: String) throws(CatalogError) -> Int {
        let manifest = try parseManifest(data, path: path)
        return (manifest.items?.count ?? 0) + (manifest.sections ?? []).reduce(0) { $0 + ($1.items?.count ?? 0) }
    }

    static func parseManifest(_ data: Data, path: String) throws(CatalogError) -> ManifestFile {
        // Invalid UTF-8 is replaced (U+FFFD), never fatal; a byte-order mark (Excel writes
        // one) is not part of the first column's name.
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        if path.lowercased().hasSuffix(".csv") { return try parseCSV(text, path: path) }
        let manifest: ManifestFile
        do {
            manifest = try JSONDecoder().decode(ManifestFile.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            // Foundation calls a number that does not fit the field ("columns": 2.5) invalid
            // JSON, without a place: when the text is valid JSON, the value is named.
            if case .dataCorrupted = error, let wrong = wrongNumber(in: Data(text.utf8)) { throw .manifest(path: path, message: wrong) }
            throw .manifest(path: path, message: describe(error))
        } catch {
            throw .manifest(path: path, message: "\(error)")
        }
        if let unknown = unknownKey(in: Data(text.utf8)) { throw .manifest(path: path, message: unknown) }
        return manifest
    }

    struct ManifestFile: Decodable {
        var title: String?
        var sections: [ManifestSection]?
        var items: [ManifestItem]?
    }

    struct ManifestSection: Decodable {
        var header: String?
        var footer: String?
        var columns: Int?
        var columnWidth: Int?
        var spacing: Int?
        var columnSpacing: Int?
        var rowSpacing: Int?
        var inset: Int?
        /// "rtl" or "ltr" (`SectionOverrides.direction`).
        var direction: TextDirection?
        var items: [ManifestItem]?

        init(items: [ManifestItem]) { self.items = items }
    }

    struct ManifestItem: Decodable {
        var path: String
        var title: String?
        var description: String?
        /// Columns the card spans (a feature card), at least 1.
        var span: Int?
    }

    static let fileKeys = ["title", "sections", "items"]
    static let sectionKeys = ["header", "footer", "columns", "columnWidth", "spacing", "columnSpacing", "rowSpacing", "inset", "direction", "items"]
    static let itemKeys = ["path", "title", "description", "span"]

    /// The first key a JSON manifest has that mosaic does not read (a typo would otherwise
    /// be ignored without a word), with where it is and the nearest known key; nil when
    /// every key is known.
    static func unknownKey(in data: Data) -> String? {
        guard let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        func check(_ object: [String: Any], _ known: [String], at place: String) -> String? {
            for key in object.keys.sorted() where !known.contains(key) {
                let hint = NearestName.nearest(key, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
                return "unknown key \"\(key)\"\(place.isEmpty ? "" : " in " + place)\(hint)"
            }
            return nil
        }
        func checkItems(_ items: Any?, at place: String) -> String? {
            for (i, item) in ((items as? [Any]) ?? []).enumerated() {
                if let item = item as? [String: Any], let problem = check(item, itemKeys, at: "\(place)items[\(i)]") { return problem }
            }
            return nil
        }
        if let problem = check(file, fileKeys, at: "") { return problem }
        if let problem = checkItems(file["items"], at: "") { return problem }
        for (i, section) in ((file["sections"] as? [Any]) ?? []).enumerated() {
            guard let section = section as? [String: Any] else { continue }
            if let problem = check(section, sectionKeys, at: "sections[\(i)]") { return problem }
            if let problem = checkItems(section["items"], at: "sections[\(i)].") { return problem }
        }
        return nil
    }

    /// The first setting whose value is a number but not a whole one an Int holds
    /// ("sections[0].columns must be a whole number, at least 1; got 1e400"), or a number
    /// no Double holds; nil when there is none.
    static func wrongNumber(in data: Data) -> String? {
        let whole = ["columns", "columnWidth", "spacing", "columnSpacing", "rowSpacing", "inset", "span"]
        guard let found = JSONNumbers.firstUnfitting(in: [UInt8](data), isWhole: whole.contains) else { return nil }
        guard whole.contains(found.key) else { return "\(found.path): \(found.literal) is no number mosaic can hold" }
        let least = ["columns", "columnWidth", "span"].contains(found.key) ? 1 : 0
        return "\(found.path) must be a whole number, at least \(least); got \(found.literal)"
    }

    static func describe(_ error: DecodingError) -> String {
        func where_(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "" : " at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
        }
        switch error {
        case .dataCorrupted(let context):
            // With a place, the JSON was read and the value there is wrong: a number that is
            // no whole number, or out of range ("columns": 2.5).
            if context.codingPath.last?.stringValue == "direction" { return "wrong value\(where_(context)): \"ltr\", \"rtl\" or \"auto\" is needed" }
            if !context.codingPath.isEmpty { return "wrong value\(where_(context)): a whole number is needed (\(context.debugDescription))" }
            return "not valid JSON: \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\"\(where_(context))"
        case .typeMismatch(_, let context): return "wrong type\(where_(context)): \(context.debugDescription)"
        case .valueNotFound(_, let context): return "missing value\(where_(context))"
        @unknown default: return "\(error)"
        }
    }

    static let csvColumns = ["path", "title", "description", "section", "span"]

    static func parseCSV(_ text: String, path: String) throws(CatalogError) -> ManifestFile {
        let rows: [[String]]
        switch csvRows(text) {
        case .success(let parsed): rows = parsed
        case .failure(let line): throw .manifest(path: path, message: "line \(line.line): a quoted field is never closed")
        }
        guard let header = rows.first else { throw .manifest(path: path, message: "it is empty") }
        let columns = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let pathColumn = columns.firstIndex(of: "path") else {
            throw .manifest(path: path, message: "the header row has no \"path\" column (it has: \(columns.joined(separator: ", ")))")
        }
        for column in columns where !column.isEmpty && !csvColumns.contains(column) {
            let hint = NearestName.nearest(column, among: csvColumns).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw .manifest(path: path, message: "unknown column \"\(column)\"\(hint); the columns are \(csvColumns.joined(separator: ", "))")
        }
        let titleColumn = columns.firstIndex(of: "title")
        let descriptionColumn = columns.firstIndex(of: "description")
        let sectionColumn = columns.firstIndex(of: "section")
        let spanColumn = columns.firstIndex(of: "span")
        var sections: [ManifestSection] = []
        var sectionIndex: [String: Int] = [:]
        for (number, row) in rows.dropFirst().enumerated() {
            if row.allSatisfy(isBlank) { continue }
            func field(_ column: Int?) -> String? {
                guard let column, column < row.count else { return nil }
                let value = row[column]
                return value.isEmpty ? nil : value
            }
            guard let file = field(pathColumn) else {
                throw .manifest(path: path, message: "row \(number + 2) has no path")
            }
            let name = field(sectionColumn) ?? ""
            var span: Int?
            if let text = field(spanColumn) {
                guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                    throw .manifest(path: path, message: "row \(number + 2): span \"\(text)\" is not a whole number")
                }
                span = value
            }
            let item = ManifestItem(path: file, title: field(titleColumn), description: field(descriptionColumn), span: span)
            if let index = sectionIndex[name] {
                sections[index].items?.append(item)
            } else {
                sectionIndex[name] = sections.count
                var section = ManifestSection(items: [item])
                section.header = name.isEmpty ? nil : name
                sections.append(section)
            }
        }
        return ManifestFile(title: nil, sections: sections, items: nil)
    }

    /// True when `field` holds only spaces and tabs (`CharacterSet.whitespaces`: tab and
    /// the space separators), without Foundation's trimming, which cost more than the
    /// rest of reading a row.
    static func isBlank(_ field: String) -> Bool {
        field.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Where a quoted CSV field that never closes opened.
    struct UnterminatedQuote: Error {
        var line: Int
    }

    /// RFC 4180 rows: commas, double quotes (with "" inside), CRLF or LF. A quote that
    /// never closes is an error naming the line it opened on.
    ///
    /// Read a byte at a time (every delimiter is ASCII, so a field's bytes are whole UTF-8):
    /// a 100,000-row manifest parsed a `Character` at a time cost more than probing its files.
    static func csvRows(_ text: String) -> Result<[[String]], UnterminatedQuote> {
        var text = text
        return text.withUTF8 { csvRows(bytes: $0) }
    }

    private static func csvRows(bytes: UnsafeBufferPointer<UInt8>) -> Result<[[String]], UnterminatedQuote> {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(0x0A), cr = UInt8(0x0D)
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        field.reserveCapacity(256)
        var quoted = false
        var line = 1
        var quoteLine = 0
        var i = 0
        let count = bytes.count
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while i < count {
            let c = bytes[i]
            if quoted {
                if c == quote {
                    if i + 1 < count, bytes[i + 1] == quote {
                        field.append(quote)
                        i += 2
                    } else {
                        quoted = false
                        i += 1
                    }
                    continue
                }
                if c == lf || c == cr {
                    line += 1
                    if c == cr, i + 1 < count, bytes[i + 1] == lf {
                        field.append(cr)
                        i += 1
                    }
                }
                field.append(bytes[i])
                i += 1
            } else if c == quote && field.isEmpty {
                quoted = true
                quoteLine = line
                i += 1
            } else if c == comma {
                endField()
                i += 1
            } else if c == lf || c == cr {
                endField()
                rows.append(row)
                row = []
                line += 1
                i += (c == cr && i + 1 < count && bytes[i + 1] == lf) ? 2 : 1
            } else {
                // A run of plain bytes at once (a quote inside a field is plain).
                var end = i + 1
                while end < count {
                    let next = bytes[end]
                    if next == comma || next == lf || next == cr || next == quote { break }
                    end += 1
                }
                field.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                i = end
            }
        }
        if quoted { return .failure(UnterminatedQuote(line: quoteLine)) }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append(row)
        }
        return .success(rows)
    }
}
