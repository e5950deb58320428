import ArgumentParser
import Mosaic

#if canImport(Glibc)
import Glibc
#endif

@main
struct MosaicCommand: ParsableCommand {
    /// An interrupted run removes its temporary files; the previous outputs stay as they were.
    static func main() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM] {
            Glibc.signal(signal) { number in
                TemporaryFiles.removeAll()
                _exit(128 + number)
            }
            sigaddset(&signals, signal)
        }
        // A parent may have blocked them (and a blocked mask is inherited): unblock.
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "mosaic",
        abstract: "Masonry contact sheets of photos, as PNG.",
        subcommands: [RenderCommand.self, LayoutCommand.self, DiffCommand.self, ProbeCommand.self])
}
