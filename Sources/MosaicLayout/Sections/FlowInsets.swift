/// Insets in flow terms: before and after along the flow, before and after across it.
struct FlowInsets: Hashable, Sendable {
    var mainStart: Int
    var mainEnd: Int
    var crossStart: Int
    var crossEnd: Int

    var main: Int { mainStart + mainEnd }
    var cross: Int { crossStart + crossEnd }
}
