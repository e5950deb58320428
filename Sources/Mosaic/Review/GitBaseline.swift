import Foundation
import MosaicSync

/// `mosaic diff BASELINE CURRENT --baseline-ref REF`: BASELINE's images as a commit holds
/// them, read without a checkout through the machine's git (`git ls-tree`, then `git
/// cat-file --batch` processes, one per core, each fed its share of the objects' names as
/// it answers, so the blobs stream through pipes) into a private temporary folder that
/// the comparison reads and that is removed after the run. The names keep their bytes (`ls-tree -z`). A Git LFS
/// pointer is replaced by its object when `git lfs pull` (or `fetch`) brought it into
/// `.git/lfs/objects`, else refused, named. The work tree is never changed by reading;
/// approving writes into it (never into git), and only over a file whose work-tree bytes
/// are the committed ones (`checkWorkTree`).
///
/// REF is anything `git rev-parse` takes as a commit (a branch, a tag, `origin/main`,
/// `HEAD~3`, a hash), or `merge-base:BRANCH` for the commit where HEAD left BRANCH (`git
/// merge-base HEAD BRANCH`).
public final class GitBaseline: @unchecked Sendable {
    /// The ref as given, and the commit it named (40 or 64 hexadecimal digits).
    public let ref: String
    public let commit: String
    /// The copy to compare: a folder (or a file, when BASELINE is one) in `folder`.
    public let path: String
    /// The private folder holding the copy (removed by `remove`).
    public let folder: String
    /// BASELINE as given (where approving writes).
    public let baseline: String
    /// The blobs read from git, the files copied from the work tree (unchanged there),
    /// and the LFS objects taken from `.git/lfs/objects`.
    public private(set) var blobCount = 0
    public private(set) var workTreeCopies = 0
    public private(set) var lfsObjects = 0

