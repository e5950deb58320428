import ArgumentParser
import Foundation
import Mosaic

/// An error for the user: "error: <message>", exit 1 (usage errors exit 64 through
/// ArgumentParser).
struct Failure: Error, CustomStringConvertible {
    var description: String
}
