/// What a render has drawn so far: counts, problems and progress.
struct RenderTally {
    let total: Int
    let progress: (@Sendable (RenderProgress) -> Void)?
    var done = 0
    var rendered = 0
    var failures: [CardProblem] = []
    var warnings: [DecodingWarning] = []

    /// Counts a card the first time it is drawn. In strict mode a failed card does not
    /// stop the drawing: the renderer refuses the sheet at the end, naming every failure.
    mutating func drew(_ card: DecodedCard) throws(RenderError) {
        if let failure = card.failure {
            failures.append(failure)
        } else if !card.summarized.isEmpty {
            failures += card.summarized
        } else {
            rendered += 1
        }
        if let warning = card.warning { warnings.append(warning) }
    }

    /// A card is finished (the band has passed it).
    mutating func finished() {
        done += 1
        progress?(RenderProgress(done: done, total: total))
    }
}
