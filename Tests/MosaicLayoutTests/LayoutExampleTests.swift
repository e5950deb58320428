import Foundation
import MosaicLayout
import Testing

/// The MosaicLayout example of docs/guide/library.md, compiled and run here;
/// `DocExampleTests` checks that the guide shows exactly this code, so the two cannot
/// drift apart.
@Suite struct LayoutExampleTests {
    static func example() throws -> MasonryLayout {
        // DOC-BEGIN
        import_MosaicLayout()

        /// A stand-in for real text: 7 px per character, 16 px per line.
        struct MonospaceText: TextMeasuring {
            func height(of caption: Caption, width: Int) -> Int {
                let perLine = max(1, width / 7)
                let lines = (caption.title.count + perLine - 1) / perLine
                return lines * 16
            }
            func reservedHeight(of caption: Caption) -> Int { 16 }
        }

        let configuration = BoardConfiguration(
            extent: 1200,  // the sheet's width in pixels
            contentInsets: Insets(all: 24),
            cellPadding: Insets(all: 8),
            captionSpacing: 6,
            sectionStyle: SectionStyle(columns: .count(4), columnSpacing: 12, rowSpacing: 12))
        let photos = [
            LayoutItem(width: 4032, height: 3024, caption: Caption(title: "Harbour at dawn")),
            LayoutItem(width: 3024, height: 4032, caption: Caption(title: "Lighthouse")),
            LayoutItem(width: 1920, height: 1080),
        ]
        var board = try MasonryLayout(
            configuration: configuration, sections: [LayoutSection(items: photos)], measurer: MonospaceText())

        // What a renderer draws for the band of rows 0..<256, in z order.
        for element in board.elements(in: Rect(x: 0, y: 0, width: 1200, height: 256)) {
            print(element.kind, element.frame, element.imageFrame ?? .zero)
        }
        // More photos arrive: O(k), the same frames as laying out all of them again.
        try board.append([LayoutItem(width: 1, height: 1)], measurer: MonospaceText())
        print(board.pageSize())  // Size(width: 1200, height: ...)
        // DOC-END
        return board
    }

    @Test func theExampleRuns() throws {
        let board = try Self.example()
        #expect(board.cardCount == 4)
        // (1200 - 48 - 36) / 4 = 279 across; 8 + 197 (263 * 3024 / 4032) + 6 + 16 + 8 = 235 down.
        #expect(board.element(at: ItemPath(section: 0, item: 0))?.frame == Rect(x: 24, y: 24, width: 279, height: 235))
    }
}

/// Stands for the example's `import MosaicLayout` line inside the test function.
func import_MosaicLayout() {}
