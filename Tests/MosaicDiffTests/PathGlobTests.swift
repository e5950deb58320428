import MosaicDiff
import Testing

/// The per-path rules' globs: `*` within a folder, `**` across folders, `?`, sets.
@Suite struct PathGlobTests {
    @Test(arguments: [
        ("*.png", "a.png", true), ("*.png", "ui/a.png", false), ("ui/*.png", "ui/a.png", true), ("ui/*.png", "ui/x/a.png", false),
        ("**/*.png", "a.png", true), ("**/*.png", "ui/x/a.png", true), ("ui/**", "ui/x/a.png", true), ("ui/**", "uix/a.png", false),
        ("ui/**/a.png", "ui/a.png", true), ("ui/**/a.png", "ui/p/q/a.png", true), ("ui/**/a.png", "ui/p/qa.png", false),
        ("page-?.png", "page-1.png", true), ("page-?.png", "page-10.png", false), ("page-[0-4].png", "page-3.png", true),
        ("page-[0-4].png", "page-7.png", false), ("page-[!0-4].png", "page-7.png", true), ("a\\*.png", "a*.png", true),
        ("a\\*.png", "ab.png", false), ("café/*", "café/x.png", true), ("[.png", "[.png", true), ("a**b", "axxb", true), ("a**b", "a/b", false),
    ])
    func matches(_ glob: String, _ path: String, _ expected: Bool) {
        #expect(PathGlob(glob).matches(path) == expected, "\(glob) on \(path)")
    }
}
