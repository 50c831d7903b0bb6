#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A tolerance option that cannot be used, naming the option and the offending value.
///
/// `description` is a complete sentence for a command line or a report, for example
/// `--max-channel-delta: 300 is outside 0-255`.
public struct ToleranceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the value.
    public enum Problem: Sendable, Equatable {
        /// The text is neither `N` nor `N-M` with decimal digits.
        case notARange
        /// The text is not a number (perceptual threshold).
        case notANumber
        /// `N-M` with `N` greater than `M`.
        case reversedRange
        /// A pixel count below zero.
        case negative
        /// A value outside the allowed interval, written like `0-255` or `0-1`.
        case outside(allowed: String)
        /// NaN or an infinity.
        case notFinite
        /// A JSON value that should be `true` or `false` and is not.
        case notTrueOrFalse
        /// A JSON key that no tolerance or configuration knows.
        case unknownKey(expected: [String])
        /// A word that is not one of those the option takes.
        case notOneOf(expected: [String])
        /// A value that is neither one of those words nor a list of them.
        case notWordsOf(expected: [String])
    }

    /// The option as the user wrote it: `--max-channel-delta`, `--different-pixels`,
    /// `--perceptual`, or a JSON key such as `maxChannelDelta` or `countAntiAliasing`.
    public let option: String
    /// The offending value or text, as written or as a number.
    public let value: String
    public let problem: Problem

    public init(option: String, value: String, problem: Problem) {
        self.option = option
        self.value = value
        self.problem = problem
    }

    public var description: String {
        switch problem {
        case .notARange:
            return "\(option): \"\(value)\" is not a count or range (write N for 0-N, or N-M)"
        case .notANumber:
            return "\(option): \"\(value)\" is not a number (write a value from 0 to 1, e.g. 0.1, or off)"
        case .reversedRange:
            return "\(option): \"\(value)\" has its lower bound above its upper bound"
        case .negative:
            return "\(option): \(value) is negative"
        case .outside(let allowed):
            return "\(option): \(value) is outside \(allowed)"
        case .notFinite:
            return "\(option): \(value) is not a finite number"
        case .notTrueOrFalse:
            return "\(option): \(value) is not true or false"
        case .unknownKey(let expected):
            return "\(option): unknown key \"\(value)\" (expected one of \(expected.joined(separator: ", ")))"
        case .notOneOf(let expected):
            return "\(option): \(value) is not one of \(expected.joined(separator: ", "))"
        case .notWordsOf(let expected):
            return "\(option): \(value) is not one of \(expected.joined(separator: ", ")) or a list of them"
        }
    }
}

extension ToleranceError: LocalizedError {
    public var errorDescription: String? { description }
}
