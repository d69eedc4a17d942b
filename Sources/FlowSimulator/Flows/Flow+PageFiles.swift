// Reading a flow's page files for one run (see PageFile.swift).

extension Flow {
    /// The flow with every page file read into memory, for one run; the flow it came from keeps only the paths.
    /// Throws the first page file that can no longer be read (it was readable when the flow was loaded).
    public func loadingPageFiles() throws(PageFileError) -> Flow {
        guard pages.contains(where: { p in p.responses.contains { $0.file != nil } || p.withoutCookie?.file != nil })
        else { return self }
        var out = self
        for i in out.pages.indices {
            for j in out.pages[i].responses.indices {
                out.pages[i].responses[j] = try load(out.pages[i].responses[j], page: out.pages[i])
            }
            if let w = out.pages[i].withoutCookie { out.pages[i].withoutCookie = try load(w, page: out.pages[i]) }
        }
        return out
    }

    private func load(_ response: RecordedResponse, page: RecordedPage) throws(PageFileError) -> RecordedResponse {
        guard let file = response.file else { return response }
        guard let loaded = response.loadingFile() else {
            throw PageFileError(path: file.path, flowFile: self.file, line: page.line)
        }
        return loaded
    }
}
