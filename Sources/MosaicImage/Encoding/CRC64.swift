import CMosaicShims

/// The CRC-64 of xz (ECMA-182's polynomial, reflected; ISA-L's), for what must tell a
/// file's bytes from others' more surely than a CRC-32: the bytes a comparison read.
public enum CRC64 {
    /// The checksum of `bytes`, or of what came before (whose checksum is `crc`) and them.
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt64 = 0) -> UInt64 {
        mosaic_crc64(crc, bytes.baseAddress, bytes.count)
    }

    /// `value` as sixteen lowercase hexadecimal digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
