// The fail-closed check of `plainview import --strict`: what still looks like a secret in the files about to
// be written, though no detector classified it. Runs on the decoded text (as Redactor does), so an encoded
// spelling does not hide anything.
//
// What "looks like a secret" (each rule skips placeholders):
// - long-digit-run: 12 or more digits, whole or with card-style separators (space, TAB, no-break or thin
//   space, `.`, `-`), not part of a word or a decimal number, and not a Unix time in milliseconds or
//   microseconds (2001–2100); or a card number grouped with `+`, `_` or `/` (Detectors.isCardNumber);
// - scheme-credential: `Bearer X` / `Basic X` with X of 12+ token characters;
// - jwt: a JSON Web Token, signed (three parts) or encrypted (five);
// - card-code: a 3–4 digit value under a card security code name (Detectors.cardCodeNames), as `name=value`,
//   `"name": value` or an input's name and value;
// - path-token: a URL path segment that is an identifier, not a word (Detectors.isPathToken);
// - aws-access-key: an AWS access key id (`AKIA…`, `ASIA…`);
// - email: an e-mail address (outside the reserved `.invalid`, `.example`, `example.com/.net/.org` domains);
// - auth-value: a value of 16+ token characters with letters and digits and at least 3.5 bits of entropy per
//   character, written as `name=value` or `name: "value"` where the name has a credential word (token,
//   secret, session, sid, auth, key, password, pwd, credential, signature, sig, bearer, jwt, csrf, xsrf, nonce,
//   ticket, code) or a word holding `session` or `sessid` (`jsessionid`, `PHPSESSID`).
import Foundation

public enum SecretResidue {
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The rule (`long-digit-run`, `scheme-credential`, `jwt`, `card-code`, `path-token`, `aws-access-key`,
        /// `email`, `auth-value`).
        public var rule: String
        public var file: String
        public var line: Int
        /// How many characters the value has (the value itself is never shown).
        public var length: Int
        public var description: String { "\(file):\(line): \(rule) (\(length) characters) not redacted" }
    }

