import ArgumentParser
import Mosaic

/// A length option's value: pixels (`12`), or on a PDF's paper points (`8pt`) or
/// millimetres (`10mm`).
struct LengthArgument: ExpressibleByArgument, Sendable {
    let length: Length

    init?(argument: String) {
        guard let length = Length(parsing: argument) else { return nil }
        self.length = length
    }

    /// "--name must not be negative" for the first negative length; for an option of whole
    /// pixels, "--name takes whole pixels" for a bare fraction.
    static func check(_ pairs: [(LengthSetting, LengthArgument?)]) throws {
        for case let (setting, argument?) in pairs {
            if argument.length.value < 0 { throw ValidationError("\(setting.flag) must not be negative, got \(argument.length)") }
            if setting.isWholePixels, case .pixels(let value) = argument.length, value != value.rounded() {
                throw ValidationError("\(setting.flag) takes whole pixels (or, for a PDF, 2.5mm or 7pt), got \(argument.length)")
            }
        }
    }

    /// Gives each length given to `options`.
    static func apply(_ pairs: [(LengthSetting, LengthArgument?)], to options: inout SheetOptions) {
        for case let (setting, argument?) in pairs { options.set(setting, argument.length) }
    }
}
