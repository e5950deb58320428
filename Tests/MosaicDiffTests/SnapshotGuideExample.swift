// The snapshot examples of docs/guide/review.md, compiled and run as tests of this target
// (their reference is __Snapshots__/square.png); DocExampleTests checks that the guide
// shows exactly the code between the markers.
// DOC-BEGIN
import MosaicSnapshotTesting
import Testing

@Test func badgeLooksRight() throws {
    // What the code under test draws: here, a red square on white.
    var bitmap = Bitmap(width: 40, height: 30, fill: .white)
    for y in 8..<20 {
        for x in 10..<26 { bitmap[x, y] = RGBA(red: 200, green: 30, blue: 30) }
    }
    try assertSnapshot(of: bitmap, named: "square", tolerance: DiffTolerance(maximumFraction: 0.005))
}
// DOC-END

@Test func badgeLooksRightBySSIM() throws {
    var bitmap = Bitmap(width: 40, height: 30, fill: .white)
    for y in 8..<20 {
        for x in 10..<26 { bitmap[x, y] = RGBA(red: 200, green: 30, blue: 30) }
    }
    // DOC-BEGIN
    try assertSnapshot(
        of: bitmap, named: "square", options: ComparisonOptions(metric: .ssim),
        tolerance: DiffTolerance(minimumSSIM: 0.98))
    // DOC-END
}
