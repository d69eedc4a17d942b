// The X display WebKitGTK 4.1 (GTK 3) needs. With none given (`DISPLAY` unset), the driver starts its own Xvfb on
// a free display number (`-displayfd`) in its own process group, so it ends with the driver.
import Foundation
import PlainviewSupport
#if canImport(Glibc)
import Glibc
#endif

enum Display {
    /// Makes sure `DISPLAY` names a display: the given one, or a new Xvfb's. Returns the Xvfb's pid when one was started.
    static func ensure() throws(MissingEngine) -> pid_t? {
        if let given = ProcessInfo.processInfo.environment["DISPLAY"], !given.isEmpty { return nil }
        guard let xvfb = Executable.find(["Xvfb"]) else {
            throw MissingEngine(package: "xvfb", message: "no X display (DISPLAY is unset) and no Xvfb to start one")
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw MissingEngine(package: "xvfb", message: "pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 5)
        let args = [xvfb, "-displayfd", "5", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-nolisten", "unix-abstract"]
        let argv = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, xvfb, &actions, nil, argv, environ)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw MissingEngine(package: "xvfb", message: "cannot start \(xvfb): \(String(cString: strerror(rc)))")
        }
        // Xvfb writes the display number and a newline once it accepts clients.
        var number = ""
        var byte: UInt8 = 0
        var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, poll(&poller, 1, 500) >= 0 {
            if poller.revents == 0 { continue }
            guard read(fds[0], &byte, 1) == 1 else { break }
            if byte == 10 { break }
            number.append(Character(UnicodeScalar(byte)))
        }
        close(fds[0])
        guard !number.isEmpty, Int(number) != nil else {
            kill(child, SIGKILL)
            throw MissingEngine(package: "xvfb", message: "Xvfb (\(xvfb)) did not report a display")
        }
        setenv("DISPLAY", ":\(number)", 1)
        return child
    }
}