    /// Reads BASELINE (a folder or a file of the work tree; it need not exist there) from
    /// `ref`'s commit.
    ///
    /// - Throws: `GitBaselineError` (no git, not a repository, a ref that names no commit,
    ///   with how to fetch it in a shallow clone, nothing at BASELINE in the commit, LFS
    ///   pointers without their objects, git's own failures with its message).
    public init(baseline: String, ref: String) throws(GitBaselineError) {
        self.baseline = baseline
        self.ref = ref
        let git = try Git.find()
        // The work tree: from the nearest folder of BASELINE's path that exists.
        let absolute = baseline.hasPrefix("/") ? baseline : FileManager.default.currentDirectoryPath + "/" + baseline
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        var rest: [String] = []
        while !components.isEmpty && !FileNames.isFolder("/" + components.joined(separator: "/")) { rest.insert(components.removeLast(), at: 0) }
        let anchor = "/" + components.joined(separator: "/")
        let top = try git.run(["rev-parse", "--show-toplevel"], in: anchor, failure: { _ in .notARepository(path: baseline) }).text
        let prefixOutput = try git.run(["rev-parse", "--show-prefix"], in: anchor, failure: { _ in .notARepository(path: baseline) }).text
        let prefixComponents = prefixOutput.split(separator: "/").map(String.init) + rest
        var resolvedRest: [String] = []
        for component in prefixComponents {
            if component == ".." { _ = resolvedRest.popLast() } else { resolvedRest.append(component) }
        }
        let prefix = resolvedRest.joined(separator: "/")
        // The commit.
        commit = try Self.resolve(ref, git: git, in: top)
        // What the commit holds at BASELINE: one file, or the files under it.
        var arguments = ["ls-tree", "-r", "-z", "--full-tree", commit]
        if !prefix.isEmpty { arguments += ["--", ":(literal)" + prefix] }
        let listing = try git.run(arguments, in: top, failure: { .git(command: "git ls-tree", message: $0) }).bytes
        var entries: [Entry] = []
        var isFile = false
        let prefixBytes = FileNames.bytes(of: prefix)
        for record in listing.split(separator: 0, omittingEmptySubsequences: true) {
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = String(decoding: record[record.startIndex..<tab], as: UTF8.self).split(separator: " ")
            let name = Array(record[(tab + 1)...])
            // Files only: a committed link is not followed, a submodule not entered.
            guard fields.count == 3, fields[1] == "blob", fields[0] == "100644" || fields[0] == "100755" else { continue }
            if name == prefixBytes {
                isFile = true
                entries = [Entry(relative: Array(FileNames.bytes(of: (prefix as NSString).lastPathComponent)), object: String(fields[2]), full: name)]
                break
            }
            let relative = prefixBytes.isEmpty ? name : Array(name.dropFirst(prefixBytes.count + 1))
            entries.append(Entry(relative: relative, object: String(fields[2]), full: name))
        }
        guard !entries.isEmpty else { throw .notInCommit(path: baseline, ref: ref, commit: commit) }
        // The private folder: in the repository's git folder, on the work tree's file
        // system (so an unchanged file is linked, not copied) and out of git's sight.
        let gitFolder = try git.run(["rev-parse", "--git-common-dir"], in: top, failure: { .git(command: "git rev-parse", message: $0) }).text
        let common = gitFolder.hasPrefix("/") ? gitFolder : top + "/" + gitFolder
        folder = common + "/mosaic-baseline-\(getpid())-\(UUID().uuidString.prefix(8))"
        guard OutputFolders.makeFolder(folder, mode: 0o700) else {
            throw .cannotWrite(path: folder, reason: String(cString: strerror(errno)))
        }
        TemporaryFiles.register(folder: folder)
        let root = isFile ? folder : folder + "/baseline"
        path = isFile ? folder + "/" + FileNames.string(fromBytes: entries[0].relative) : root
        do throws(GitBaselineError) {
            if !isFile {
                guard OutputFolders.makeFolder(root, mode: 0o700) else { throw GitBaselineError.cannotWrite(path: root, reason: String(cString: strerror(errno))) }
            }
            let lfsFolder = common + "/lfs/objects"
            try write(entries, into: isFile ? folder : root, git: git, top: top, lfsFolder: lfsFolder)
        } catch {
            remove()
            throw error
        }
    }

    /// The commit `ref` names, or the merge base of HEAD and BRANCH for `merge-base:BRANCH`.
    static func resolve(_ ref: String, git: Git, in top: String) throws(GitBaselineError) -> String {
        func missing(_ name: String) throws(GitBaselineError) -> GitBaselineError {
            let shallow = (try? git.run(["rev-parse", "--is-shallow-repository"], in: top, failure: { .git(command: "git rev-parse", message: $0) }).text) == "true"
            return .unknownRef(ref: name, shallow: shallow)
        }
        if ref.hasPrefix("merge-base:") {
            let branch = String(ref.dropFirst("merge-base:".count))
            guard !branch.isEmpty, (try? git.run(["rev-parse", "--verify", "--quiet", "--end-of-options", branch + "^{commit}"], in: top, failure: { .git(command: "", message: $0) })) != nil else {
                throw try missing(branch)
            }
            do {
                return try git.run(["merge-base", "HEAD", "--end-of-options", branch], in: top, failure: { .git(command: "git merge-base", message: $0) }).text
            } catch {
                let shallow = (try? git.run(["rev-parse", "--is-shallow-repository"], in: top, failure: { .git(command: "", message: $0) }).text) == "true"
                throw .noMergeBase(branch: branch, shallow: shallow)
            }
        }
        guard !ref.isEmpty, let commit = try? git.run(["rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"], in: top, failure: { .git(command: "", message: $0) }).text else {
            throw try missing(ref)
        }
        return commit
    }

    /// A file of the commit: its name below BASELINE and in the repository (bytes), and
    /// its blob.
    struct Entry {
        var relative: [UInt8]
        var object: String
        var full: [UInt8]
    }

