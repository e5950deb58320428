import Foundation
import Mosaic
import Testing

/// Each layout declares its own settings; the command line checks a given setting against
/// the layout chosen, by the registry, never falling back silently.
@Suite struct LayoutSettingsTests {
    /// `--crop` used to be ignored without a word on a masonry board.
    @Test func aSettingOfAnotherLayoutIsAUsageError() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["layout", CLI.sampleImages, "--crop"], in: dir)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--crop is a setting of the grid layout, not of masonry"))
    }

    @Test func aValueOutOfTheSettingsRangeNamesTheFlag() throws {
        let result = try CLI.run(["layout", CLI.sampleImages, "--layout", "grid", "--cell-aspect", "100"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--cell-aspect 100.0 is not a number between 0.015625 and 64.0"))
    }

    @Test func theRegistryDeclaresEachLayoutsSettings() throws {
        #expect(SheetLayout.named("grid")?.settings.map(\.name) == ["cellAspect", "crop"])
        #expect(SheetLayout.named("masonry")?.settings.isEmpty == true)
        let grid = try #require(SheetLayout.named("grid"))
        #expect(try grid.with(["cellAspect": .number(1.5), "crop": .flag(true)]) == .grid(cellAspect: 1.5, crop: true))
        #expect(throws: SheetError.option(name: "rowHeight", message: "is not a setting of any layout")) {
            try grid.with(["rowHeight": .integer(3)])
        }
    }
}
