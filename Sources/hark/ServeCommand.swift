import ArgumentParser
import Foundation
import HarkRuntime
import HarkServer
import HarkWyoming
import Logging

/// `hark serve`: Hark as a Wyoming server, for Home Assistant and other Wyoming clients.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve speech recognition, speech and the apps' conversation over the Wyoming protocol (Home Assistant).",
        discussion: """
        Speech recognition: audio streamed as audio-start / audio-chunk / audio-stop (16- or 32-bit PCM, \
        8–192 kHz, 1–8 channels) is answered with a transcript of the installed apps' phrases, or an \
        empty one when Hark rejects what it heard. Speech: synthesize → audio-start, audio-chunk…, \
        audio-stop (16-bit mono). Intents: recognize → intent or not-recognized. Conversation: handle → \
        handled (Hark's reply; each connection keeps its own conversation, so follow-up questions work). \
        Wake word: detect, then streamed audio → detection for each phrase heard, or not-detected at \
        audio-stop; the phrase and sensitivity are the settings file's (wake_phrase, sensitivity).

        The protocol has no authentication: anyone who can connect can use Hark and its apps. It \
        listens on this machine only (127.0.0.1) unless another address is named; keep it on loopback \
        or a unix socket, or restrict the port with a firewall.
        """)

    @Option(help: ArgumentHelp("Where to listen: tcp://HOST:PORT (port 0 picks a free one) or unix://PATH.", valueName: "uri"))
    var uri = WyomingEndpoint.standard.description

    @OptionGroup var apps: AppsOptions
    @OptionGroup var voice: VoiceOptions
    @OptionGroup var recognizer: RecognizerOptions

    @Option(help: ArgumentHelp("Log level: debug (each connection), info, notice, warning (each refused client), error.",
                               valueName: "level"))
    var logLevel: String = "notice"

    func validate() throws {
        do {
            _ = try WyomingEndpoint(uri: uri)
        } catch {
            throw ValidationError(error.description)
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    func run() async throws {
        let logger = LiveLog.start(level: Logger.Level(rawValue: logLevel) ?? .notice, toStandardError: true)
        do {
            let endpoint = try WyomingEndpoint(uri: uri)
            let settings = voice.settings
            let assistant = try await startAssistant(apps: apps, recognizer: recognizer, voice: settings)
            for problem in assistant.startupProblems { logger.warning("\(problem)") }
            var live = try HarkConfigFile.load().live
            try live.pronounceWakePhrase(models: HarkPaths.modelsDirectory())
            let hark = await WyomingAssistant(assistant, version: Hark.configuration.version, voice: settings, wake: live.wakeWord)
            let server = try await WyomingServer.bind(endpoint, serving: hark, logger: logger)
            if !endpoint.isLocalOnly {
                logger.warning("listening beyond this machine on \(server.endpoint): the Wyoming protocol has no authentication, so anyone who can reach the port can use Hark and its apps")
            }
            // The one line on standard output: scripts and tests read the address (and the port chosen for port 0).
            print("hark: serving Wyoming on \(server.endpoint)")
            fflush(nil)

            let task = Task { try await server.run() }
            let stopper = StopSignals { signal in
                logger.notice("\(signal), stopping")
                task.cancel()
            }
            defer { stopper.cancel() }
            do {
                try await task.value
            } catch is CancellationError {
                // Stopped by a signal: a clean end.
            }
        } catch let error as ServerError {
            printError("hark: \(error.description)")
            throw ExitCode(ExitStatus.unavailable)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}
