/// How `--group-by` gathers a catalog's images into sections.
public enum Grouping: String, Sendable, CaseIterable, Codable {
    /// One section per day taken ("2024-03-14").
    case day
    /// One section per month ("March 2024").
    case month
    /// One section per year ("2024").
    case year
    /// One section per camera, make and model ("Canon EOS R5"; "Unknown camera").
    case camera

    /// True for the groupings by date (the probe must read capture dates).
    public var isByDate: Bool { self != .camera }

    /// The header format of a date grouping when none is given: ISO days, English months.
    public var defaultFormat: DateFormat? {
        switch self {
        case .day: return try? DateFormat("%Y-%m-%d")
        case .month: return try? DateFormat("%B %Y")
        case .year: return try? DateFormat("%Y")
        case .camera: return nil
        }
    }

    /// The header of the images without a capture date, the last section.
    public static let undated = "Undated"
    /// The header of the images without a camera's make or model, the last section.
    public static let unknownCamera = "Unknown camera"

    /// The first moment of the period of `date` this grouping puts it in (its key).
    func period(of date: CaptureDate) -> CaptureDate? {
        switch self {
        case .day: return CaptureDate(year: date.year, month: date.month, day: date.day)
        case .month: return CaptureDate(year: date.year, month: date.month, day: 1)
        case .year: return CaptureDate(year: date.year, month: 1, day: 1)
        case .camera: return nil
        }
    }
}

extension Catalog {
    /// The same images regrouped: one section per day, month, year or camera, headed by
    /// it (a date in `format`, else the grouping's default), in date order (newest first
    /// with `reverse`; cameras by name); the images without a date (or camera) in one last
    /// section ("Undated", "Unknown camera"). Within a group, the images are in `order`
    /// (`reverse`d), whichever section they came from. The entries must have been probed
    /// with the capture facts read (`ImageDecoder.readsCaptureDate`, `readsCamera`).
    ///
    /// Sections' own headers, footers, settings and spans are dropped: a manifest, which
    /// has its own, is not regrouped by the CLI.
    public func grouped(by grouping: Grouping, format: DateFormat? = nil, order: FileOrder = .natural, reverse: Bool = false) -> Catalog {
        var all = CatalogEntries()
        var problems: [CardProblem] = []
        for section in sections {
            all.append(contentsOf: section.entries)
            problems += section.summarizedProblems
        }
        Self.sortEntries(&all, by: order, reverse: reverse)
        let format = format ?? grouping.defaultFormat
        // Each group's key and header, and its members' indices in order.
        var dated: [Int64: (header: String, members: [Int])] = [:]
        var named: [String: [Int]] = [:]
        var rest: [Int] = []
        for (i, entry) in all.enumerated() {
            if grouping == .camera {
                if let camera = entry.info?.camera { named[camera, default: []].append(i) } else { rest.append(i) }
            } else if let date = entry.info?.captured, let period = grouping.period(of: date) {
                dated[period.packed, default: (format?.string(from: period) ?? "", [])].members.append(i)
            } else {
                rest.append(i)
            }
        }
        var groups: [(header: String, members: [Int])] = []
        if grouping == .camera {
            let names = named.keys.sorted(by: naturalLess)
            groups = (reverse ? names.reversed() : names).map { ($0, named[$0] ?? []) }
        } else {
            let keys = dated.keys.sorted()
            groups = (reverse ? keys.reversed() : keys).compactMap { dated[$0] }
        }
        if !rest.isEmpty { groups.append((grouping == .camera ? Grouping.unknownCamera : Grouping.undated, rest)) }
        var regrouped = self
        regrouped.sections = groups.map { group in
            CatalogSection(header: group.header, entries: all.picking(group.members))
        }
        // Inputs a failure-summary card stood for are named with the last section.
        if !problems.isEmpty, !regrouped.sections.isEmpty { regrouped.sections[regrouped.sections.count - 1].summarizedProblems = problems }
        return regrouped
    }
}
