// Goodlist files on disk: finding them, reading them (with clear errors), and rewriting them atomically.
import Foundation
import NavigationPolicy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and loading goodlist files and folders.
public enum GoodlistFiles {
    /// The largest list file read (a 10 MB list is fine; anything beyond this is refused, not half-read).
    public static let maximumFileSize = 64 * 1024 * 1024

    /// True for a file a goodlist folder contributes: `*.goodlist`, or the SDK's `good_redirects`.
    public static func isListFile(name: String) -> Bool {
        !name.hasPrefix(".") && (name.hasSuffix(".goodlist") || name == "good_redirects")
    }

    /// The lists a goodlist command uses when it is given none: the built-in list, as `decide` and `simulate` use it.
    public static let defaultReferences = [DefaultGoodlist.name]

    /// Expands folders into their list files (sorted by name); files, and the built-in list's name
    /// (`DefaultGoodlist.name`), are kept as given.
    public static func expand(_ paths: [String]) throws(ConfigError) -> [String] {
        var out: [String] = []
        for path in paths {
            if DefaultGoodlist.isNamed(path) {
                out.append(path)
                continue
            }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw ConfigError(
                    file: path,
                    "no such file or folder (expected a goodlist file, a folder of *.goodlist files, or \(DefaultGoodlist.name) for the built-in list)"
                )
            }
            if isDir.boolValue {
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: path)
                } catch {
                    throw ConfigError(file: path, "cannot list this folder (permission denied?)")
                }
                let lists = names.filter(isListFile(name:)).sorted()
                if lists.isEmpty {
                    throw ConfigError(file: path, "no goodlist files in this folder (expected *.goodlist or good_redirects)")
                }
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                out += lists.map { "\(base)/\($0)" }
            } else {
                out.append(path)
            }
        }
        return out
    }

    /// Reads and parses one list file, or names the built-in list (`DefaultGoodlist.name`). `entriesBefore`
    /// entries were read from other lists: past `Goodlist.maximumEntries` in all, the file is refused.
    public static func readSource(_ path: String, entriesBefore: Int = 0) throws(ConfigError) -> GoodlistSource {
        if DefaultGoodlist.isNamed(path) { return DefaultGoodlist.source }
        let bytes = try GoodlistIO.readBytes(path, what: "a goodlist")
        do {
            return try GoodlistSource.parse(bytes, file: path, entriesBefore: entriesBefore)
        } catch {
            throw ConfigError(file: error.file, line: error.line, error.message)
        }
    }

    /// Reads and parses files and folders (folders expand to their list files); past `Goodlist.maximumEntries`
    /// entries in all, an error names the file and line where the cap was passed.
    public static func readSources(_ paths: [String]) throws(ConfigError) -> [GoodlistSource] {
        var out: [GoodlistSource] = []
        var entries = 0
        for path in try expand(paths) {
            let source = try readSource(path, entriesBefore: entries)
            entries += source.entryCount
            out.append(source)
        }
        return out
    }

    /// Loads files and folders into one list, in order (on equal patterns the first file's entry wins).
    /// Any invalid line is an error naming its file and line: a list is used fully understood or not at all.
    public static func load(_ paths: [String]) throws(ConfigError) -> Goodlist {
        // Each file is read line by line into patterns and entries (its lines are not kept), and the list is built
        // once: inserting in order keeps the first file's entry for a repeated pattern.
        var pairs: [(HostPattern, GoodlistEntry)] = []
        for path in try expand(paths) {
            if DefaultGoodlist.isNamed(path) {
                pairs += DefaultGoodlist.patternEntries
                continue
            }
            let bytes = try GoodlistIO.readBytes(path, what: "a goodlist")
            do {
                pairs += try GoodlistSource.patternEntries(bytes, file: path, entriesBefore: pairs.count)
            } catch {
                throw ConfigError(file: error.file, line: error.line, error.message)
            }
        }
        return Goodlist(pairs)
    }
}

extension GoodlistFiles {
    /// True when `s` is a valid host pattern (`host`, `*.host`, `**.host`): for inline patterns in a policy file.
    public static func isPattern(_ s: String) -> Bool {
        (try? HostPattern(s)) != nil
    }

    /// The entries of one file, or of a folder's list files, named in entries and errors by `displayName`
    /// (the path as the user wrote it). Every line must be valid; the first invalid one is an error. With
    /// `entriesBefore` entries already read, past `Goodlist.maximumEntries` in all is an error too.
    public static func load(path: String, displayName: String, isDirectory: Bool, entriesBefore: Int = 0) throws(ConfigError)
        -> [GoodlistEntry]
    {
        try loadPatternEntries(path: path, displayName: displayName, isDirectory: isDirectory, entriesBefore: entriesBefore)
            .map(\.1)
    }

    /// The same with each entry's parsed pattern, for building one list from several sources without parsing
    /// every pattern again (`Goodlist(_:)`).
    public static func loadPatternEntries(
        path: String, displayName: String, isDirectory: Bool, entriesBefore: Int = 0
    ) throws(ConfigError) -> [(HostPattern, GoodlistEntry)] {
        let files: [(path: String, name: String)]
        if isDirectory {
            let expanded = try expand([path])
            files = expanded.map { full in
                let name = String(full.dropFirst(path.hasSuffix("/") ? path.count : path.count + 1))
                return (full, displayName.hasSuffix("/") ? displayName + name : displayName + "/" + name)
            }
        } else {
            files = [(path, displayName)]
        }
        var entries: [(HostPattern, GoodlistEntry)] = []
        for file in files {
            let bytes = try GoodlistIO.readBytes(file.path, what: "a goodlist")
            do {
                entries += try GoodlistSource.patternEntries(bytes, file: file.name, entriesBefore: entriesBefore + entries.count)
            } catch {
                throw ConfigError(file: error.file, line: error.line, error.message)
            }
        }
        return entries
    }
}
