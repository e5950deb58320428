/// One file to decode: its bytes, what its headers said, and how.
public struct DecodeInput: Sendable {
    public var bytes: [UInt8]
    public var info: ImageInfo
    public var request: DecodeRequest

    public init(bytes: [UInt8], info: ImageInfo, request: DecodeRequest) {
        self.bytes = bytes
        self.info = info
        self.request = request
    }
}
