import Foundation
import HarkAudio
import HarkDialogue
import HarkExampleApps
import HarkRuntime
import HarkSpeech
import HarkTestSupport
import Testing

/// A PIN said aloud never reaches a log, a report or a script's output: its words are shown as
/// `hiddenPIN`.
@Suite(.serialized) struct SpokenPINTests {
    static let digits = ["one", "two", "three", "four"]

    /// "Jarvis", then the grind conversation (order, yes, yes, "one two three four"), with
    /// pauses for Hark's replies, as a microphone would hear it.
    static func session() throws -> URL {
        let live = try WAVFile.read(contentsOf: Fixtures.audio("live/session.wav"))
        // The first wake word of the live session and the quiet around it (see live/session.txt).
        var samples = Array(live.samples[0..<Int(2.793 * Double(live.sampleRate))])
        // Room for each reply (a microphone does not hear them), and not so long that Hark
        // stops waiting for the answer.
        for (turn, pause) in zip(1...4, [6.0, 7.0, 3.5, 5.0]) {
            let clip = try WAVFile.read(contentsOf: Fixtures.audio("conversations/grind.\(turn).wav"))
            #expect(clip.sampleRate == live.sampleRate && clip.channels == 1)
            samples += clip.samples + [Float](repeating: 0, count: Int(pause * Double(live.sampleRate)))
        }
        let file = try temporaryDirectory().appendingPathComponent("pin-session.wav")
        try WAVFile.write(AudioClip(samples: samples, sampleRate: live.sampleRate, channels: 1), to: file)
        return file
    }

    /// The environment of a `hark` child whose owner set the PIN 1234.
    static func environmentWithPIN() throws -> [String: String] {
        let config = try temporaryDirectory()
        var file = PINFile(url: config.appendingPathComponent("hark/pin"))
        file.iterations = 1_000
        try file.set("1234")
        var environment = try isolatedHarkEnvironment()
        environment["XDG_CONFIG_HOME"] = config.path
        return environment
    }

    /// The PIN said, in words or digits; "1234" inside a longer number (a timing such as
    /// 0.0366606712341) is no PIN.
    static func showsNoDigit(_ text: String) -> Bool {
        !text.contains("one two") && !text.contains("three four")
            && text.range(of: #"(?<![0-9.])1234(?![0-9])"#, options: .regularExpression) == nil
    }

    @Test func thePINIsFoundAsWordsOrDigitsButNotInsideAnotherNumber() {
        #expect(!Self.showsNoDigit(#"{"text":"1234"}"#) && !Self.showsNoDigit("heard one two three four"))
        #expect(Self.showsNoDigit(#"{"decode_s":0.03666067123413086,"reply":"$12.00"}"#))
    }

    @Test func listenShowsTheSpokenPINAsDotsInJSONAndForAPerson() throws {
        let session = try Self.session()
        let environment = try Self.environmentWithPIN()
        let config = try ListenCommandTests.emptyConfig()
        let arguments = ["listen", "--input", session.path, "--apps", "apps", "--config", config, "--rejection-margin", "-4"]

        let json = try CommandLineTests.hark(arguments + ["--json"], environment: environment)
        #expect(json.status == 0, "\(json.errors)")
        let turns = try ListenCommandTests.jsonLines(json.output).filter { $0["event"] as? String == "turn" }
        let reports = turns.compactMap { $0["report"] as? [String: Any] }
        #expect(reports.last?["reply"] as? String == "OK. Your coarse-ground coffee is on its way.", "\(json.output)")
        #expect(reports.last?["text"] as? String == hiddenPIN)
        #expect(Self.showsNoDigit(json.output + json.errors), "\(json.output)")

        // For a person (the journal's line a turn is made from the same report).
        let printed = try CommandLineTests.hark(arguments + ["--log-level", "debug"], environment: environment)
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output.contains("heard:      \"\(hiddenPIN)\""), "\(printed.output)")
        #expect(Self.showsNoDigit(printed.output + printed.errors), "\(printed.output)")
    }

    @Test func aReportOfTheSpokenPINHidesItsWords() async throws {
        var recognizer = RecognizerConfiguration()
        recognizer.rejectionMargin = -4
        let assistant = try await Assistant.start(AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"),
            modelsDirectory: Fixtures.root.appendingPathComponent("models"),
            recognizer: recognizer, inProcessHandlers: ExampleApps.handlers,
            authenticator: FixedPIN("1234"), dataDirectory: try temporaryDirectory()))
        var reports: [TurnReport] = []
        for turn in 1...4 {
            let (report, _) = try await assistant.answer(recordingAt: Fixtures.audio("conversations/grind.\(turn).wav"),
                                                         continuing: turn > 1)
            reports.append(report)
        }
        let pin = try #require(reports.last)
        #expect(pin.reply == "OK. Your coarse-ground coffee is on its way.")
        #expect(pin.text == hiddenPIN)
        #expect(pin.wordFits.isEmpty && pin.weakestWord == nil && pin.features == nil)
        #expect(Self.showsNoDigit(try pin.jsonLine()))
        #expect(Self.showsNoDigit(pin.humanReadable()))
        #expect(pin.humanReadable().contains("heard:      \"\(hiddenPIN)\""))
        // The turns before it are shown as heard.
        #expect(reports[0].text == "order some ground coffee")
    }

    @Test func aChatScriptShowsThePINItSaysAsDots() throws {
        let script = try temporaryDirectory().appendingPathComponent("order.chat")
        try """
            pin: 1234
            you: order a small dark coffee with oat milk
            hark: Corner Cafe: Your small dark coffee with oat milk comes to $2.25. Ready to order?
            you: yes
            hark: What's your PIN?
            you: one two three four
            hark: OK. Ordering.

            """.write(to: script, atomically: true, encoding: .utf8)
        let outcome = try CommandLineTests.hark(["chat", "--apps", "apps", "--script", script.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("you: \(hiddenPIN)\nhark: OK. Ordering."), "\(outcome.output)")
        #expect(Self.showsNoDigit(outcome.output))
    }

    /// A PIN heard with too little confidence is not asked about ("Did you say one two three
    /// four?" would say it aloud): the question is asked again.
    @Test func anUnsurePINIsNotSaidBack() async throws {
        let data = try temporaryDirectory()
        var engine = try await PINLockoutTests.engine(try {
            var file = PINFile(url: data.appendingPathComponent("pin"))
            file.iterations = 1_000
            try file.set("1234")
            return file
        }(), data: data)
        _ = await engine.respond(to: .text("order a small dark coffee with oat milk"))
        #expect(await engine.respond(to: .text("yes")).speech == "What's your PIN?")
        #expect(engine.isAskingForPIN)
        let unsure = await engine.respond(to: .unsure(Self.digits))
        #expect(Self.showsNoDigit(unsure.speech), "\(unsure.speech)")
        #expect(unsure.expectsAnswer && engine.isAskingForPIN)
        #expect(await engine.respond(to: .text("one two three four")).speech == "OK. Ordering.")
    }
}
