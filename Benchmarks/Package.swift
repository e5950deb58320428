// swift-tools-version:6.2
// Benchmarks live apart from the package so that `swift test` never builds or runs them.
// Run: swift run -c release --package-path Benchmarks LayoutBenchmark (or ImageBenchmark)
import PackageDescription

let warnings: [SwiftSetting] =
    Context.environment["MOSAIC_WARNINGS_AS_ERRORS"] != nil ? [.treatAllWarnings(as: .error)] : []

let package = Package(
    name: "mosaic-benchmarks",
    dependencies: [.package(name: "mosaic", path: "..")],
    targets: [
        .executableTarget(
            name: "LayoutBenchmark",
            dependencies: [.product(name: "MosaicLayout", package: "mosaic")], swiftSettings: warnings),
        .executableTarget(
            name: "ImageBenchmark",
            dependencies: [.product(name: "MosaicImage", package: "mosaic"), .product(name: "MosaicLayout", package: "mosaic")], swiftSettings: warnings),
        .executableTarget(
            name: "DiffBenchmark",
            dependencies: [.product(name: "Mosaic", package: "mosaic")], swiftSettings: warnings),
        .executableTarget(
            name: "TextBenchmark",
            dependencies: [.product(name: "Mosaic", package: "mosaic")], swiftSettings: warnings),
    ],
    swiftLanguageModes: [.v6]
)