    /// Places every file of the commit into `root`, each under its relative name's bytes:
    /// a file the work tree holds unchanged (`git diff --name-only COMMIT`, which trusts
    /// the index's stat data and hashes what it cannot) is copied from there (reflinked
    /// where the file system can, else by the kernel); the rest stream through `git cat-file
    /// --batch` (`stream`).
    func write(_ entries: [Entry], into root: String, git: Git, top: String, lfsFolder: String) throws(GitBaselineError) {
        let pathspec = entries.count == 1 && entries[0].relative.count == entries[0].full.count
            ? FileNames.string(fromBytes: entries[0].full) : Self.commonPrefix(entries)
        let changed = try git.run(
            // ctime untrusted: the links this makes change the files' ctime, which would make
            // the next run hash every file again.
            ["-c", "core.trustctime=false", "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", commit, "--", ":(literal)" + pathspec], in: top,
            failure: { .git(command: "git diff", message: $0) }).bytes
        let differing = Set(changed.split(separator: 0, omittingEmptySubsequences: true).map { Array($0) })
        var made: Set<[UInt8]> = []
        var pointers: [String] = []
        var fromGit: [Entry] = []
        for entry in entries {
            let destination = try place(entry.relative, in: root, made: &made)
            guard !differing.contains(entry.full) else {
                fromGit.append(entry)
                continue
            }
            let source = top + "/" + FileNames.string(fromBytes: entry.full)
            // A regular file (never through a link): linked into the private folder, which
            // only the comparison reads (the reports copy from it, the approval writes the
            // work tree by renames); copied where a link cannot be made.
            var status = stat()
            guard FileNames.withSystemPath(source, { lstat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                fromGit.append(entry)
                continue
            }
            let linked = FileNames.withSystemPath(source) { from in FileNames.withSystemPath(destination) { to in link(from, to) } } == 0
            if !linked {
                let copied: FileCopy.Outcome
                do {
                    copied = try FileCopy.copy(source, to: destination)
                } catch {
                    throw .cannotWrite(path: destination, reason: "\(error)")
                }
                guard case .copied = copied else {
                    fromGit.append(entry)
                    continue
                }
            }
            // Without git-lfs's filter the work tree holds the pointer too.
            if status.st_size < 1024, let bytes = FileManager.default.contents(atPath: destination).map({ [UInt8]($0) }), let pointer = LFSPointer(bytes) {
                _ = FileNames.withSystemPath(destination) { unlink($0) }
                if try Self.placeLFS(pointer, at: destination, lfsFolder: lfsFolder) {
                    lfsObjects += 1
                } else {
                    pointers.append(FileNames.string(fromBytes: entry.relative))
                }
            } else {
                workTreeCopies += 1
            }
        }
        if !fromGit.isEmpty {
            let streamed = try Self.stream(fromGit, into: root, git: git, top: top, lfsFolder: lfsFolder)
            blobCount += streamed.blobs
            lfsObjects += streamed.lfsObjects
            pointers += streamed.pointers
        }
        if !pointers.isEmpty { throw .lfsPointers(paths: pointers.sorted(by: FileNames.precedes)) }
    }

    /// The folder (as bytes) every entry lies in: BASELINE's path in the repository.
    static func commonPrefix(_ entries: [Entry]) -> String {
        guard let first = entries.first else { return "" }
        let cut = first.full.count - first.relative.count - 1
        return cut > 0 ? FileNames.string(fromBytes: first.full.prefix(cut)) : "."
    }

    /// Makes the folders of `relative` under `root` (once each); its destination.
    func place(_ relative: [UInt8], in root: String, made: inout Set<[UInt8]>) throws(GitBaselineError) -> String {
        let parts = relative.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        var folder: [UInt8] = []
        for part in parts.dropLast() {
            folder += (folder.isEmpty ? [] : [UInt8(ascii: "/")]) + part
            if made.insert(folder).inserted {
                let path = root + "/" + FileNames.string(fromBytes: folder)
                guard OutputFolders.makeFolder(path, mode: 0o700) || errno == EEXIST else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            }
        }
        return root + "/" + FileNames.string(fromBytes: relative)
    }

    /// An LFS pointer's object from `.git/lfs/objects` into `destination`; false when it
    /// is not there.
    static func placeLFS(_ pointer: LFSPointer, at destination: String, lfsFolder: String) throws(GitBaselineError) -> Bool {
        let object = lfsFolder + "/" + pointer.oid.prefix(2) + "/" + pointer.oid.dropFirst(2).prefix(2) + "/" + pointer.oid
        guard let status = FileNames.status(object), (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) == pointer.size else { return false }
        let outcome: FileCopy.Outcome
        do {
            outcome = try FileCopy.copy(object, to: destination)
        } catch {
            throw .cannotWrite(path: destination, reason: "\(error)")
        }
        if case .notCopied(let reason) = outcome { throw .cannotWrite(path: object, reason: reason) }
        return true
    }

    /// What streaming blobs did: the blobs written, the LFS objects placed, the LFS
    /// pointers whose objects are not here.
    struct Streamed: Sendable {
        var blobs = 0
        var lfsObjects = 0
        var pointers: [String] = []
    }

    /// Streams `entries`' blobs into `root` through several `git cat-file --batch`
    /// processes at once, one per core (at most 4, and one per 32 blobs), each given every
    /// n-th blob: git's inflating and this process's writing of one share overlap the
    /// others' instead of waiting in one pipe.
    static func stream(_ entries: [Entry], into root: String, git: Git, top: String, lfsFolder: String) throws(GitBaselineError) -> Streamed {
        let parts = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount, entries.count / 32))
        if parts == 1 { return try streamOne(entries, into: root, git: git, top: top, lfsFolder: lfsFolder) }
        let shares = (0..<parts).map { part in stride(from: part, to: entries.count, by: parts).map { entries[$0] } }
        let results = Locked([Result<Streamed, GitBaselineError>?](repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let result = Result { () throws(GitBaselineError) -> Streamed in try streamOne(shares[part], into: root, git: git, top: top, lfsFolder: lfsFolder) }
            results.withLock { $0[part] = result }
        }
        var total = Streamed()
        for result in results.withLock({ $0 }) {
            guard let result else { continue }
            let streamed = try result.get()
            total.blobs += streamed.blobs
            total.lfsObjects += streamed.lfsObjects
            total.pointers += streamed.pointers
        }
        return total
    }

