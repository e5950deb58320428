import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: messages as JSON ended by a NUL, on file descriptors 3 and
/// 4), so that a test clicks, types and takes screenshots as a user would. No library:
/// the protocol is JSON.
final class Browser {
    /// Chromium, when installed; in CI it must be.
    static let executable: String? = {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) { return path }
        return nil
    }()

    /// Browser tests run when Chromium is there, and must in CI.
    static var available: Bool { executable != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    struct ProtocolError: Error, CustomStringConvertible {
        var description: String
    }

    let pid: pid_t
    let input: Int32
    let output: Int32
    var nextID = 1
    var pending: [UInt8] = []
    /// Events received while waiting for answers.
    var events: [[String: Any]] = []
    /// The page's session, once `open` attached to it.
    var session: String?

    init(width: Int = 1200, height: Int = 800) throws {
        let chromium = try #require(Self.executable, "Chromium is needed for the browser tests: apt-get install chromium")
        var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw ProtocolError(description: "pipe failed") }
        // None of the four ends is inherited as such: the child gets two, as 3 and 4.
        for fd in toBrowser + fromBrowser { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let profile = NSTemporaryDirectory() + "mosaic-chromium-\(getpid())-\(UUID().uuidString.prefix(8))"
        let arguments = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--hide-scrollbars",
            "--disable-popup-blocking", "--remote-debugging-pipe", "--user-data-dir=" + profile, "--window-size=\(width),\(height)", "about:blank",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, chromium, &actions, nil, &argv, environ)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard status == 0 else { throw ProtocolError(description: "cannot start \(chromium): \(String(cString: strerror(status)))") }
        pid = child
        input = toBrowser[1]
        output = fromBrowser[0]
    }

    deinit {
        _ = try? send("Browser.close")
        close(input)
        close(output)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Sends a command (to the page's session when `page`) and returns its result.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], page: Bool = false) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if page, let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var done = 0
        while done < bytes.count {
            let wrote = bytes[done...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            guard wrote > 0 else { throw ProtocolError(description: "the browser closed its pipe") }
            done += wrote
        }
        while true {
            let reply = try receive()
            if reply["id"] as? Int == id {
                if let error = reply["error"] as? [String: Any] { throw ProtocolError(description: "\(method): \(error)") }
                return reply["result"] as? [String: Any] ?? [:]
            }
            events.append(reply)
        }
    }

    /// The next message, waiting at most 30 seconds.
    func receive() throws -> [String: Any] {
        while true {
            if let end = pending.firstIndex(of: 0) {
                let data = Data(pending[..<end])
                pending.removeFirst(end + 1)
                return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 30_000) > 0 else { throw ProtocolError(description: "no answer from the browser in 30 s") }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            guard count > 0 else { throw ProtocolError(description: "the browser closed its pipe") }
            pending.append(contentsOf: chunk[..<count])
        }
    }

    /// Opens `url` in a new page of `width` x `height` CSS pixels and attaches to it.
    func open(_ url: String, width: Int = 1200, height: Int = 800) throws {
        try send("Target.setDiscoverTargets", ["discover": true])
        let target = try send("Target.createTarget", ["url": "about:blank"])
        let attached = try send("Target.attachToTarget", ["targetId": target["targetId"] ?? "", "flatten": true])
        session = attached["sessionId"] as? String
        try send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false], page: true)
        try send("Page.enable", page: true)
        try send("Page.navigate", ["url": url], page: true)
    }

    /// The value of a JavaScript expression in the page.
    func evaluate(_ expression: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true], page: true)
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits (up to 20 s) until `expression` is true in the page.
    func wait(until expression: String, _ what: String) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try evaluate("Boolean(\(expression))") as? Bool == true { return }
            usleep(50_000)
        }
        throw ProtocolError(description: "waited 20 s for \(what): \(expression)")
    }

    /// A click at `x`, `y` (CSS pixels), as a mouse gives it.
    func click(x: Double, y: Double) throws {
        for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
            try send("Input.dispatchMouseEvent", ["type": type, "x": x, "y": y, "button": type == "mouseMoved" ? "none" : "left", "clickCount": 1], page: true)
        }
    }

    /// Types `text` into the focused element, then presses Enter when asked.
    func type(_ text: String, enter: Bool = false) throws {
        try send("Input.insertText", ["text": text], page: true)
        if enter {
            for type in ["keyDown", "keyUp"] {
                try send("Input.dispatchKeyEvent", ["type": type, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13], page: true)
            }
        }
    }

    /// The page as a PNG, decoded.
    func screenshot() throws -> Data {
        let shot = try send("Page.captureScreenshot", ["format": "png"], page: true)
        return try #require(Data(base64Encoded: shot["data"] as? String ?? ""))
    }
}
