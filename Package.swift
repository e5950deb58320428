// swift-tools-version:6.2
import PackageDescription

// mosaic is licensed under the Apache License 2.0: see LICENSE.

// CI (and anyone who sets MOSAIC_WARNINGS_AS_ERRORS) builds the package's own targets with
// warnings as errors; dependencies keep their warnings to themselves.
let warnings: [SwiftSetting] =
    Context.environment["MOSAIC_WARNINGS_AS_ERRORS"] != nil ? [.treatAllWarnings(as: .error)] : []

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
        // Geometry and the layouts: standard library only (no Foundation, no C).
        .target(name: "MosaicLayout", swiftSettings: warnings),

        // The C libraries, found through pkg-config.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // The only C code: setjmp fences around libjpeg and libpng, the calls into the other
        // codecs' libraries and Little CMS, the EXIF reader, and the hot loops in C.
        .target(
            name: "CMosaicShims", dependencies: ["CPNG", "CJPEG", "CExif", "CZlib", "CISAL", "CWebP", "CGIF", "CHEIF", "CTIFF", "CLCMS", "CICU", "CRaw", "CAV", "CJXL", "CHarfBuzz"],
            // giflib has no pkg-config file, so its module map's link does not reach C; libwebpmux
            // (the WebP sheet encoder's XMP chunk) comes with libwebp-dev, outside libwebpdemux's;
            // CRaw and CJXL have no pkg-config flags either (see them below); HarfBuzz's subsetter
            // (the PDF's embedded fonts, font_subset.c) is a library of its own beside CHarfBuzz's.
            linkerSettings: [
                .linkedLibrary("gif"), .linkedLibrary("webpmux"), .linkedLibrary("raw_r"), .linkedLibrary("jxl"), .linkedLibrary("jxl_threads"),
                .linkedLibrary("harfbuzz-subset"),
            ]),

        // giflib ships no pkg-config file (CMosaicShims links it).
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // Camera RAW files: LibRaw's thread-safe library (libraw_r). Not through pkg-config:
        // its flags carry -fopenmp, which SwiftPM refuses; the header is <libraw/libraw.h>.
        .systemLibrary(name: "CRaw", providers: [.apt(["libraw-dev"])]),
        // JPEG XL: libjxl 0.7 (Debian 12) and its thread runner (the encoder's), linked by name:
        // libjxl's pkg-config flags carry -DHWY_SHARED_DEFINE, which SwiftPM refuses (and
        // only its Highway headers, which mosaic does not include, read).
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // ISA-L's igzip: the PNG writer's deflate at levels 1 to 3.
        .systemLibrary(name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig1-dev"])]),
        // Text: shaping (HarfBuzz on FreeType faces), the bidirectional algorithm (FriBidi)
        // and line breaking (ICU, called from CMosaicShims: its C names are versioned).
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
        // FFmpeg's headers (video): no pkg-config and no link, since video.c loads the
        // libraries on first use (dlopen), so a run without videos never maps them.
        .systemLibrary(
            name: "CAV", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),

        // The one lock type, over a pthread mutex (ThreadSanitizer sees it).
        .target(name: "MosaicSync", swiftSettings: warnings),
        .target(name: "MosaicImage", dependencies: ["CMosaicShims", "MosaicLayout", "MosaicSync"], swiftSettings: warnings),
        .target(name: "MosaicText", dependencies: ["CFreeType", "CFontconfig", "CHarfBuzz", "CFriBidi", "CMosaicShims", "MosaicLayout", "MosaicSync"], swiftSettings: warnings),
        .target(name: "MosaicDiff", dependencies: ["CMosaicShims", "MosaicImage", "MosaicLayout", "MosaicSync"], swiftSettings: warnings),
        .target(
            name: "Mosaic", dependencies: ["MosaicLayout", "MosaicImage", "MosaicText", "MosaicDiff", "MosaicSync"],
            // The web templates (HTML, JavaScript, CSS) are files there, compiled in as strings
            // by EmbedTemplates (EmbeddedTemplates.viewerHTML...), not shipped as resources.
            exclude: ["Reports/Templates"], swiftSettings: warnings, plugins: ["EmbedTemplates"]),
        // For tests: assert that a bitmap matches a reference PNG (no XCTest import).
        .target(name: "MosaicSnapshotTesting", dependencies: ["MosaicDiff", "MosaicImage"], swiftSettings: warnings),
        .executableTarget(
            name: "MosaicCLI",
            dependencies: ["Mosaic", "MosaicSync", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: warnings,
            // `mosaic --version` names the git commit it was built from (BuildCommit.hash).
            plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        .plugin(name: "EmbedTemplates", capability: .buildTool()),

        // Test support, in no product: files in the formats mosaic reads, written through the
        // same libraries (C), and the check that a README example is the code a test runs.
        .target(
            name: "CMosaicFixtures", dependencies: ["CMosaicShims", "CGIF", "CTIFF", "CHEIF", "CWebP", "CLCMS", "CAV", "CJXL"],
            // The video fixtures link FFmpeg's encoders and muxers (the library loads
            // FFmpeg on first use instead).
            path: "Tests/CMosaicFixtures",
            linkerSettings: [.linkedLibrary("gif"), .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil")]),
        .target(name: "MosaicTestSupport", path: "Tests/MosaicTestSupport", swiftSettings: warnings),

        .testTarget(name: "MosaicLayoutTests", dependencies: ["MosaicLayout", "MosaicTestSupport"], swiftSettings: warnings),
        .testTarget(name: "MosaicImageTests", dependencies: ["MosaicImage", "MosaicLayout", "CMosaicShims", "CMosaicFixtures"], exclude: ["Fixtures"], swiftSettings: warnings),
        .testTarget(name: "MosaicTextTests", dependencies: ["MosaicText", "MosaicSync", "MosaicSnapshotTesting", "MosaicTestSupport"], exclude: ["__Snapshots__", "Fixtures", "make_pango_references.py"], swiftSettings: warnings),
        .testTarget(name: "MosaicTests", dependencies: ["Mosaic", "MosaicSync", "MosaicSnapshotTesting", "MosaicTestSupport", "CMosaicFixtures"], exclude: ["__Snapshots__"], swiftSettings: warnings),
        .testTarget(name: "MosaicDiffTests", dependencies: ["MosaicDiff", "MosaicLayout", "MosaicSnapshotTesting"], exclude: ["Fixtures", "__Snapshots__", "make_reference_counts.py", "make_ssim_references.py", "make_flip_references.py"], swiftSettings: warnings),
        .testTarget(name: "MosaicCLITests", dependencies: ["MosaicCLI", "Mosaic", "MosaicSnapshotTesting", "MosaicTestSupport", "CMosaicFixtures"], exclude: ["__Snapshots__"], swiftSettings: warnings),
    ],
    swiftLanguageModes: [.v6]
)
