// What a page keeps asking its server, and whether the answer changed: how both sessions tell a status poll from
// a page that is still doing something.
//
// A page that polls from load (`setInterval(fetch…)`, a `setTimeout` loop rescheduled on each answer, an `await` loop
// with a delay) never goes quiet: a payment or BankID page asks for its order's status every second or two, on
// iOS and Android alike, for as long as the user looks at it. Such a page is not loading. It waits for its server
// or for the user, exactly as a page with nothing running does, and a user looking at it taps. So a request that
// repeats one the current document already made (method, URL and body) is not activity as long as it gets the same
// answer as last time: the page learns nothing new, and whatever it does on a new answer (navigate) has not
// started. A new request, or a repeated one whose answer differs (the order is done), is activity as before.
import FlowSimulator

struct RepeatedRequests {
    /// The answer (status, headers and body) each request of the current document last got, by request.
    private var answers: [Request: Answer] = [:]
    /// Requests in flight, by the session's request id.
    private var open: [String: Request] = [:]

    private struct Request: Hashable {
        var method: String
        var url: String
        var body: [UInt8]
    }

    private struct Answer: Equatable {
        var status: Int
        var headers: [RecordedResponse.Header]
        var body: [UInt8]
    }

    /// The page asked for a resource: true when it asked the same before and was answered (a poll's next tick).
    mutating func asked(_ id: String, method: String, url: String, body: [UInt8]) -> Bool {
        let request = Request(method: method.uppercased(), url: url, body: body)
        open[id] = request
        return answers[request] != nil
    }

    /// The resource `id` is answered: true when it was a repeated request and this is the answer it got last time.
    mutating func answered(_ id: String, with response: RecordedResponse) -> Bool {
        guard let request = open.removeValue(forKey: id) else { return false }
        let answer = Answer(status: response.status, headers: response.headers, body: response.body)
        defer { answers[request] = answer }
        return answers[request] == answer
    }

    /// The resource `id` is refused (nothing recorded: a network error), or the page it belonged to is gone.
    mutating func dropped(_ id: String) { open[id] = nil }

    /// A new main document: what the last one asked is no longer known to this one.
    mutating func forget() {
        answers = [:]
        open = [:]
    }
}
