/// The few fields mosaic reads from an XMP packet (RDF/XML, embedded in a file or a `.xmp`
/// sidecar as Lightroom, darktable and digiKam write them): the rating (`xmp:Rating`), the
/// title (`dc:title`) and the description (`dc:description`), as attributes or elements.
///
/// Read by a small scanner of its own, not an XML library: Foundation's XML parser on
/// Linux brings libxml2 and FoundationXML into the binary for three fields. Anything it
/// does not recognise is no value, never an error.
public enum XMPPacket {
    /// The rating, title and description of `packet` (UTF-8); nil fields when absent.
    public static func fields(_ packet: ArraySlice<UInt8>) -> ShootingData {
        let text = String(decoding: packet, as: UTF8.self)
        var data = ShootingData()
        for name in ["xmp:Rating", "xap:Rating"] {
            if let value = value(of: name, in: text), let rating = Int(value.trimmingSpaces), (-1...5).contains(rating) {
                data.rating = rating
                break
            }
        }
        data.title = value(of: "dc:title", in: text).flatMap { $0.isEmpty ? nil : $0 }
        data.description = value(of: "dc:description", in: text).flatMap { $0.isEmpty ? nil : $0 }
        return data
    }

    /// The value of property `name`: an attribute `name="..."`, or an element
    /// `<name>...</name>` whose text, or first `rdf:li` (the `x-default` one when there are
    /// several languages), is the value. Entities decoded.
    static func value(of name: String, in text: String) -> String? {
        // Attribute form: name="value" or name='value', after a space.
        for quote in ["\"", "'"] {
            for space in [" ", "\n", "\t", "\r"] {
                if let range = text.firstRange(of: space + name + "=" + quote) {
                    let rest = text[range.upperBound...]
                    guard let end = rest.firstIndex(of: Character(quote)) else { return nil }
                    return decodeEntities(rest[..<end])
                }
            }
        }
        // Element form: <name ...>value</name> (not <name/>, nor a longer name).
        var from = text.startIndex
        var inner: Substring?
        while let open = text[from...].firstRange(of: "<" + name) {
            from = open.upperBound
            guard open.upperBound < text.endIndex, case let next = text[open.upperBound], next == ">" || next.isWhitespace,
                let tagEnd = text[open.upperBound...].firstIndex(of: ">"), text[text.index(before: tagEnd)] != "/",
                let close = text[tagEnd...].firstRange(of: "</" + name + ">")
            else { continue }
            inner = text[text.index(after: tagEnd)..<close.lowerBound]
            break
        }
        guard let inner else { return nil }
        guard inner.contains("<rdf:li") else { return decodeEntities(inner).trimmingSpaces }
        var items: [(language: String?, text: String)] = []
        var rest = inner
        while let li = rest.firstRange(of: "<rdf:li") {
            guard let tagEnd = rest[li.upperBound...].firstIndex(of: ">") else { break }
            let tag = rest[li.upperBound..<tagEnd]
            let contentStart = rest.index(after: tagEnd)
            guard let liClose = rest[contentStart...].firstRange(of: "</rdf:li>") else { break }
            var language: String?
            if let lang = tag.firstRange(of: "xml:lang=\"") {
                language = tag[lang.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
            }
            items.append((language, decodeEntities(rest[contentStart..<liClose.lowerBound])))
            rest = rest[liClose.upperBound...]
        }
        return (items.first(where: { $0.language == "x-default" }) ?? items.first)?.text
    }

    /// `text` with XML's entities and character references replaced.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init)
                }
                if let scalar { out.unicodeScalars.append(scalar) } else { out += rest[amp...semicolon] }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}

extension StringProtocol {
    /// Without spaces, tabs and line breaks at either end.
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
