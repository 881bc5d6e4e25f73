import Foundation
import HarkDialogue
import HarkAudio
import HarkRuntime
import HarkTestSupport
import Testing

/// The `hark` executable, run as a person or a script would run it.
@Suite(.serialized) struct CommandLineTests {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    static func executable() throws -> URL {
        try Fixtures.executable("hark")
    }

    static func hark(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = Fixtures.root
        var environment = try isolatedHarkEnvironment()
        environment.merge(extra) { _, given in given }
        process.environment = environment
        let standardInput = Pipe()
        process.standardInput = standardInput
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try standardInput.fileHandleForWriting.write(contentsOf: Data((input ?? "").utf8))
        try standardInput.fileHandleForWriting.close()
        let outputData = try readToEnd(output.fileHandleForReading)
        let errorData = try readToEnd(errors.fileHandleForReading)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                       errors: String(decoding: errorData, as: UTF8.self))
    }

    @Test func runPrintsOneJSONObjectPerRecordingAndWritesReplies() throws {
        let directory = try temporaryDirectory()
        let outcome = try Self.hark([
            "run", "--json", "--apps", "apps", "--reply-out", directory.path,
            "audio-fixtures/home-en/turn_on_the_garage_light.wav",
            "audio-fixtures/synthetic/what_time_is_it.slt.wav",
        ])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let lines = outcome.output.split(separator: "\n")
        try #require(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        for key in ["text", "intent", "slots", "reply", "confidence", "timings"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["text"] as? String == "turn on the garage light")
        #expect(first["intent"] as? String == "ChangeLightState")
        #expect(first["slots"] as? [String: String] == ["state": "on", "name": "garage light"])
        #expect(first["reply"] as? String == "Home: Turning on the garage light.")

        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["intent"] as? String == "GetTime")

        let reply = try WAVFile.read(contentsOf: directory.appendingPathComponent("turn_on_the_garage_light.reply.wav"))
        #expect(reply.duration > 0.8)
    }

    @Test func oneRecordingsReplyGoesIntoAnExistingFolder() throws {
        let directory = try temporaryDirectory()
        let outcome = try Self.hark(["run", "--apps", "apps", "--reply-out", directory.path,
                                     "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let reply = try WAVFile.read(contentsOf: directory.appendingPathComponent("turn_on_the_garage_light.reply.wav"))
        #expect(reply.duration > 0.8)
    }

    @Test func runPrintsAReadableReport() throws {
        let reply = try temporaryDirectory().appendingPathComponent("reply.wav")
        let outcome = try Self.hark(["run", "--apps", "apps", "--reply-out", reply.path,
                                     "audio-fixtures/home-en/turn_living_room_lamp_off.wav"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("heard:      \"turn living room lamp off\""))
        #expect(outcome.output.contains("intent:     home.ChangeLightState"))
        #expect(outcome.output.contains("name = living room lamp"))
        #expect(outcome.output.contains("reply:      \"Home: Turning off the living room lamp.\""))
        #expect(FileManager.default.fileExists(atPath: reply.path))
    }

    @Test func aBadRecordingIsReportedAndTheOthersStillAnswered() throws {
        let directory = try temporaryDirectory()
        let empty = directory.appendingPathComponent("empty.wav")
        try Data().write(to: empty)
        let outcome = try Self.hark(["run", "--json", "--apps", "apps", "--reply-out", directory.path,
                                     empty.path, "audio-fixtures/home-en/what_time_is_it.wav"])
        #expect(outcome.status == 66)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        #expect(lines[0].contains("\"error\""))
        #expect(lines[0].contains("empty.wav"))
        #expect(lines[1].contains("\"intent\":\"GetTime\""))
        #expect(outcome.errors.contains("1 of 2 recordings could not be answered"))
    }

    @Test func aBrokenAppIsExplainedWithItsLine() throws {
        let directory = try temporaryApps(folder: "broken", manifest:
            "name: Broken\nintents:\n  GetThing:\n    phrases: [get <thing>]\n    responses: {success: ok}\n")
        let outcome = try Self.hark(["run", "--apps", directory.path, "audio-fixtures/home-en/what_time_is_it.wav"])
        #expect(outcome.status == 65)
        #expect(outcome.errors.contains("broken/app.yaml:4: phrase \"get <thing>\" names <thing>, which is not a parameter of GetThing"))
    }

    @Test func benchMeasuresAFolderOfLabelledRecordings() throws {
        let report = try temporaryDirectory().appendingPathComponent("bench.json")
        let table = report.deletingLastPathComponent().appendingPathComponent("bench.md")
        let outcome = try Self.hark(["bench", "audio-fixtures/home-en", "--apps", "apps", "--json", report.path,
                                     "--markdown", table.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("commands accepted:    10/10 (100.0%)"))
        // The table docs/benchmarks.md keeps, from the same run.
        let lines = try String(contentsOf: table, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains("| home-en | 10 | 10 / 0 / **0** | 10 | 0 of 0 |"), "\(lines)")
        #expect(outcome.output.contains("real-time factor:"))
        // Where that CPU went, stage by stage, the dearest first.
        let stages = try #require(outcome.output.split(separator: "\n").first { $0.hasPrefix("CPU by stage:") })
        #expect(stages.contains("phone loop ") && stages.contains("grammar ") && stages.contains("the rest "), "\(stages)")
        #expect(outcome.errors.contains("decoding ["))
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect(figures["commandsAccepted"] as? Int == 10)
        let cpu = try #require(figures["decodeCPU"] as? [String: Double])
        let charged = ["audio_s", "grammar_s", "phone_loop_s", "rivals_s", "other_words_s"].compactMap { cpu[$0] }
        #expect(charged.count == 5 && (cpu["phone_loop_s"] ?? 0) > 0, "\(cpu)")
        #expect(charged.reduce(0, +) <= (figures["cpuSeconds"] as? Double ?? 0))
        #expect(figures["falseRejections"] as? Int == 0)
        #expect((figures["peakResidentMegabytes"] as? Double ?? 0) > 10)
    }

    /// A recording cut short (its header promises more than the file holds) is still heard, and
    /// the run warns that part of it is missing.
    @Test func runWarnsAboutACutShortRecordingAndHearsWhatIsThere() throws {
        let directory = try temporaryDirectory()
        let whole = try Data(contentsOf: Fixtures.audio("home-en/what_time_is_it.wav"))
        let cut = directory.appendingPathComponent("cut.wav")
        try whole.prefix(whole.count * 9 / 10).write(to: cut)
        let outcome = try Self.hark(["run", cut.path, "--apps", "apps", "--reply-out", directory.appendingPathComponent("reply.wav").path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.errors.contains("hark: warning: cut.wav: cut short: its data chunk declares"), "\(outcome.errors)")
        #expect(outcome.errors.contains("s missing)"))
        #expect(outcome.output.contains("GetTime"))
        let fine = try Self.hark(["run", "audio-fixtures/home-en/what_time_is_it.wav", "--apps", "apps",
                                  "--reply-out", directory.appendingPathComponent("reply2.wav").path])
        #expect(!fine.errors.contains("cut short"))
    }

    /// The soak answers every utterance asked for, with speech, and reports memory at each
    /// checkpoint and at the end.
    @Test func benchSoakAnswersEveryUtteranceAndReportsMemoryAtEachCheckpoint() throws {
        let json = try temporaryDirectory().appendingPathComponent("soak.json")
        let outcome = try Self.hark(["bench-soak", "audio-fixtures/home-en", "--apps", "apps", "--utterances", "12",
                                     "--checkpoints", "5,10", "--json", json.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("10 recordings, 12 utterances"), "\(outcome.output)")
        #expect(outcome.output.contains("understood 12 of 12, 12 replies spoken"), "\(outcome.output)")
        let checkpoints = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [[String: Any]])
        #expect(checkpoints.compactMap { $0["utterances"] as? Int } == [5, 10, 12])
        #expect(checkpoints.allSatisfy { ($0["residentMegabytes"] as? Double ?? 0) > 10 })
        let bad = try Self.hark(["bench-soak", "audio-fixtures/home-en", "--checkpoints", "5,x"])
        #expect(bad.status == 64 && bad.errors.contains("--checkpoints takes positive whole numbers"), "\(bad.errors)")
    }

    @Test func benchCountsOutsideSpeechAsFalseAcceptancesOnlyWhenAccepted() throws {
        let directory = try temporaryDirectory()
        for name in ["outside.the_quick_brown_fox.awb", "outside.open_the_front_door.slt", "tell_me_the_time.kal16"] {
            for ext in ["wav", "json"] {
                try FileManager.default.copyItem(at: Fixtures.audio("synthetic/\(name).\(ext)"),
                                                 to: directory.appendingPathComponent("\(name).\(ext)"))
            }
        }
        let outcome = try Self.hark(["bench", directory.path, "--apps", "apps"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("recordings:           3 (1 in the grammar, 2 to reject)"))
        #expect(outcome.output.contains("false acceptances:    0/2 (0.0%)"))
        #expect(outcome.output.contains("commands accepted:    1/1 (100.0%)"))
        #expect(outcome.output.contains("by margin threshold (rejecting below it):"))
        #expect(outcome.output.contains("-1.81  ") && outcome.output.contains("← setting"))
        #expect(outcome.output.contains("loosest threshold with ≤ 1% false acceptances:"))
    }

    /// Speech that must be rejected but is heard as one of Hark's own commands is acted on
    /// (here the loudspeaker would be turned up), so it counts as a false acceptance, not as
    /// nothing understood; the report says how many were heard so. Hark's own voice (real
    /// espeak-ng) says "turn it up", labelled as speech to reject, and is judged at a threshold
    /// loose enough to take it whatever its margin.
    @Test func benchCountsSpeechHeardAsHarksOwnCommandsAsFalseAcceptances() throws {
        let directory = try temporaryDirectory()
        let spoken = directory.appendingPathComponent("turn_it_up.wav")
        let said = try Self.hark(["say", "turn it up", "--out", spoken.path])
        #expect(said.status == 0, "\(said.errors)")
        try Data(#"{"text": "turn it up", "intent": null}"#.utf8).write(to: directory.appendingPathComponent("turn_it_up.json"))
        let report = try temporaryDirectory().appendingPathComponent("bench.json")
        let outcome = try Self.hark(["bench", directory.path, "--apps", "apps", "--rejection-margin", "-6", "--json", report.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("false acceptances:    1/1 (100.0%)   (1 heard as phrases of Hark's own)"), "\(outcome.output)")
        #expect(outcome.output.contains("turn_it_up.wav: must be rejected, heard \"turn it up\" as Hark's own hark.louder"),
                "\(outcome.output)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let heard = try #require((figures["outcomes"] as? [[String: Any]])?.first)
        #expect(heard["builtIn"] as? String == "hark.louder")
        #expect(heard["understood"] as? Bool == true)
        #expect(figures["falseAcceptancesAsOwnPhrases"] as? Int == 1)
    }

    @Test func benchWithBaselineDecodesEveryRecordingWithPlainPocketsphinxToo() throws {
        let directory = try temporaryDirectory()
        for name in ["what_time_is_it", "turn_on_the_garage_light"] {
            for ext in ["wav", "json"] {
                try FileManager.default.copyItem(at: Fixtures.audio("home-en/\(name).\(ext)"),
                                                 to: directory.appendingPathComponent("\(name).\(ext)"))
            }
        }
        for ext in ["wav", "json"] {
            try FileManager.default.copyItem(at: Fixtures.audio("synthetic/outside.the_quick_brown_fox.awb.\(ext)"),
                                             to: directory.appendingPathComponent("outside.\(ext)"))
        }
        let report = try temporaryDirectory().appendingPathComponent("bench.json")
        let outcome = try Self.hark(["bench", directory.path, "--apps", "apps", "--baseline", "--json", report.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("plain pocketsphinx (same model and grammar, default settings, no rejection):"))
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let baseline = try #require(figures["baseline"] as? [String: Any])
        // Two real voices saying phrases of the grammar: plain pocketsphinx hears both right.
        #expect(baseline["commandsAccepted"] as? Int == 2)
        // It rejects nothing it can force onto a phrase; whatever it did is counted once.
        #expect((baseline["falseAcceptances"] as? Int).map { (0...1).contains($0) } == true)
        let outcomes = try #require(figures["outcomes"] as? [[String: Any]])
        #expect(outcomes.count == 3 && outcomes.allSatisfy { $0["baseline"] is [String: Any] })
    }

    @Test func benchTakesSeveralFoldersAndReportsEach() throws {
        let first = try temporaryDirectory(), second = try temporaryDirectory()
        for (directory, name) in [(first, "what_time_is_it"), (second, "turn_on_the_garage_light")] {
            for ext in ["wav", "json"] {
                try FileManager.default.copyItem(at: Fixtures.audio("home-en/\(name).\(ext)"),
                                                 to: directory.appendingPathComponent("\(name).\(ext)"))
            }
        }
        let report = try temporaryDirectory().appendingPathComponent("bench.json")
        let outcome = try Self.hark(["bench", first.path, second.path, "--apps", "apps", "--json", report.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("recordings:           2 (2 in the grammar, 0 to reject)"))
        #expect(outcome.output.contains("by folder:"))
        #expect(outcome.output.contains("  \(first.lastPathComponent): commands 1/1 (100.0%)"))
        // Each folder's own real-time factor, from the CPU each recording took.
        let firstLine = try #require(outcome.output.split(separator: "\n").first { $0.hasPrefix("  \(first.lastPathComponent): ") })
        #expect(firstLine.contains(", real-time factor 0."), "\(firstLine)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        #expect((figures["thresholds"] as? [Any])?.count == 18)
        let outcomes = try #require(figures["outcomes"] as? [[String: Any]])
        #expect(outcomes.count == 2)
        #expect(outcomes.allSatisfy { ($0["cpuSeconds"] as? Double ?? 0) > 0 && ($0["audioSeconds"] as? Double ?? 0) > 1 })
        // Every word heard keeps its fit, in order, so rules judging words one by one can be
        // tried on a report; the weakest word is one of them.
        let light = try #require(outcomes.first { ($0["recording"] as? String) == "turn_on_the_garage_light.wav" })
        let fits = try #require(light["wordFits"] as? [[String: Any]])
        #expect(fits.compactMap { $0["word"] as? String } == ["turn", "on", "the", "garage", "light"])
        #expect(fits.allSatisfy { ($0["frames"] as? Int ?? 0) > 0 })
        let weakest = try #require(light["weakestWord"] as? [String: Any])
        #expect(fits.contains { $0["word"] as? String == weakest["word"] as? String
                                && $0["margin"] as? Double == weakest["margin"] as? Double })
        #expect(try Self.hark(["bench", first.path, "/nonexistent", "--apps", "apps"]).status == 64)
    }

    @Test func sentencesDrawsLabelledSentencesOfEveryAppTheSameWayForTheSameSeed() throws {
        let first = try Self.hark(["sentences", "--apps", "apps", "--per-phrase", "2", "--seed", "5"])
        #expect(first.status == 0, "stderr: \(first.errors)")
        let again = try Self.hark(["sentences", "--apps", "apps", "--per-phrase", "2", "--seed", "5"])
        #expect(again.output == first.output)
        let other = try Self.hark(["sentences", "--apps", "apps", "--per-phrase", "2", "--seed", "6"])
        #expect(other.output != first.output)

        struct Line: Decodable {
            struct Intent: Decodable { var name: String }
            var text: String
            var intent: Intent
            var slots: [String: String]
            var app: String
        }
        let lines = try first.output.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(Set(lines.map(\.app)) == ["coffee", "home", "meditation", "messages", "soup"])
        #expect(first.errors.contains("hark: \(lines.count) sentences;"))
        // A light switched by name and state says both, and the label names the same light.
        let switches = lines.filter { $0.intent.name == "ChangeLightState" }
        #expect(!switches.isEmpty)
        for line in switches {
            #expect(line.text.hasPrefix("turn "))
            #expect(line.text.contains(try #require(line.slots["name"]).replacingOccurrences(of: "_", with: " ")))
            #expect(["on", "off"].contains(line.slots["state"]))
        }
        #expect(try Self.hark(["sentences", "--apps", "apps", "--per-phrase", "0"]).status == 64)
    }

    @Test func pronounceTellsWhereAPronunciationComesFrom() throws {
        let out = try temporaryDirectory().appendingPathComponent("words.wav")
        let outcome = try Self.hark(["pronounce", "garage", "Zorblax", "--out", out.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("garage: G ER AA ZH   (dictionary)"))
        #expect(outcome.output.contains("zorblax: Z AO R B L AE K S   (espeak-ng)"))
        #expect(try WAVFile.read(contentsOf: out).duration > 0.5)
    }

    /// An app's pronunciation is named as the source, and the word is spoken from it: the same
    /// audio as "fish", which its phones spell (each run is a fresh espeak-ng, so the same).
    @Test func pronounceSaysAnAppsWordFromItsPhones() throws {
        let folder = try temporaryDirectory()
        let ghoti = folder.appendingPathComponent("ghoti.wav")
        let fish = folder.appendingPathComponent("fish.wav")
        let outcome = try Self.hark(["pronounce", "ghoti", "--apps", try SpokenPronunciationTests.aquarium().path,
                                     "--out", ghoti.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("ghoti: F IH SH   (app Aquarium)"))
        #expect(try Self.hark(["say", "fish", "--out", fish.path]).status == 0)
        #expect(try WAVFile.read(contentsOf: ghoti).samples == WAVFile.read(contentsOf: fish).samples)
        // The project lexicon comes first, and is named.
        let models = try temporaryDirectory()
        try "ghoti G IH SH\n".write(to: models.appendingPathComponent("lexicon.dict"), atomically: true, encoding: .utf8)
        let fromLexicon = try Self.hark(["pronounce", "ghoti", "--quiet", "--apps", try SpokenPronunciationTests.aquarium().path],
                                        environment: ["HARK_MODELS": models.path])
        #expect(fromLexicon.output.contains("ghoti: G IH SH   (models/lexicon.dict)"), "\(fromLexicon.output) \(fromLexicon.errors)")
        let missing = try Self.hark(["pronounce", "ghoti", "--apps", folder.appendingPathComponent("none").path, "--quiet"])
        #expect(missing.status == 65)
        #expect(missing.errors.contains("no such apps directory"))
    }

    @Test func sayWritesSpeech() throws {
        let out = try temporaryDirectory().appendingPathComponent("hello.wav")
        let outcome = try Self.hark(["say", "Hello from Hark", "--out", out.path, "--rate", "200"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let clip = try WAVFile.read(contentsOf: out)
        #expect(clip.duration > 0.5)
    }

    /// The README's and --help's example voice is a language, not a voice file's name.
    @Test func sayTakesAVoiceByItsLanguage() throws {
        let out = try temporaryDirectory().appendingPathComponent("british.wav")
        let outcome = try Self.hark(["say", "Hello from Hark", "--out", out.path, "--voice", "en-gb"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(try WAVFile.read(contentsOf: out).duration > 0.5)
        let unknown = try Self.hark(["say", "Hello", "--out", out.path, "--voice", "xx-nowhere"])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("xx-nowhere"), "stderr: \(unknown.errors)")
    }

    /// A negative level is read as --simulate-echo's value, written apart as in the README.
    @Test func aNegativeEchoLevelIsReadAsTheValue() throws {
        let outcome = try Self.hark(["listen", "--apps", "apps", "--simulate-echo", "-6"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("give --input too"), "stderr: \(outcome.errors)")
    }

    @Test func badFlagsAreRefusedWithAReason() throws {
        let outcome = try Self.hark(["say", "Hello", "--rate", "9000", "--out", "/tmp/x.wav"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("--rate 9000 is outside"))
        let band = try Self.hark(["run", "--apps", "apps", "--ask-band", "-0.5", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(band.status == 64)
        #expect(band.errors.contains("--ask-band must be a width of 0 or more"))
        let gate = try Self.hark(["bench-wake", "--corpus", "audio-fixtures", "--mean-gate", "61"])
        #expect(gate.status == 64)
        #expect(gate.errors.contains("--mean-gate is how many dB above the room's level (between 0 and 60, e.g. 6) or none, not 61"))
        let denoise = try Self.hark(["bench-wake", "--corpus", "audio-fixtures", "--denoise-above", "loud"])
        #expect(denoise.status == 64)
        #expect(denoise.errors.contains("--denoise-above is the room level in dBFS (between -90 and 0, e.g. -55) or none, not loud"))
        let noisy = try Self.hark(["run", "--apps", "apps", "--confirm-in-noise-below", "loud", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(noisy.status == 64)
        #expect(noisy.errors.contains("--confirm-in-noise-below is a signal-to-noise ratio from -20 to 80 dB (e.g. 20) or none, not loud"), "\(noisy.errors)")
        let telephone = try Self.hark(["run", "--apps", "apps", "--confirm-telephone-band", "often", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(telephone.status == 64)
        #expect(telephone.errors.contains("--confirm-telephone-band is how far above the rejection margin to ask (0 to 5, e.g. 0.6) or none, not often"), "\(telephone.errors)")
        let requests = try Self.hark(["run", "--apps", "apps", "--request-denoise-above", "loud", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(requests.status == 64)
        #expect(requests.errors.contains("--request-denoise-above is the room level in dBFS (between -90 and 0, e.g. -50) or none, not loud"))
        let ratio = try Self.hark(["run", "--apps", "apps", "--request-denoise-below", "loud", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(ratio.status == 64)
        #expect(ratio.errors.contains("--request-denoise-below is a signal-to-noise ratio from -20 to 80 dB (e.g. 14) or none, not loud"), "\(ratio.errors)")
        let headroom = try Self.hark(["run", "--apps", "apps", "--noise-floor-headroom", "70", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(headroom.status == 64)
        #expect(headroom.errors.contains("--noise-floor-headroom is how many dB below the voice to keep the noise floor (0 to 60, e.g. 20) or none, not 70"))
        let fillers = try Self.hark(["run", "--apps", "apps", "--filler-probability", "2", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(fillers.status == 64)
        #expect(fillers.errors.contains("--filler-probability is a probability from 1e-10 to 1 (e.g. 0.5) or default, not 2"), "\(fillers.errors)")
        let words = try Self.hark(["run", "--apps", "apps", "--other-words", "/nonexistent/words.txt", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(words.status == 64)
        #expect(words.errors.contains("--other-words: cannot read the list of other words /nonexistent/words.txt"), "\(words.errors)")
        let compensation = try Self.hark(["run", "--apps", "apps", "--noise-compensation", "/nonexistent/en-us.splice", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(compensation.status == 64)
        #expect(compensation.errors.contains("--noise-compensation: cannot read the noise compensation /nonexistent/en-us.splice"), "\(compensation.errors)")
        let notOne = try Self.hark(["run", "--apps", "apps", "--noise-compensation", "models/en-us.mllr", "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(notOne.status == 64)
        #expect(notOne.errors.contains("models/en-us.mllr is not a noise compensation (hark-noise-compensation 1): its first line is neither"), "\(notOne.errors)")
    }

    @Test func listenWithoutASoundCardSaysSoPlainly() throws {
        guard !AudioDevices.hasSoundCard() else { return }
        let outcome = try Self.hark(["listen", "--apps", "apps"])
        #expect(outcome.status == 69)
        #expect(outcome.errors.contains("no sound card"))
        #expect(outcome.errors.contains("hark run"))
    }
}

/// `hark chat` and `hark pin`, run as a person would.
@Suite struct ChatCommandTests {
    @Test func playsAScriptAndFailsOnAMismatch() throws {
        let passing = try CommandLineTests.hark(["chat", "--apps", "apps", "--script", "Tests/Conversations/meditation.chat"])
        #expect(passing.status == 0, "\(passing.errors)")
        #expect(passing.output.contains("hark: Serene: Starting your sleep meditation."))
        #expect(passing.output.contains("(6 turns, all as expected)"))

        let directory = try temporaryDirectory()
        let script = directory.appendingPathComponent("wrong.chat")
        try "you: start sleep meditation in serene\nhark: Starting your nap.\n".write(to: script, atomically: true, encoding: .utf8)
        let failing = try CommandLineTests.hark(["chat", "--apps", "apps", "--script", script.path])
        #expect(failing.status == 1)
        #expect(failing.errors.contains("line 1: expected \"Starting your nap.\", got \"Serene: Starting your sleep meditation.\""))
    }

    @Test func refusesABrokenScript() throws {
        let directory = try temporaryDirectory()
        let script = directory.appendingPathComponent("broken.chat")
        try "hark: hello\n".write(to: script, atomically: true, encoding: .utf8)
        let outcome = try CommandLineTests.hark(["chat", "--apps", "apps", "--script", script.path])
        #expect(outcome.status == 65)
        #expect(outcome.errors.contains("line 1: \"hark:\" must follow a \"you:\" line"))
    }

    @Test func setsChecksAndClearsThePIN() async throws {
        let file = try temporaryDirectory().appendingPathComponent("pin")
        #expect(try CommandLineTests.hark(["pin", "status", "--file", file.path]).output.contains("No PIN is set"))
        let set = try CommandLineTests.hark(["pin", "set", "--file", file.path], input: "2468\n")
        #expect(set.status == 0, "\(set.errors)")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try !String(contentsOf: file, encoding: .utf8).contains("2468"))
        #expect(await PINFile(url: file).verify("2468"))
        #expect(await !PINFile(url: file).verify("2469"))
        #expect(try CommandLineTests.hark(["pin", "set", "--file", file.path], input: "12\n").status == 64)
        #expect(try CommandLineTests.hark(["pin", "clear", "--file", file.path]).status == 0)
        #expect(await !PINFile(url: file).isSet())
    }
}
