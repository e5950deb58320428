/// The web templates of `Reports/Templates/` (the viewer's page...), kept there as files a
/// web developer can open and lint, and embedded here at build time by the EmbedTemplates
/// plugin (`scripts/embed-template.sh` writes one `static let` per file: `viewer.html` is
/// `viewerHTML`), so that the binary needs no resource bundle beside it.
enum EmbeddedTemplates {}
