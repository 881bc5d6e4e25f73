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

    @Flag(help: ArgumentHelp("Announce the service on the local network as _wyoming._tcp (zeroconf, through Avahi's avahi-publish: apt-get install avahi-utils avahi-daemon), so Home Assistant discovers it. Off unless asked for; TCP only."))
    var zeroconf = false

    @Option(help: ArgumentHelp("The name to announce with --zeroconf (default: Hark on HOSTNAME).", valueName: "name"))
    var zeroconfName: String?

    @Option(help: ArgumentHelp("Satellites (hark listen --hub) that claim the same wake word within this many seconds of the first are one request, answered by the room that heard it best.",
                               valueName: "s"))
    var roomsWindow = WakeArbiter.defaultWindow

    @Option(help: ArgumentHelp("Close a connection on which nothing is sent or received for this many seconds, telling the client why, or \"none\" never to.",
                               valueName: "s|none"))
    var idleTimeout = String(format: "%g", WyomingConnectionLimits.standardIdleTimeout)

    @Option(help: ArgumentHelp("Serve at most this many connections at once; more are refused with an error event and a log line.",
                               valueName: "n"))
    var maxConnections = WyomingConnectionLimits.standardMaximumConnections

    @Option(help: ArgumentHelp("The longest text a synthesize event may ask Hark to speak, in characters; longer is refused with an error event.",
                               valueName: "n"))
    var maxText = WyomingAssistant.standardSpokenTextLimit

    @OptionGroup var apps: AppsOptions
    @OptionGroup var voice: VoiceOptions
    @OptionGroup var recognizer: RecognizerOptions

    @Option(help: ArgumentHelp("Log level: debug (each connection), info, notice, warning (each refused client), error.",
                               valueName: "level"))
    var logLevel: String = "notice"

    func validate() throws {
        let endpoint: WyomingEndpoint
        do {
            endpoint = try WyomingEndpoint(uri: uri)
        } catch {
            throw ValidationError(error.description)
        }
        if zeroconf, case .unix = endpoint {
            throw ValidationError("--zeroconf announces a TCP port; a unix socket cannot be reached from the network")
        }
        if zeroconfName != nil && !zeroconf { throw ValidationError("--zeroconf-name needs --zeroconf") }
        if let zeroconfName, zeroconfName.isEmpty || zeroconfName.utf8.count > 63 {
            throw ValidationError("--zeroconf-name must be 1 to 63 bytes long (a DNS label)")
        }
        _ = try connectionLimits()
        guard (0.05...5).contains(roomsWindow) else { throw ValidationError("--rooms-window must be 0.05 to 5 seconds") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
    }

    /// --idle-timeout and --max-connections, checked.
    func connectionLimits() throws -> WyomingConnectionLimits {
        var limits = WyomingConnectionLimits(maximumConnections: maxConnections)
        if idleTimeout == "none" {
            limits.idleTimeout = nil
        } else if let seconds = Double(idleTimeout), seconds > 0, seconds.isFinite {
            limits.idleTimeout = seconds
        } else {
            throw ValidationError("--idle-timeout must be a number of seconds above 0, or none, not \(idleTimeout)")
        }
        guard maxText >= 1 else { throw ValidationError("--max-text must be at least 1, not \(maxText)") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1, not \(maxConnections)") }
        return limits
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
            try live.readWakeOtherWords(models: HarkPaths.modelsDirectory())
            live.chooseWakeAdaptation(recognizer)
            // More than one text spoken at once: espeak-ng keeps one engine per process, so the
            // other cores each get a worker process (started when first needed).
            let speechPool = SpeechPool(local: assistant.speech, executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                        workers: SpeechPool.standardWorkers, report: { logger.warning("\($0)") })
            let hark = await WyomingAssistant(assistant, version: Hark.configuration.version, voice: settings, wake: live.wakeWord,
                                                roomsWindow: roomsWindow, spokenTextLimit: maxText,
                                                arbitrations: { logger.info("rooms: \($0)") },
                                                speechPool: speechPool)
            let server = try await WyomingServer.bind(endpoint, serving: hark, connections: try connectionLimits(), logger: logger)
            if !endpoint.isLocalOnly {
                logger.warning("listening beyond this machine on \(server.endpoint): the Wyoming protocol has no authentication, so anyone who can reach the port can use Hark and its apps")
            }
            // SIGTERM and SIGINT are caught before the address is printed: one sent as soon as it is
            // (by a service manager or a test) would otherwise be lost, pending on threads that
            // block it until StopSignals ignores it.
            let task = Task { try await server.run() }
            let stopper = try StopSignals { signal in
                logger.notice("\(signal), stopping")
                task.cancel()
                // Closing the listener ends `run` whatever its task was waiting on.
                server.stop()
            }
            defer { stopper.cancel() }
            // The one line on standard output: scripts and tests read the address (and the port chosen for port 0).
            print("hark: serving Wyoming on \(server.endpoint)")
            fflush(nil)

            // Discovery is a convenience: without it Home Assistant can still be pointed at the
            // address by hand, so a failure to announce is reported and serving goes on.
            var announcement: ZeroconfAnnouncement?
            if zeroconf, case .tcp(_, let port) = server.endpoint {
                // Avahi announces the machine's network address, where a loopback-bound server
                // does not answer: Home Assistant would find Hark and fail to connect.
                if endpoint.isLocalOnly {
                    logger.warning("zeroconf: \(server.endpoint) answers this machine only, but is announced to the network: Home Assistant will find Hark and fail to connect; serve on tcp://0.0.0.0:\(port) (or this machine's network address) to be reached")
                }
                do {
                    announcement = try ZeroconfAnnouncement(name: zeroconfName ?? ZeroconfAnnouncement.defaultName(), port: port, logger: logger)
                } catch {
                    logger.error("\(error.description); serving on without it")
                }
            }
            defer { announcement?.stop() }

            do {
                try await task.value
            } catch is CancellationError {
                // Stopped by a signal: a clean end.
            }
            await speechPool.stop()
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
