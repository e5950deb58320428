import ArgumentParser
import Foundation
import Mosaic

/// `--order`: the layout's item orders, by their short names.
enum OrderArgument: String, ExpressibleByArgument, CaseIterable {
    case shortest, ltr, rtl

    var itemOrder: ItemOrder {
        switch self {
        case .shortest: return .shortestFirst
        case .ltr: return .leftToRight
        case .rtl: return .rightToLeft
        }
    }
}
