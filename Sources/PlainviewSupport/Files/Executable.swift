// The one place that decides whether a program can be run and finds one on PATH: the engines (Chromium, the
// WebKit driver), the WebKit driver's Xvfb, and the tests' and benchmark's helper programs all ask it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package enum Executable {
    /// An executable regular file, or a symbolic link to one. A directory, or a file without the execute
    /// permission for this process, is not (`access(2)` with `X_OK` alone accepts a searchable directory).
    package static func isRunnable(_ file: String) -> Bool {
        guard !file.isEmpty else { return false }
        var info = stat()
        return stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(file, X_OK) == 0
    }

    /// The first of `names` found as a shell finds a command: a name with a `/` is a path, taken as given; any
    /// other name is looked up in each folder of `path` in order (default: the `PATH` of the environment, or
    /// `/usr/bin:/bin` when unset); an empty name, or an empty folder of `path`, is never used. Nil when none is found.
    package static func find(_ names: [String], path: String? = nil) -> String? {
        let folders = (path ?? environmentPath).split(separator: ":", omittingEmptySubsequences: true)
        for name in names where !name.isEmpty {
            if name.contains("/") {
                if isRunnable(name) { return name }
                continue
            }
            for folder in folders where isRunnable("\(folder)/\(name)") { return "\(folder)/\(name)" }
        }
        return nil
    }

    private static var environmentPath: String {
        guard let value = getenv("PATH") else { return "/usr/bin:/bin" }
        return String(cString: value)
    }
}
