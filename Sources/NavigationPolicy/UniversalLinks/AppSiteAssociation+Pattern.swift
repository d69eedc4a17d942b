// AASA pattern matching: `*` (any run, also across `/`), `?` (one character), `?*` (at least one),
// `$(variable)` substitutions (built-in classes, `lang`, `region`, and `applinks.substitutionVariables`).
// Patterns compile to a small program run as a Pike VM: linear time in the input, no recursion,
// so a hostile document or a 100 kB URL cannot blow the stack or the clock.

/// A compiled AASA pattern.
struct AASAPattern: Sendable, Hashable {
    enum CharClass: Sendable, Hashable {
        case alnum, alpha, ascii, digit, xdigit, upper, lower, letter

        func contains(_ s: Unicode.Scalar) -> Bool {
            switch self {
            case .alnum: s.properties.isAlphabetic || ("0"..."9").contains(s)
            case .alpha: s.properties.isAlphabetic
            case .ascii: s.isASCII
            case .digit: ("0"..."9").contains(s)
            case .xdigit: ("0"..."9").contains(s) || ("a"..."f").contains(s) || ("A"..."F").contains(s)
            case .upper: s.properties.isUppercase
            case .lower: s.properties.isLowercase
            case .letter: s.properties.isUppercase || s.properties.isLowercase
            }
        }
    }

    enum Instruction: Sendable, Hashable {
        case scalar(Unicode.Scalar)
        case any
        case charClass(CharClass)
        case split(Int, Int)
        case jump(Int)
        case match
    }

    private enum Token {
        case literal(Unicode.Scalar)
        case star
        case one
        case charClass(CharClass)
        case alternatives([[Token]])
    }

    /// Single-character steps and stars, for the common patterns without `$(…)` alternatives.
    enum Atom: Sendable, Hashable {
        case scalar(Unicode.Scalar)
        case any
        case charClass(CharClass)
        case star
    }

    let program: [Instruction]
    let caseSensitive: Bool
    /// When every alternative is flat: matched with the iterative wildcard algorithm (fast, O(1) memory).
    let flat: [[Atom]]?

    /// A query or fragment pattern: the whole string must match.
    init(_ pattern: String, caseSensitive: Bool, variables: [String: [String]]) {
        let tokens = Self.tokens(pattern, caseSensitive: caseSensitive, variables: variables, expandVariables: true)
        self.init(compiling: tokens, caseSensitive: caseSensitive)
    }

    /// A path pattern. swcutil ignores leading and trailing slashes on both sides (`abc` ≡ `/abc`,
    /// `/buy/` ≡ `/buy`, `//abc` ≡ `/abc`), and a trailing `/*` also matches the bare prefix
    /// (`/buy/*` matches `/buy`, but `/a/*/c` does not match `/a/c`).
    init(path pattern: String, caseSensitive: Bool, variables: [String: [String]]) {
        let trimmed = AASAURLParts.trimmedSlashes(pattern)
        var alternatives = [trimmed]
        if trimmed.hasSuffix("/*") { alternatives.append(AASAURLParts.trimmedSlashes(String(trimmed.dropLast(2)))) }
        let tokens = alternatives.map {
            Self.tokens($0, caseSensitive: caseSensitive, variables: variables, expandVariables: true)
        }
        self.init(compiling: tokens.count == 1 ? tokens[0] : [.alternatives(tokens)], caseSensitive: caseSensitive)
    }

    private init(compiling tokens: [Token], caseSensitive: Bool) {
        var program: [Instruction] = []
        Self.emit(tokens, into: &program)
        program.append(.match)
        self.program = program
        self.caseSensitive = caseSensitive
        if case .alternatives(let alternatives)? = tokens.first, tokens.count == 1 {
            let atoms = alternatives.map(Self.atoms)
            flat = atoms.contains { $0 == nil } ? nil : atoms.compactMap { $0 }
        } else {
            flat = Self.atoms(tokens).map { [$0] }
        }
    }