    static let digitRun = RegexBox(
        #"(?<![0-9A-Za-z_])(?<![0-9][.,])[0-9](?:[ \t\u00A0\u2007\u2009\u202F.\-]?[0-9]){11,}(?![0-9A-Za-z_])(?![.,][0-9])"#)
    static let cardCode = RegexBox(#"([\p{L}\p{M}\p{N}_.\-\[\]$]{1,80})["']?\s*[=:]\s*["']?([0-9]{3,4})(?![0-9A-Za-z])"#)
    static let authValue = RegexBox(#"([A-Za-z0-9_.\-\[\]$]{1,80})["']?\s*[=:]\s*["']?([A-Za-z0-9+/_=.~\-]{16,})"#)
    static let credentialWords: Set<String> = [
        "token", "secret", "session", "sessid", "sessionid", "sid", "auth", "key", "apikey", "password", "passwd", "pwd",
        "credential", "credentials", "signature", "sig", "bearer", "jwt", "csrf", "xsrf", "nonce", "ticket", "code",
    ]
    static let reservedMailDomains = ["example.invalid", ".invalid", "example.com", "example.net", "example.org", ".example"]

    /// What in `text` (the file `file`, or the part of it starting on line `firstLine`) looks like a secret but
    /// is not a placeholder.
    public static func scan(_ text: String, file: String, firstLine: Int = 1) -> [Finding] {
        scanInOrder(text, file: file, firstLine: firstLine).map(\.finding)
    }

    /// `scan`, each finding with the number of the check that made it (1, 2 …): the findings come check by
    /// check, each check's in text order, so the findings of pieces of a text scanned one by one, sorted by
    /// check (stably), are those of the whole text.
    static func scanInOrder(_ text: String, file: String, firstLine: Int = 1) -> [(check: Int, finding: Finding)] {
        guard Detectors.mayHoldSecret(text) else { return [] }
        let view = DecodedText(text)
        let decoded = view.string
        var lineStarts: [Int]?
        var out: [(check: Int, finding: Finding)] = []
        let can = SecretPrefilter(decoded)
        let d = DetectorText(decoded, isASCII: !can.hasNonASCII)
        lazy var ns = d.nsString
        func add(_ check: Int, _ rule: String, _ r: NSRange) {
            let o = view.originalRange(r)
            if lineStarts == nil {
                var starts = [0]
                for (i, u) in view.original.enumerated() where u == 0x0A { starts.append(i + 1) }
                lineStarts = starts
            }
            let starts = lineStarts!
            var lo = 0, hi = starts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if starts[mid] <= o.location { lo = mid } else { hi = mid - 1 }
            }
            out.append((check, Finding(rule: rule, file: file, line: firstLine + lo, length: r.length)))
        }
        for m in can.longestJoinedDigits >= 12 ? digitRun.matches(in: decoded) : [] {
            let run = ns.substring(with: m.range)
            if Detectors.isPlaceholder(run) { continue }
            let digits = run.filter(\.isNumber)
            if digits.count == run.count, let v = Int(digits), isUnixTime(v, digits: digits.count) { continue }
            add(1, "long-digit-run", m.range)
        }
        for m in can.longestJoinedDigits >= 13 ? d.matches(Detectors.cardRun, ASCIIScanners.cardRuns) : [] {
            let run = d.text(m.range(at: 0))
            guard run.contains(where: { Detectors.weakCardSeparators.contains($0) }), Detectors.isCardNumber(run) else {
                continue
            }
            add(2, "long-digit-run", m.range(at: 0))
        }
        let mayHoldCardCodeName = can.mayHoldCardCodeName
        for m in mayHoldCardCodeName ? cardCode.matches(in: decoded) : [] {
            guard let name = m.group(1, in: ns), Detectors.isCardCodeName(name) else { continue }
            add(3, "card-code", m.range(at: 2))
        }
        if mayHoldCardCodeName, SecretPrefilter.has(decoded, "<") {
            for t in Redactor.tags.matches(in: decoded) {
                let tag = ns.substring(with: t.range) as NSString
                var label = false
                var value: NSRange?
                for a in Redactor.attributes.matches(in: tag as String) {
                    guard let n = a.group(1, in: tag)?.lowercased() else { continue }
                    let r = (2...4).map { a.range(at: $0) }.first { $0.location != NSNotFound }
                    guard let r else { continue }
                    let v = tag.substring(with: r)
                    if n == "name" || n == "id" { label = label || Detectors.isCardCodeName(v) }
                    if n == "value", (3...4).contains(v.count), v.allSatisfy({ $0.isASCII && $0.isNumber }) {
                        value = NSRange(location: t.range.location + r.location, length: r.length)
                    }
                }
                if label, let value { add(4, "card-code", value) }
            }
        }
        for m in can.mayHoldPathToken ? Detectors.pathSegment.matches(in: decoded) : [] {
            let segment = ns.substring(with: m.range)
            guard Detectors.isPathToken(segment), !Detectors.isPlaceholder(segment), Detectors.isInURLPath(ns, m.range)
            else { continue }
            add(5, "path-token", m.range)
        }
        for m in can.mayHoldAWSKey ? Detectors.awsAccessKey.matches(in: decoded) : [] { add(6, "aws-access-key", m.range) }
        for m in can.mayHoldSchemeCredential ? Detectors.schemeCredential.matches(in: decoded) : [] {
            let r = m.range(at: 1)
            if Detectors.isPlaceholder(ns.substring(with: r)) { continue }
            add(7, "scheme-credential", r)
        }
        for m in can.mayHoldJWT ? Detectors.jwt.matches(in: decoded) : [] { add(8, "jwt", m.range) }
        if SecretPrefilter.has(decoded, "@") {
            for m in d.matches(Detectors.email, ASCIIScanners.emails) {
                let mail = d.text(m.range(at: 0)).lowercased()
                let tld = mail.split(separator: ".").last.map(String.init) ?? ""
                if Detectors.notMailDomains.contains(tld) { continue }
                if reservedMailDomains.contains(where: { mail.hasSuffix($0) }) { continue }
                add(9, "email", m.range(at: 0))
            }
        }
        for m in can.mayHoldAuthValue(decoded) ? authValue.matches(in: decoded) : [] {
            guard let name = m.group(1, in: ns), let value = m.group(2, in: ns) else { continue }
            guard isCredentialName(name) else { continue }
            guard !Detectors.isPlaceholder(value), !SecretPrefilter.has(value, "REDACTED-"), looksRandom(value) else { continue }
            add(10, "auth-value", m.range(at: 2))
        }
        return out
    }

    /// A name with a credential word (`credentialWords`) or a word holding `session` or `sessid`.
    static func isCredentialName(_ name: String) -> Bool {
        NamePattern.words(name).contains {
            credentialWords.contains($0) || SecretPrefilter.has($0, "session") || SecretPrefilter.has($0, "sessid")
        }
    }

    /// Letters and digits both, and at least 3.5 bits of Shannon entropy per character.
    static func looksRandom(_ s: String) -> Bool {
        guard s.contains(where: \.isLetter), s.contains(where: \.isNumber) else { return false }
        var counts: [Character: Int] = [:]
        for c in s { counts[c, default: 0] += 1 }
        let n = Double(s.count)
        let bits = counts.values.reduce(0.0) { $0 - Double($1) / n * log2(Double($1) / n) }
        return bits >= 3.5
    }

    /// Milliseconds (13 digits) or microseconds (16 digits) since 1970 in 2001–2100: cache busters, not secrets.
    static func isUnixTime(_ v: Int, digits: Int) -> Bool {
        switch digits {
        case 13: return (978_307_200_000...4_102_444_800_000).contains(v)
        case 16: return (978_307_200_000_000...4_102_444_800_000_000).contains(v)
        default: return false
        }
    }
}