    /// Streams `entries`' blobs through one `git cat-file --batch` into `root`.
    static func streamOne(_ entries: [Entry], into root: String, git: Git, top: String, lfsFolder: String) throws(GitBaselineError) -> Streamed {
        var streamed = Streamed()
        let batch = try git.start(["cat-file", "--batch"], in: top)
        defer { batch.finish() }
        // The requests from another thread: git answers as it reads, and a pipe that
        // nobody empties would block both.
        let requests = Array(entries.map { $0.object + "\n" }.joined().utf8)
        let input = batch.input.fileDescriptor
        let handle = batch.input
        let writer = Thread {
            // A git that ended early gives this thread EPIPE, not the process SIGPIPE
            // (whose handler ends the run).
            var block = sigset_t()
            sigemptyset(&block)
            sigaddset(&block, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &block, nil)
            var done = 0
            while done < requests.count {
                let wrote = requests.withUnsafeBytes { Foundation.write(input, $0.baseAddress! + done, $0.count - done) }
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { break }
                done += wrote
            }
            try? handle.close()
        }
        writer.start()
        var reader = PipeReader(fd: batch.output)
        for entry in entries {
            let header = String(decoding: reader.line() ?? [], as: UTF8.self).split(separator: " ")
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]), size >= 0 else {
                if header.count == 2 && header[1] == "missing" { throw .missingObject(path: FileNames.string(fromBytes: entry.relative), object: entry.object) }
                throw .git(command: "git cat-file --batch", message: batch.errorText())
            }
            guard let bytes = reader.bytes(size), reader.line() != nil else { throw .git(command: "git cat-file --batch", message: "the output was cut short. " + batch.errorText()) }
            let destination = root + "/" + FileNames.string(fromBytes: entry.relative)
            if let pointer = LFSPointer(bytes) {
                if try placeLFS(pointer, at: destination, lfsFolder: lfsFolder) {
                    streamed.lfsObjects += 1
                } else {
                    streamed.pointers.append(FileNames.string(fromBytes: entry.relative))
                }
            } else {
                try Self.writeFile(bytes, to: destination)
            }
            streamed.blobs += 1
        }
        return streamed
    }

    static func writeFile(_ bytes: [UInt8], to path: String) throws(GitBaselineError) {
        let fd = FileNames.withSystemPath(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw .cannotWrite(path: path, reason: wrote == 0 ? "no byte could be written" : String(cString: strerror(errno))) }
            done += wrote
        }
    }

    /// Removes the private folder.
    public func remove() {
        try? FileManager.default.removeItem(atPath: folder)
        TemporaryFiles.unregister(folder)
    }

    /// Where the committed copy of the pair `relative` lies (in the private folder).
    func committed(_ relative: String) -> String {
        path == folder + "/baseline" ? path + "/" + relative : path
    }

    /// Before an approval writes: each file it replaces or deletes in the work tree holds
    /// the committed bytes, and each it creates is absent there (an uncommitted edit is
    /// never overwritten).
    ///
    /// - Throws: `GitBaselineError.uncommittedEdit` naming the first file that differs.
    public func checkWorkTree(_ approval: BaselineApproval) throws(GitBaselineError) {
        for step in approval.steps {
            let committed = committed(step.relativePath)
            let inCommit = FileNames.status(committed) != nil
            let inWorkTree = FileNames.status(step.destination) != nil
            let same: Bool
            switch (inCommit, inWorkTree) {
            case (false, false): same = true
            case (true, true):
                same = (try? ContentDigest.ofFile(committed)) == (try? ContentDigest.ofFile(step.destination)) && (try? ContentDigest.ofFile(committed)) != nil
            default: same = false
            }
            guard same else { throw .uncommittedEdit(path: step.destination, ref: ref, present: inWorkTree, committed: inCommit) }
        }
    }

    /// A report's pairs named as BASELINE's files in the work tree rather than the
    /// private copy's (which is removed after the run).
    public func named(_ report: DiffReport) -> DiffReport {
        var comparison = report.comparison
        let root = path == folder + "/baseline" ? path : nil
        for index in comparison.results.indices {
            guard let file = comparison.results[index].baselinePath else { continue }
            if let root, file.hasPrefix(root + "/") {
                comparison.results[index].baselinePath = baseline + String(file.dropFirst(root.count))
            } else if file == path {
                comparison.results[index].baselinePath = baseline
            }
        }
        var named = DiffReport(comparison: comparison, options: report.options, tolerance: report.tolerance)
        (named.rules, named.config, named.baselineCommit) = (report.rules, report.config, report.baselineCommit)
        return named
    }
}

