import Foundation
import Testing

@testable import Mosaic
import MosaicSync

@Suite struct DecodeBudgetTests {
    /// Two large decodes do not run at once; one larger than the budget runs alone.
    @Test func largeDecodesWaitForEachOther() throws {
        let budget = DecodeBudget(bytes: 100)
        budget.reserve(70)
        let second = NSCondition()
        nonisolated(unsafe) var secondGotIt = false
        let thread = Thread {
            budget.reserve(70)
            second.lock()
            secondGotIt = true
            second.broadcast()
            second.unlock()
            budget.release(70)
        }
        thread.start()
        usleep(100_000)
        second.lock()
        #expect(!secondGotIt)  // 70 + 70 > 100: it waits
        second.unlock()
        budget.release(70)
        second.lock()
        let deadline = Date().addingTimeInterval(10)
        while !secondGotIt && Date() < deadline { _ = second.wait(until: deadline) }
        #expect(secondGotIt)
        second.unlock()
        // Larger than the whole budget: still runs (alone).
        budget.reserve(1_000)
        budget.release(1_000)
    }

    @Test func decodedBytesFollowTheDCTScale() {
        let jpeg = ImageInfo(format: .jpeg, width: 4032, height: 3024, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: "ycbcr")
        #expect(ImageDecoder().decodedBytes(jpeg, minimumSize: Size(width: 260, height: 195)) == 504 * 378 * 4)
        let png = ImageInfo(format: .png, width: 2000, height: 1500, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: "rgb")
        // Blocks that cover the size twice over (`PNGCodec.boxHeadroom`): read 3 rows at a
        // time and averaged 3 x 3, a band and the reduced image.
        #expect(ImageDecoder().decodedBytes(png, minimumSize: Size(width: 260, height: 195)) == 3 * 2000 * 4 + 667 * 500 * 4)
        #expect(ImageDecoder().decodedBytes(png, minimumSize: Size(width: 1500, height: 1000)) == 2000 * 1500 * 4)
    }
}