    private static func atoms(_ tokens: [Token]) -> [Atom]? {
        var out: [Atom] = []
        for token in tokens {
            switch token {
            case .literal(let s): out.append(.scalar(s))
            case .one: out.append(.any)
            case .charClass(let c): out.append(.charClass(c))
            case .star: out.append(.star)
            case .alternatives: return nil
            }
        }
        return out
    }

    /// Classic wildcard matching: on a mismatch, retry from the last star one character further on.
    private static func wildcardMatch(_ atoms: [Atom], _ text: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0, starP = -1, starT = 0
        while t < text.count {
            if p < atoms.count, atoms[p] == .star {
                starP = p
                starT = t
                p += 1
            } else if p < atoms.count, accepts(atoms[p], text[t]) {
                t += 1
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < atoms.count, atoms[p] == .star { p += 1 }
        return p == atoms.count
    }

    private static func accepts(_ atom: Atom, _ c: Unicode.Scalar) -> Bool {
        switch atom {
        case .scalar(let s): s == c
        case .any: true
        case .charClass(let cls): cls.contains(c)
        case .star: false
        }
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        let input = caseSensitive ? text : text.lowercased()
        if let flat {
            let scalars = Array(input.unicodeScalars)
            return flat.contains { Self.wildcardMatch($0, scalars) }
        }
        var current: [Int] = []
        var next: [Int] = []
        var mark = [Int](repeating: -1, count: program.count)
        var stack: [Int] = []
        addThread(0, to: &current, generation: 0, mark: &mark, stack: &stack)
        var generation = 0
        for c in input.unicodeScalars {
            generation += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                let accepts: Bool
                switch program[pc] {
                case .scalar(let s): accepts = s == c
                case .any: accepts = true
                case .charClass(let cls): accepts = cls.contains(c)
                default: accepts = false
                }
                if accepts { addThread(pc + 1, to: &next, generation: generation, mark: &mark, stack: &stack) }
            }
            swap(&current, &next)
            if current.isEmpty { return false }
        }
        return current.contains { program[$0] == .match }
    }

    private func addThread(_ start: Int, to list: inout [Int], generation: Int, mark: inout [Int], stack: inout [Int]) {
        stack.append(start)
        while let pc = stack.popLast() {
            guard pc >= 0, pc < program.count, mark[pc] != generation else { continue }
            mark[pc] = generation
            switch program[pc] {
            case .jump(let target): stack.append(target)
            case .split(let a, let b):
                stack.append(b)
                stack.append(a)
            default: list.append(pc)
            }
        }
    }

    // MARK: compiling

    private static func emit(_ tokens: [Token], into program: inout [Instruction]) {
        for token in tokens {
            switch token {
            case .literal(let s): program.append(.scalar(s))
            case .one: program.append(.any)
            case .charClass(let c): program.append(.charClass(c))
            case .star:
                // L: split(L+1, L+3); L+1: any; L+2: jump L; L+3: …
                let l = program.count
                program.append(.split(l + 1, l + 3))
                program.append(.any)
                program.append(.jump(l))
            case .alternatives(let alternatives):
                guard !alternatives.isEmpty else {
                    // Matches nothing (an unknown or empty variable never widens a pattern).
                    program.append(.split(-1, -1))
                    continue
                }
                var jumpsToEnd: [Int] = []
                for (i, alternative) in alternatives.enumerated() {
                    let isLast = i == alternatives.count - 1
                    var splitAt = -1
                    if !isLast {
                        splitAt = program.count
                        program.append(.split(splitAt + 1, -1)) // patched below
                    }
                    emit(alternative, into: &program)
                    if !isLast {
                        jumpsToEnd.append(program.count)
                        program.append(.jump(-1))
                        program[splitAt] = .split(splitAt + 1, program.count)
                    }
                }
                let end = program.count
                for j in jumpsToEnd { program[j] = .jump(end) }
            }
        }
    }

    /// About how many single-character steps `pattern` compiles to, with every `$(…)` expanded the way
    /// `tokens` expands it (counted before compiling, so a hostile document is refused cheaply). A path
    /// pattern ending in `/*` compiles twice; the count allows for that.
    /// Stops counting once past `limit`.
    static func expandedSize(_ pattern: String, variables: [String: [String]], limit: Int = .max) -> Int {
        let scalars = Array(pattern.unicodeScalars)
        var size = 0
        var i = 0
        var known: [String: Int] = [:]
        while i < scalars.count, size <= limit / 2 {
            if scalars[i] == "$", i + 1 < scalars.count, scalars[i + 1] == "(",
                let close = scalars[(i + 2)...].firstIndex(of: ")")
            {
                let name = String(String.UnicodeScalarView(scalars[(i + 2)..<close]))
                switch name {
                case "alnum", "alpha", "ascii", "digit", "xdigit", "upper", "lower": size += 1
                case "lang": size += isoLanguageCodes.unicodeScalars.count
                case "region": size += isoRegionCodes.unicodeScalars.count
                default:
                    let n = known[name] ?? (variables[name] ?? []).reduce(1) { $0 + $1.unicodeScalars.count + 1 }
                    known[name] = n
                    size += n
                }
                i = close + 1
            } else {
                size += 1
                i += 1
            }
        }
        return size * 2
    }

    private static func tokens(
        _ pattern: String, caseSensitive: Bool, variables: [String: [String]], expandVariables: Bool
    ) -> [Token] {
        var out: [Token] = []
        let scalars = Array(pattern.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s == "*" {
                out.append(.star)
            } else if s == "?" {
                out.append(.one)
            } else if s == "$", expandVariables, i + 1 < scalars.count, scalars[i + 1] == "(",
                let close = scalars[(i + 2)...].firstIndex(of: ")")
            {
                let name = String(String.UnicodeScalarView(scalars[(i + 2)..<close]))
                out.append(variable(name, caseSensitive: caseSensitive, variables: variables))
                i = close + 1
                continue
            } else {
                appendLiteral(s, caseSensitive: caseSensitive, to: &out)
            }
            i += 1
        }
        return out
    }

    private static func appendLiteral(_ s: Unicode.Scalar, caseSensitive: Bool, to out: inout [Token]) {
        if caseSensitive {
            out.append(.literal(s))
        } else {
            for l in String(s).lowercased().unicodeScalars { out.append(.literal(l)) }
        }
    }

    private static func variable(_ name: String, caseSensitive: Bool, variables: [String: [String]]) -> Token {
        switch name {
        case "alnum": return .charClass(.alnum)
        case "alpha": return .charClass(.alpha)
        case "ascii": return .charClass(.ascii)
        case "digit": return .charClass(.digit)
        case "xdigit": return .charClass(.xdigit)
        case "upper": return .charClass(caseSensitive ? .upper : .letter)
        case "lower": return .charClass(caseSensitive ? .lower : .letter)
        case "lang", "region":
            let codes = name == "lang" ? AASAPattern.isoLanguageCodes : AASAPattern.isoRegionCodes
            return .alternatives(
                codes.split(separator: " ").map { code in
                    var t: [Token] = []
                    for s in code.unicodeScalars { appendLiteral(s, caseSensitive: caseSensitive, to: &t) }
                    return t
                })
        default:
            // Values may hold wildcards but not further variables (no recursion on input).
            let values = variables[name] ?? []
            return .alternatives(
                values.map {
                    tokens($0, caseSensitive: caseSensitive, variables: [:], expandVariables: false)
                })
        }
    }

    /// ISO 639-1 language codes (what `$(lang)` accepts).
    static let isoLanguageCodes = """
        aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz \
        ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii \
        ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi \
        mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw \
        sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk \
        ur uz ve vi vo wa wo xh yi yo za zh zu
        """

    /// ISO 3166-1 alpha-2 region codes (what `$(region)` accepts: `GB`, not `UK`).
    static let isoRegionCodes = """
        AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV \
        BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES \
        ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE \
        IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY \
        MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU \
        NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM \
        SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE \
        VG VI VN VU WF WS YE YT ZA ZM ZW
        """
}
