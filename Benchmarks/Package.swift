// swift-tools-version:6.0
// Benchmarks live apart from the package so that `swift test` never builds or runs them.
// Run: swift run -c release --package-path Benchmarks LayoutBenchmark (or ImageBenchmark)
import PackageDescription

let package = Package(
    name: "mosaic-benchmarks",
    dependencies: [.package(name: "mosaic", path: "..")],
    targets: [
        .executableTarget(
            name: "LayoutBenchmark",
            dependencies: [.product(name: "MosaicLayout", package: "mosaic")]),
        .executableTarget(
            name: "ImageBenchmark",
            dependencies: [.product(name: "MosaicImage", package: "mosaic"), .product(name: "MosaicLayout", package: "mosaic")]),
        .executableTarget(
            name: "DiffBenchmark",
            dependencies: [.product(name: "Mosaic", package: "mosaic")]),
        .executableTarget(
            name: "TextBenchmark",
            dependencies: [.product(name: "Mosaic", package: "mosaic")]),
    ],
    swiftLanguageModes: [.v6]
)
