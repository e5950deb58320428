/// A measurer for boards without captions: every caption is zero pixels tall.
public struct NoText: TextMeasuring, Sendable {
    public init() {}
    public func height(of caption: Caption, width: Int) -> Int { 0 }
    public func reservedHeight(of caption: Caption) -> Int { 0 }
}