/// A Git LFS pointer file: its object's SHA-256 and size.
struct LFSPointer {
    var oid: String
    var size: Int

    /// The pointer in `bytes`, when they are one (the spec's first line, then `oid` and
    /// `size`; a pointer is under 1 KiB).
    init?(_ bytes: [UInt8]) {
        guard bytes.count < 1024 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("version https://git-lfs.github.com/spec/v1\n") else { return nil }
        var oid: String?, size: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("oid sha256:") { oid = String(line.dropFirst("oid sha256:".count)) }
            if line.hasPrefix("size ") { size = Int(line.dropFirst(5)) }
        }
        guard let oid, oid.count == 64, oid.allSatisfy({ $0.isHexDigit }), let size else { return nil }
        (self.oid, self.size) = (oid, size)
    }
}

/// What `--baseline-ref` cannot do, with what to do about it.
public enum GitBaselineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `git` on PATH.
    case gitMissing
    /// BASELINE is not inside a git work tree.
    case notARepository(path: String)
    /// `ref` names no commit here; `shallow`: the clone is shallow (fetch it).
    case unknownRef(ref: String, shallow: Bool)
    /// HEAD and `branch` share no commit here (a shallow clone cuts it off).
    case noMergeBase(branch: String, shallow: Bool)
    /// The commit holds no file at BASELINE.
    case notInCommit(path: String, ref: String, commit: String)
    /// An object the tree names is not in the repository (a partial or shallow clone).
    case missingObject(path: String, object: String)
    /// Git LFS pointers whose objects are not here.
    case lfsPointers(paths: [String])
    /// git failed: the command and its message.
    case git(command: String, message: String)
    /// The private copy cannot be written.
    case cannotWrite(path: String, reason: String)
    /// Approving would overwrite (or delete, or create over) a work-tree file that is not
    /// the committed one.
    case uncommittedEdit(path: String, ref: String, present: Bool, committed: Bool)

    public var description: String {
        switch self {
        case .gitMissing: return "--baseline-ref reads the baseline through git, and no git is on PATH: install git (apt-get install git)"
        case .notARepository(let path): return "\(FileNames.display(path)): not in a git work tree, so --baseline-ref has no commits to read"
        case .unknownRef(let ref, let shallow):
            let fetch = shallow
                ? ": this clone is shallow; fetch it (git fetch --depth=1 origin \(ref), or git fetch --unshallow; actions/checkout: fetch-depth: 0)"
                : " (a branch, a tag, origin/main, a commit, or merge-base:BRANCH; git fetch origin to get a remote's)"
            return "--baseline-ref \(ref): no such commit here\(fetch)"
        case .noMergeBase(let branch, let shallow):
            return "--baseline-ref merge-base:\(branch): HEAD and \(branch) share no commit here"
                + (shallow ? ": this clone is shallow; fetch their history (git fetch --unshallow, or git fetch --deepen=N; actions/checkout: fetch-depth: 0)" : "")
        case .notInCommit(let path, let ref, let commit): return "\(FileNames.display(path)): no file there in \(ref) (commit \(commit.prefix(12)))"
        case .missingObject(let path, let object):
            return "\(FileNames.display(path)): object \(object.prefix(12)) is not in this repository (a partial or shallow clone: git fetch it)"
        case .lfsPointers(let paths):
            let named = paths.prefix(3).map { FileNames.display($0) }.joined(separator: ", ") + (paths.count > 3 ? " and \(paths.count - 3) more" : "")
            return "\(named): an LFS pointer, not the image: run git lfs pull (or git lfs fetch origin <ref>)"
        case .git(let command, let message): return "\(command): \(message)"
        case .cannotWrite(let path, let reason): return "\(FileNames.display(path)): cannot write the baseline's copy: \(reason)"
        case .uncommittedEdit(let path, let ref, let present, let committed):
            let what = present && committed ? "differs from its committed bytes in \(ref)" : present ? "is in the work tree but not in \(ref)" : "is in \(ref) but not in the work tree"
            return "\(FileNames.display(path)) \(what): an uncommitted edit is never overwritten (commit or restore it, then approve)"
        }
    }
}

