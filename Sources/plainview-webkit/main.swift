// plainview-webkit: the WebKitGTK web view of `plainview simulate --engine webkit`. Started by plainview with its
// command pipe on fd 3 and its event pipe on fd 4 (see Driver.swift for the protocol); not meant to be run by hand.
import Foundation
import PlainviewRecordingProxy
#if canImport(Glibc)
import Glibc
#endif

// Neither pipe may leak into Xvfb or WebKit's helper processes (plainview must see end-of-file when we end).
_ = fcntl(commandFD, F_SETFD, FD_CLOEXEC)
_ = fcntl(eventFD, F_SETFD, FD_CLOEXEC)
signal(SIGPIPE, SIG_IGN)
let output = Output(fd: eventFD)

/// Without a usable WebKit the driver still answers, so plainview can name what to install.
func serveMissing(_ missing: MissingEngine) -> Never {
    readCommands { message in
        let id = message["id"] as? Int ?? 0
        if message["method"] as? String == "Driver.hello" {
            output.send(
                .object([
                    ("id", .int(id)),
                    (
                        "result",
                        .object([
                            ("missing", .string(missing.package)),
                            ("message", .string(missing.message)),
                        ])
                    ),
                ]))
        } else {
            output.send(.object([("id", .int(id)), ("error", .object([("message", .string(missing.message))]))]))
        }
    }
    exit(0)
}

setenv("GDK_BACKEND", "x11", 1)
// Compositing needs a GPU; under Xvfb it only costs time.
setenv("WEBKIT_DISABLE_COMPOSITING_MODE", "1", 1)
let api: WebKitAPI
var xvfb: pid_t?
do {
    api = try WebKitAPI.load()
    xvfb = try Display.ensure()
} catch {
    serveMissing(error)
}
guard api.gtk_init_check(nil, nil) != 0 else {
    if let xvfb { kill(xvfb, SIGKILL) }
    serveMissing(
        MissingEngine(
            package: "xvfb", message: "GTK cannot open the display \(ProcessInfo.processInfo.environment["DISPLAY"] ?? "")"))
}

// The proxy must be able to listen before anything runs; each view then gets a proxy of its own.
do {
    try RecordingProxy { _ in }.shutdown()
} catch {
    serveMissing(
        MissingEngine(package: "libwebkit2gtk-4.1-0", message: "the recording proxy cannot listen on 127.0.0.1: \(error)"))
}
driver = Driver(api: api, output: output) { view in
    try RecordingProxy { request in
        output.event(
            "Proxy.request",
            [
                ("request", .int(request.id)), ("method", .string(request.method)), ("url", .string(request.url)),
                ("destination", .string(request.destination)),
                ("referer", .string(request.headers.first { $0.name.lowercased() == "referer" }?.value ?? "")),
                (
                    "headers",
                    .array(request.headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
                ),
                ("body", .string(Data(request.body).base64EncodedString())),
            ], view: view)
    }
}

Thread.detachNewThread(readIntoMainLoop)
api.gtk_main()
driver.shutdown()
if let xvfb { kill(xvfb, SIGKILL) }
exit(0)
