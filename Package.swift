// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mosaic",
    products: [
        .library(name: "MosaicLayout", targets: ["MosaicLayout"]),
    ],
    targets: [
        // The pure masonry engine: standard library only (no Foundation, no C).
        .target(name: "MosaicLayout"),
        .testTarget(name: "MosaicLayoutTests", dependencies: ["MosaicLayout"]),
    ],
    swiftLanguageModes: [.v6]
)
