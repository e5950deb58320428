import CMosaicShims

/// The CRC-32 of zlib and gzip (ISA-L's), for records that say what a file held.
public enum CRC32 {
    /// The checksum of `bytes`, or of what came before (whose checksum is `crc`) and them.
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        mosaic_crc32(crc, bytes.baseAddress, bytes.count)
    }

    /// `value` as eight lowercase hexadecimal digits.
    public static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
