import Foundation
import HarkGrammar
import HarkIntents
import HarkNumbers
import Testing

/// Numbers, money, durations and dates as people say them, both ways: the
/// grammar accepts the words, and the reader turns them into values.
@Suite struct ValueReaderTests {
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }

    /// Monday 23 November 2026, 10:00 UTC.
    static let reader = ValueReader(
        now: calendar.date(from: DateComponents(year: 2026, month: 11, day: 23, hour: 10)) ?? Date(), calendar: calendar)

    static func read(_ said: String, _ type: ParameterType) -> ValueReader.Reading {
        let words = Grammar.words(of: said)
        // The words must be in the type's grammar, as the recogniser would have constrained them.
        let grammar = Grammar(rules: [Grammar.Rule(tag: "t", template: (try? PhraseTemplate("<v>")) ?? { preconditionFailure() }(),
                                                   parameterValues: ["v": "v"])],
                              values: ["v": ValueReader.spokenValues(of: type)])
        guard let heard = WordGraph(grammar).interpret(words)?.values["v"] else { return .notAValue }
        return reader.read(heard.spoken, identifier: heard.identifier, type: type)
    }

    static func value(_ said: String, _ type: ParameterType) -> String? {
        if case .value(let value) = read(said, type) { return value.identifier }
        return nil
    }

    @Test func numberWordsBothWays() {
        for number in [0, 7, 13, 20, 42, 100, 105, 999, 1000, 2024, 999_999] {
            let spoken = NumberWords.spoken(number) ?? ""
            #expect(NumberWords.parse(Grammar.words(of: spoken)) == number, "\(number) → \(spoken)")
        }
        #expect(NumberWords.parse(["a", "hundred", "and", "five"]) == 105)
        #expect(NumberWords.parse(["banana"]) == nil)
    }

    @Test func integersInAndOutOfRange() {
        #expect(Self.value("three", .integer(1...10)) == "3")
        // A small range is listed value by value: eleven is not in the grammar at all.
        #expect(Self.read("eleven", .integer(1...10)) == .notAValue)
        // A large range uses the general number pattern and checks the range after.
        #expect(Self.value("two hundred and fifty", .integer(1...500)) == "250")
        #expect(Self.read("six hundred", .integer(1...500)) == .unsupported("That has to be between 1 and 500."))
        // In steps: a large range checks the step after reading the number.
        #expect(Self.value("two hundred and fifty", .integer(0...100_000, step: 50)) == "250")
        #expect(Self.read("two hundred and five", .integer(0...100_000, step: 50)) == .unsupported("That has to be in steps of 50."))
    }

    @Test func decimalsAndMoney() {
        #expect(Self.value("two point five", .decimal(0...10, step: 0.5)) == "2.5")
        #expect(Self.read("two point two", .decimal(0...10, step: 0.5)) == .unsupported("That has to be in steps of 0.5."))
        #expect(Self.value("two dollars fifty", .currency(0...100)) == "2.50")
        #expect(Self.value("three dollars and five cents", .currency(0...100)) == "3.05")
        #expect(Self.value("ninety nine cents", .currency(0...100)) == "0.99")
        if case .value(let value) = Self.read("twelve dollars", .currency(0...100)) { #expect(value.spoken == "$12.00") }
    }

    @Test func durations() {
        #expect(Self.value("five minutes", .duration) == "300")
        #expect(Self.value("an hour and a half", .duration) == "5400")
        #expect(Self.value("half an hour", .duration) == "1800")
        #expect(Self.value("two hours and ten minutes", .duration) == "7800")
        #expect(Self.value("five and a half minutes", .duration) == "330")
        #expect(Self.value("two hours and a half", .duration) == "9000")
        #expect(Self.value("a quarter of an hour", .duration) == "900")
        #expect(Self.value("three quarters of an hour", .duration) == "2700")
        if case .value(let value) = Self.read("ninety seconds", .duration) { #expect(value.spoken == "1 minute and 30 seconds") }
    }

    @Test func datesAndTimes() {
        #expect(Self.value("tomorrow at seven thirty p.m.", .dateTime) == "2026-11-24T19:30")
        #expect(Self.value("at noon", .dateTime) == "2026-11-23T12:00")
        // Seven with no day: 7 a.m. has passed at 10:00, so the next seven is this evening.
        #expect(Self.value("at seven", .dateTime) == "2026-11-23T19:00")
        #expect(Self.value("friday", .dateTime) == "2026-11-27")
        #expect(Self.value("monday at nine in the morning", .dateTime) == "2026-11-30T09:00")
        #expect(Self.value("tonight at eight", .dateTime) == "2026-11-23T20:00")
        if case .value(let value) = Self.read("tomorrow at seven oh five a.m.", .dateTime) {
            #expect(value.spoken == "tomorrow at 7:05 AM")
        }
    }

    @Test func booleans() {
        #expect(Self.value("yeah", .boolean) == "true")
        #expect(Self.value("nope", .boolean) == "false")
    }
}
