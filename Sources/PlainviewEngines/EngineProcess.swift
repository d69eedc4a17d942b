// A browser engine's process: spawned in its own process group with two extra pipes on file descriptors 3 and 4
// (what Chromium's `--remote-debugging-pipe` reads and writes), killed as a group so no helper process outlives it.
import FlowSimulator
import Foundation
import PlainviewSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class EngineProcess {
    let pid: pid_t
    /// Our end of the engine's fd 3 (we write commands).
    let commands: Int32
    /// Our end of the engine's fd 4 (we read messages).
    let messages: Int32
    private var reaped = false
    private(set) var exitStatus: Int32?

    /// Finds `names` on PATH, as a shell does (PlainviewSupport's `Executable.find`: a name with a `/` is a
    /// path; only an executable regular file counts). Nil when none is found.
    static func locate(_ names: [String]) -> String? { Executable.find(names) }

    /// A pipe whose ends close on exec (the child gets only the copies placed on fds 3 and 4).
    private static func cloexecPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Spawns `executable` with `arguments`; its stdout and stderr go to `log` (appended).
    init(executable: String, arguments: [String], environment: [String: String], log: String) throws(EngineFailure) {
        var toEngine: [Int32] = [0, 0], fromEngine: [Int32] = [0, 0]
        guard Self.cloexecPipe(&toEngine) else { throw EngineFailure(.startFailed, "pipe: \(String(cString: strerror(errno)))") }
        guard Self.cloexecPipe(&fromEngine) else {
            close(toEngine[0]); close(toEngine[1])
            throw EngineFailure(.startFailed, "pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, toEngine[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromEngine[1], 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(toEngine[0])
        close(fromEngine[1])
        guard rc == 0 else {
            close(toEngine[1]); close(fromEngine[0])
            throw EngineFailure(.startFailed, "cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        pid = child
        commands = toEngine[1]
        messages = fromEngine[0]
        // A closed reader must not kill us with SIGPIPE: writes then fail with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
    }

    /// True while the process runs (reaps it when it has exited).
    var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            reaped = true
            exitStatus = status
            return false
        }
        return true
    }

    private var closed = false

    /// Kills the whole process group (the engine's helper processes too) and reaps the process. Idempotent.
    func terminate() {
        guard !closed else { return }
        closed = true
        kill(-pid, SIGKILL)
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            exitStatus = status
            reaped = true
        }
        close(commands)
        close(messages)
    }
}
