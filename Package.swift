// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mosaic",
    products: [
        .library(name: "MosaicLayout", targets: ["MosaicLayout"]),
        // The image layer on its own (decode, resample, PNG writer), without fonts.
        .library(name: "MosaicImage", targets: ["MosaicImage"]),
        .library(name: "Mosaic", targets: ["Mosaic"]),
        .library(name: "MosaicSnapshotTesting", targets: ["MosaicSnapshotTesting"]),
        .executable(name: "mosaic", targets: ["MosaicCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The pure masonry engine: standard library only (no Foundation, no C).
        .target(name: "MosaicLayout"),

        // The C libraries, found through pkg-config.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // The only C code: setjmp fences around libjpeg and libpng, and the EXIF reader.
        .target(name: "CMosaicShims", dependencies: ["CPNG", "CJPEG", "CExif"]),

        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig1-dev"])]),

        .target(name: "MosaicImage", dependencies: ["CMosaicShims", "MosaicLayout"]),
        .target(name: "MosaicText", dependencies: ["CFreeType", "CFontconfig", "MosaicLayout"]),
        .target(name: "MosaicDiff", dependencies: ["MosaicImage", "MosaicLayout"]),
        .target(name: "Mosaic", dependencies: ["MosaicLayout", "MosaicImage", "MosaicText", "MosaicDiff"]),
        // For tests: assert that a bitmap matches a reference PNG (no XCTest import).
        .target(name: "MosaicSnapshotTesting", dependencies: ["MosaicDiff", "MosaicImage"]),
        .executableTarget(
            name: "MosaicCLI",
            dependencies: ["Mosaic", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        .testTarget(name: "MosaicLayoutTests", dependencies: ["MosaicLayout"]),
        .testTarget(name: "MosaicImageTests", dependencies: ["MosaicImage", "MosaicLayout", "CMosaicShims"]),
        .testTarget(name: "MosaicTextTests", dependencies: ["MosaicText"], exclude: ["__Snapshots__"]),
        .testTarget(name: "MosaicTests", dependencies: ["Mosaic", "MosaicSnapshotTesting"], exclude: ["__Snapshots__"]),
        .testTarget(name: "MosaicDiffTests", dependencies: ["MosaicDiff", "MosaicLayout", "MosaicSnapshotTesting"], exclude: ["Fixtures", "__Snapshots__", "make_reference_counts.py"]),
        .testTarget(name: "MosaicCLITests", dependencies: ["MosaicCLI", "Mosaic"]),
    ],
    swiftLanguageModes: [.v6]
)