/// The machine's git, run as a child process.
struct Git {
    let executable: String

    static func find() throws(GitBaselineError) -> Git {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for folder in paths where FileManager.default.isExecutableFile(atPath: folder + "/git") { return Git(executable: folder + "/git") }
        throw .gitMissing
    }

    /// A finished run's output.
    struct Output {
        var bytes: [UInt8]
        /// Trimmed of its final newline.
        var text: String { String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines) }
    }

    /// Runs git with `arguments` in `folder`; a failure is `failure(git's message)`.
    func run(_ arguments: [String], in folder: String, failure: (String) -> GitBaselineError) throws(GitBaselineError) -> Output {
        let process = try start(arguments, in: folder)
        try? process.input.close()
        var reader = PipeReader(fd: process.output)
        let bytes = reader.rest()
        let status = process.finish()
        guard status == 0 else { throw failure(process.errorText()) }
        return Output(bytes: bytes)
    }

    /// A running git: its standard input, output and error.
    final class Running {
        let process: Process
        let input: FileHandle
        let output: Int32
        let errors: Pipe
        var status: Int32?

        init(process: Process, input: FileHandle, output: Int32, errors: Pipe) {
            (self.process, self.input, self.output, self.errors) = (process, input, output, errors)
        }

        /// Waits for it; its exit status.
        @discardableResult
        func finish() -> Int32 {
            if let status { return status }
            process.waitUntilExit()
            status = process.terminationStatus
            return process.terminationStatus
        }

        /// What it wrote to standard error, trimmed.
        func errorText() -> String {
            finish()
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    func start(_ arguments: [String], in folder: String) throws(GitBaselineError) -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-C", folder, "-c", "core.quotePath=false"] + arguments
        // No pager, no prompt, no locale in the output parsed.
        var environment = ProcessInfo.processInfo.environment
        (environment["GIT_PAGER"], environment["GIT_TERMINAL_PROMPT"], environment["LC_ALL"]) = ("cat", "0", "C")
        process.environment = environment
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        do {
            try process.run()
        } catch {
            throw .git(command: "git " + (arguments.first ?? ""), message: "\(error)")
        }
        return Running(process: process, input: input.fileHandleForWriting, output: output.fileHandleForReading.fileDescriptor, errors: errors)
    }
}

