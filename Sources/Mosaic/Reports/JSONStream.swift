import Foundation

/// JSON written as it is made, into a file descriptor (through a 1 MiB buffer) or into
/// memory: an image map of a million cards never exists whole. Only what the maps need:
/// objects and arrays are the caller's punctuation; strings are escaped as JSON requires
/// (quotes, backslashes, control characters), slashes and non-ASCII written as they are.
public final class JSONStream {
    let descriptor: Int32?
    /// For messages: where the stream goes.
    let name: String
    var buffer: [UInt8] = []
    /// Everything written, when the stream is in memory.
    public private(set) var data = Data()

    /// A stream into `descriptor` (not closed by the stream), named `name` in errors.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(1 << 20)
    }

    /// A stream into memory (`data`).
    public init() {
        descriptor = nil
        name = "memory"
    }

    /// Raw text: punctuation, keys written by hand, numbers.
    @inline(__always)
    public func write(_ text: StaticString) throws(OutputError) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// An integer.
    public func write(_ value: Int) throws(OutputError) {
        // Digits straight into the buffer: an image map writes a dozen numbers a card, and
        // a `String` for each was a tenth of a 100,000-card layout.
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Bytes as they are (a document made elsewhere).
    public func write(data: Data) throws(OutputError) {
        buffer.append(contentsOf: data)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// A JSON string. A file name's bytes that are not UTF-8 are written as U+FFFD
    /// (`FileNames.display`): the exact bytes go in a field of their own (`ReportedName`).
    public func write(string: String) throws(OutputError) {
        var text = FileNames.isValidUTF8(string) ? string : FileNames.display(string)
        buffer.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape go in at once.
        text.withUTF8 { bytes in
            var start = 0
            for i in bytes.indices {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < i { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i])) }
                appendEscaped(byte)
                start = i + 1
            }
            if start < bytes.count { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        buffer.append(UInt8(ascii: "\""))
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// The escape JSON requires for `byte` (a quote, a backslash or a control character).
    private func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): buffer.append(contentsOf: [92, 34])
        case UInt8(ascii: "\\"): buffer.append(contentsOf: [92, 92])
        case 0x0A: buffer.append(contentsOf: [92, UInt8(ascii: "n")])
        case 0x0D: buffer.append(contentsOf: [92, UInt8(ascii: "r")])
        case 0x09: buffer.append(contentsOf: [92, UInt8(ascii: "t")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            buffer.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
        }
    }

    /// A rectangle as `Rect` encodes itself: origin x, y and size height, width.
    public func write(rect: Rect) throws(OutputError) {
        try write("{\"origin\":{\"x\":")
        try write(rect.minX)
        try write(",\"y\":")
        try write(rect.minY)
        try write("},\"size\":{\"height\":")
        try write(rect.height)
        try write(",\"width\":")
        try write(rect.width)
        try write("}}")
    }

    /// Writes out the buffer.
    ///
    /// - Throws: `OutputError.write(.streamFailed)` with the system's reason.
    public func flush() throws(OutputError) {
        guard let descriptor else {
            data.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        let failure = buffer.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw .write(.streamFailed(name: name, reason: failure)) }
    }

    /// Writes all of `bytes` to `descriptor` (again after an interrupted call); the
    /// system's message when it fails, nil when every byte went.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> String? {
        var done = 0
        while done < bytes.count, let base = bytes.baseAddress {
            let wrote = Glibc.write(descriptor, base + done, bytes.count - done)
            if wrote < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            done += wrote
        }
        return nil
    }
}
