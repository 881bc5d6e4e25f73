public import Foundation
public import HarkAudio
import HarkGrammar
public import HarkIntents
public import HarkSpeech
public import HarkVoice

/// Everything Hark needs to answer requests: the installed apps, the
/// recogniser with their grammar, and a voice.
public struct AssistantConfiguration: Sendable {
    public var appsDirectory: URL
    public var modelsDirectory: URL?
    public var recognizer: RecognizerConfiguration
    public var voice: VoiceSettings

    public init(appsDirectory: URL, modelsDirectory: URL?, recognizer: RecognizerConfiguration = .init(),
                voice: VoiceSettings = .init()) {
        self.appsDirectory = appsDirectory
        self.modelsDirectory = modelsDirectory
        self.recognizer = recognizer
        self.voice = voice
        if let lexicon = HarkPaths.lexicon(in: modelsDirectory), !self.recognizer.lexicons.contains(lexicon) {
            self.recognizer.lexicons.append(lexicon)
        }
    }
}

/// One request in, one spoken answer out: recognise against the apps'
/// phrases, resolve the intent and its values, and say the reply.
public final class Assistant: Sendable {
    public static let didNotUnderstand = "Sorry, I didn't catch that."

    public let catalog: AppCatalog
    public let recognition: RecognitionService
    public let speech: SpeechService
    public let loadSeconds: Double

    public static func start(_ configuration: AssistantConfiguration) async throws -> Assistant {
        let catalog = try AppCatalog.load(from: configuration.appsDirectory)
        let recognition = RecognitionService()
        var pronounce: (@Sendable (String) throws -> [String])?
        if let pronouncer = try Pronouncer.inModels(configuration.modelsDirectory) {
            pronounce = { word in try pronouncer.phones(of: word) }
        }
        try await recognition.prepare(configuration.recognizer, grammar: catalog.topLevelGrammar(), pronounce: pronounce)
        let speech = try SpeechService(settings: configuration.voice)
        return Assistant(catalog: catalog, recognition: recognition, speech: speech,
                         loadSeconds: await recognition.loadSeconds)
    }

    private init(catalog: AppCatalog, recognition: RecognitionService, speech: SpeechService, loadSeconds: Double) {
        self.catalog = catalog
        self.recognition = recognition
        self.speech = speech
        self.loadSeconds = loadSeconds
    }

    /// Understands a recording and prepares the spoken reply.
    public func answer(recordingAt url: URL) async throws -> (report: TurnReport, reply: AudioClip) {
        let started = Date()
        let clip = try WAVFile.read(contentsOf: url)
        let samples = try clip.pipelineSamples()
        let audioSeconds = Date().timeIntervalSince(started)
        return try await answer(samples: samples, name: url.lastPathComponent, audioSeconds: audioSeconds)
    }

    /// Understands 16 kHz mono audio and prepares the spoken reply.
    /// `speaks: false` skips synthesis (for benchmarks of understanding alone); the reply clip is then empty.
    public func answer(samples: [Int16], name: String, audioSeconds: Double = 0,
                       speaks: Bool = true) async throws -> (report: TurnReport, reply: AudioClip) {
        let (recognized, interpretation) = try await recognition.recognize(samples)
        let match = interpretation.flatMap(catalog.match)
        let replyText = match?.successReply() ?? Self.didNotUnderstand

        let speechStarted = Date()
        let reply = speaks ? try await speech.speak(replyText) : AudioClip(samples: [], sampleRate: 22_050, channels: 1)
        let speechSeconds = Date().timeIntervalSince(speechStarted)

        let report = TurnReport(
            recording: name,
            text: recognized.text,
            intent: match?.intent.name,
            app: match?.app.identifier,
            slots: match?.values.mapValues(\.identifier) ?? [:],
            reply: replyText,
            confidence: recognized.confidence,
            margin: recognized.margin,
            rejected: match == nil,
            rejection: match == nil ? (recognized.rejection ?? "no intent matched the words heard") : nil,
            timings: .init(audioSeconds: audioSeconds, decodeSeconds: recognized.decodeSeconds,
                           speechSeconds: speechSeconds,
                           recordingSeconds: Double(samples.count) / Double(PipelineAudio.sampleRate)))
        return (report, reply)
    }
}