/// Reads a pipe: lines through a small buffer, and counted bytes (a blob) read straight
/// into their own array (no copy through the buffer, no zeroed chunk per read).
struct PipeReader {
    let fd: Int32
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var start = 0, end = 0
    var ended = false

    init(fd: Int32) {
        self.fd = fd
        // A larger pipe: fewer trips between git and this process (Linux; best effort).
        #if os(Linux)
        _ = fcntl(fd, 1031 /* F_SETPIPE_SZ, not imported by Glibc's module */, Int32(1 << 20))
        #endif
    }

    /// Reads more into the buffer (kept from `start`); false at the end of the output.
    mutating func fill() -> Bool {
        guard !ended else { return false }
        if start == end {
            (start, end) = (0, 0)
        } else if end == buffer.count {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    memmove(base, base + start, end - start)
                }
                (start, end) = (0, end - start)
            } else {
                buffer += [UInt8](repeating: 0, count: buffer.count)
            }
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + end, raw.count - end) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                ended = true
                return false
            }
            end += count
            return true
        }
    }

    /// The next line, without its newline; nil at the end.
    mutating func line() -> [UInt8]? {
        // How far past `start` has been searched (the buffer may move under `fill`).
        var scanned = 0
        while true {
            if let newline = buffer[(start + scanned)..<end].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return line
            }
            scanned = end - start
            guard fill() else { return nil }
        }
    }

    /// The next `count` bytes; nil when the output ends first.
    mutating func bytes(_ count: Int) -> [UInt8]? {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            let buffered = min(count, end - start)
            buffer.withUnsafeBytes { raw in
                if buffered > 0 { memcpy(out.baseAddress!, raw.baseAddress! + start, buffered) }
            }
            start += buffered
            var done = buffered
            while done < count {
                let got = read(fd, out.baseAddress! + done, count - done)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else {
                    ended = true
                    complete = false
                    break
                }
                done += got
            }
            initialized = complete ? count : done
        }
        return complete ? bytes : nil
    }

    /// Everything left.
    mutating func rest() -> [UInt8] {
        while fill() {}
        let bytes = Array(buffer[start..<end])
        start = end
        return bytes
    }
}
