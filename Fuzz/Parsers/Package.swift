// swift-tools-version:6.2
// A libFuzzer harness over mosaic's text parsers (manifests, colours, caption modes),
// apart from the package so that `swift test` never builds it. Build and run:
//   bash Fuzz/run-parsers.sh 60
import PackageDescription

let package = Package(
    name: "mosaic-parser-fuzzer",
    dependencies: [.package(name: "mosaic", path: "../..")],
    targets: [
        .executableTarget(
            name: "ParserFuzzer",
            dependencies: [.product(name: "Mosaic", package: "mosaic")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ],
    swiftLanguageModes: [.v6]
)
