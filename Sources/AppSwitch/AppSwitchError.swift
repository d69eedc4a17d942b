// The one error type of the app-switch builders and parsers (Swish, BankID, ROAMpay X).
import NavigationPolicy
import PlainviewURL

/// Why an app-switch URL could not be built or a returned URL could not be read.
/// Every case names the field (query parameter) it is about and says what was expected.
public enum AppSwitchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `field` has `value`, which breaks `rule` (a short statement of what the protocol requires).
    case invalidField(field: String, rule: String, value: String)
    /// A required field is absent (or empty where the protocol needs a value).
    case missingField(field: String, rule: String)
    /// A field appears more than once, so which value the app would read is undefined.
    case duplicateField(field: String)
    /// The URL is not one this protocol produces or accepts.
    case unrecognizedURL(url: String, expected: String)
    /// A returned payload (ROAMpay X `transactionResponse`) could not be decoded.
    case malformedResponse(field: String, reason: String)

    /// The field (query parameter) the error is about, if any.
    public var field: String? {
        switch self {
        case .invalidField(let f, _, _), .missingField(let f, _), .duplicateField(let f), .malformedResponse(let f, _): f
        case .unrecognizedURL: nil
        }
    }

    /// The rule that was broken, as a short phrase.
    public var rule: String {
        switch self {
        case .invalidField(_, let r, _), .missingField(_, let r): r
        case .duplicateField: "must appear at most once"
        case .unrecognizedURL(_, let expected): expected
        case .malformedResponse(_, let reason): reason
        }
    }

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .invalidField(let field, let rule, let value):
            "\(field): \(rule) (got \(AppSwitchError.quote(value)))"
        case .missingField(let field, let rule):
            "\(field): is required; \(rule)"
        case .duplicateField(let field):
            "\(field): appears more than once; give it once so the app reads a single value"
        case .unrecognizedURL(let url, let expected):
            "\(AppSwitchError.quote(url)) is not \(expected)"
        case .malformedResponse(let field, let reason):
            "\(field): \(reason)"
        }
    }

    /// Quotes a value for a message, cut to a readable length and with control characters escaped.
    static func quote(_ value: String) -> String {
        var out = "\""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == 120 { out += "…"; break }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u{" + hex + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return out + "\""
    }
}
