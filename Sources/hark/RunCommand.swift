import ArgumentParser
import Foundation
import HarkAudio
import HarkRuntime

/// `hark run`: answer recorded requests, as if they had been spoken to the box.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Understand recorded requests and speak the replies.",
        discussion: """
        Each recording (a WAV file of any common rate and layout) is decoded against the phrases of \
        the installed apps by one warm decoder. For each, Hark prints what it heard, the intent and \
        values it resolved, its confidence and its reply, and plays the reply on the default sound \
        device, or writes it with --reply-out. With several recordings, --reply-out names a folder \
        and each reply is written there as NAME.reply.wav.
        """)

    @Argument(help: ArgumentHelp("Recordings to answer (WAV).", valueName: "recording.wav"))
    var recordings: [String]

    @OptionGroup var apps: AppsOptions
    @OptionGroup var voice: VoiceOptions
    @OptionGroup var recognizer: RecognizerOptions

    @Option(help: ArgumentHelp("Write the spoken reply to this WAV file, or into this folder as NAME.reply.wav (always when several recordings are given).",
                               valueName: "path"))
    var replyOut: String?

    @Flag(help: "Record what was done in the owner's history (donations, which suggestions learn from), as the device does. Off: replayed recordings are not the owner's habits.")
    var donate = false

    @Flag(help: "Print one JSON object per recording (keys: text, intent, app, slots, reply, confidence, rejected, timings).")
    var json = false

    func validate() throws {
        guard !recordings.isEmpty else { throw ValidationError("give at least one recording") }
        if recordings.count > 1, let replyOut, replyOut.lowercased().hasSuffix(".wav") {
            throw ValidationError("with several recordings, --reply-out names a folder, not \(replyOut)")
        }
    }

    func run() async throws {
        let assistant: Assistant
        do {
            assistant = try await startAssistant(apps: apps, recognizer: recognizer, voice: voice.settings, donates: donate)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
        for problem in assistant.startupProblems { printError("hark: warning: \(problem)") }
        let player = ReplyPlayer(replyOut: replyOut, several: recordings.count > 1)
        var failures = 0
        for path in recordings {
            do {
                let (report, reply) = try await assistant.answer(recordingAt: URL(fileURLWithPath: path))
                for warning in report.warnings { printError("hark: warning: \(warning)") }
                print(json ? try report.jsonLine() : report.humanReadable())
                try player.deliver(reply, for: path, quiet: json)
            } catch {
                failures += 1
                let (message, _) = explain(error)
                if json {
                    print(try errorLine(recording: path, message: message))
                } else {
                    printError("hark: \(path): \(message)")
                }
            }
        }
        if failures > 0 {
            printError("hark: \(failures) of \(recordings.count) recordings could not be answered")
            throw ExitCode(ExitStatus.noInput)
        }
    }

    private func errorLine(recording: String, message: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(["recording": recording, "error": message]), as: UTF8.self)
    }
}

/// Sends a reply where the person asked: a file, a folder, or the sound card.
struct ReplyPlayer {
    var replyOut: String?
    var several: Bool

    func deliver(_ reply: AudioClip, for recording: String, quiet: Bool) throws {
        var target = replyOut
        // Several recordings, or one with an existing folder named: the reply goes inside it.
        if let replyOut, several || Self.isFolder(replyOut) {
            let folder = URL(fileURLWithPath: replyOut)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = URL(fileURLWithPath: recording).deletingPathExtension().lastPathComponent
            target = folder.appendingPathComponent("\(name).reply.wav").path
        }
        let delivered = try SpeechOutput.deliver(reply, to: target)
        guard !quiet else { return }
        if let target {
            print("  reply audio: \(target)")
        } else if !delivered {
            print("  (no sound card: the reply was not played; --reply-out FILE writes it)")
        }
    }

    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
