// swift-tools-version: 6.0
import PackageDescription

/// Every target builds in Swift 6 language mode with the same strictness:
/// existentials spelled `any`, imports internal unless stated, and members
/// visible only through modules a file imports itself.
let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// The modules that process audio are optimised in debug builds too: tests drive them through hours
// of recordings, and unoptimised generic Swift doubled the time the tests' `hark` processes took.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Hark",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hark", targets: ["hark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // System libraries, found through pkg-config; apt names the Debian packages.
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx",
                       providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev", "pocketsphinx-en-us"])]),
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng",
                       providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa",
                       providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate",
                       providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp",
                       providers: [.apt(["libspeexdsp-dev"])]),
        // glibc's malloc_trim (malloc.h), which Swift's Glibc module does not show. Owned by HarkServer.
        .systemLibrary(name: "CMalloc"),

        // WebRTC's noise suppression behind a C header (the library is C++), owned by HarkAudio.NoiseSuppressor.
        .target(name: "CNoiseSuppression",
                cxxSettings: [.unsafeFlags(["-I/usr/include/webrtc_audio_processing", "-DWEBRTC_POSIX",
                                            "-DWEBRTC_AUDIO_PROCESSING_ONLY_BUILD"])],
                linkerSettings: [.linkedLibrary("webrtc_audio_processing")]),

        // Handler programs started with posix_spawn's GNU options (a session of their own, a clean
        // signal mask), which Swift's Glibc module does not show. Owned by HarkRuntime.HandlerProcess.
        .target(name: "CHandlerSpawn"),

        // pocketsphinx's phonetically-tied Gaussians scored a vector at a time, to the same senone
        // scores. Optimised in debug builds too (the tests decode hours of audio); no fused
        // multiply-adds, whose rounding differs from the library's. Owned by HarkSpeech.Decoder.
        .target(name: "CFastScoring", dependencies: ["CPocketSphinx"],
                cSettings: [.unsafeFlags(["-O2", "-ffp-contract=off"])]),

        .target(name: "HarkAudio", dependencies: ["CALSA", "CNoiseSuppression", "CSampleRate", "CSpeexDSP"],
                swiftSettings: strictness + optimisedInDebug),
        .target(name: "HarkGrammar", swiftSettings: strictness),
        // Numbers as English words: heard by the intents' grammars, said by the voice.
        .target(name: "HarkNumbers", swiftSettings: strictness),
        .target(name: "HarkIntents", dependencies: ["HarkGrammar", "HarkNumbers", .product(name: "Yams", package: "Yams")],
                swiftSettings: strictness),
        .target(name: "HarkShortcuts", dependencies: ["HarkGrammar", "HarkIntents", .product(name: "Yams", package: "Yams")],
                swiftSettings: strictness),
        .target(name: "HarkStore", dependencies: ["HarkIntents", "HarkShortcuts", .product(name: "GRDB", package: "GRDB.swift")],
                swiftSettings: strictness),
        .target(name: "HarkDialogue", dependencies: ["HarkGrammar", "HarkIntents", "HarkNumbers", "HarkShortcuts"], swiftSettings: strictness),
        .target(name: "HarkExampleApps", dependencies: ["HarkDialogue", "HarkIntents"], swiftSettings: strictness),
        .target(name: "HarkImport", dependencies: ["HarkGrammar", "HarkIntents", "HarkNumbers", .product(name: "Yams", package: "Yams")],
                swiftSettings: strictness),
        .target(name: "HarkSpeech", dependencies: ["CFastScoring", "CMalloc", "CPocketSphinx", "HarkAudio", "HarkGrammar"],
                swiftSettings: strictness + optimisedInDebug),
        .target(name: "HarkVoice", dependencies: ["CEspeakNG", "HarkAudio", "HarkNumbers"], swiftSettings: strictness),
        .target(name: "HarkRuntime",
                dependencies: ["CHandlerSpawn", "HarkAudio", "HarkDialogue", "HarkGrammar", "HarkIntents", "HarkShortcuts", "HarkSpeech",
                               "HarkStore", "HarkVoice",
                               .product(name: "Logging", package: "swift-log"),
                               .product(name: "Crypto", package: "swift-crypto")],
                swiftSettings: strictness),
        // The benchmarks and their reports: measuring code, kept out of the runtime a speaker runs.
        .target(name: "HarkBench",
                dependencies: ["HarkRuntime", "HarkAudio", "HarkDialogue", "HarkGrammar", "HarkIntents", "HarkSpeech", "HarkVoice"],
                swiftSettings: strictness),
        // The Wyoming protocol's events as bytes: pure Swift, testable without a socket.
        .target(name: "HarkWyoming", swiftSettings: strictness),
        // Hark served over Wyoming with swift-nio: a session per connection, wired to the assistant.
        .target(name: "HarkServer",
                dependencies: ["CMalloc", "HarkWyoming", "HarkRuntime", "HarkAudio", "HarkDialogue", "HarkGrammar", "HarkIntents", "HarkNumbers", "HarkSpeech", "HarkVoice",
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "Logging", package: "swift-log")],
                swiftSettings: strictness),
        .executableTarget(name: "hark",
                          dependencies: ["HarkBench", "HarkRuntime", "HarkServer", "HarkWyoming", "HarkAudio", "HarkDialogue", "HarkExampleApps", "HarkImport", "HarkIntents", "HarkShortcuts",
                                         "HarkSpeech", "HarkStore", "HarkVoice",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser"),
                                         .product(name: "Logging", package: "swift-log")],
                          swiftSettings: strictness),

        .target(name: "HarkTestSupport", dependencies: ["HarkAudio"], path: "Tests/HarkTestSupport",
                swiftSettings: strictness),
        // Writes donations in a loop until it is killed: the durability tests' victim.
        .executableTarget(name: "hark-store-writer", dependencies: ["HarkShortcuts", "HarkStore"],
                          path: "Tests/HarkStoreWriter", swiftSettings: strictness),
        .testTarget(name: "HarkShortcutsTests", dependencies: ["HarkShortcuts", "HarkStore", "HarkIntents", "HarkGrammar", "HarkTestSupport",
                                                         .product(name: "GRDB", package: "GRDB.swift")],
                    swiftSettings: strictness),
        .testTarget(name: "HarkAudioTests", dependencies: ["HarkAudio", "HarkTestSupport"], swiftSettings: strictness),
        .testTarget(name: "HarkGrammarTests", dependencies: ["HarkGrammar"], swiftSettings: strictness),
        .testTarget(name: "HarkDialogueTests", dependencies: ["HarkDialogue", "HarkExampleApps", "HarkGrammar", "HarkIntents", "HarkShortcuts", "HarkTestSupport"],
                    swiftSettings: strictness),
        .testTarget(name: "HarkNumbersTests", dependencies: ["HarkNumbers"], swiftSettings: strictness),
        .testTarget(name: "HarkIntentsTests", dependencies: ["HarkIntents", "HarkNumbers", "HarkTestSupport"], swiftSettings: strictness),
        .testTarget(name: "HarkImportTests", dependencies: ["HarkImport", "HarkIntents", "HarkGrammar", "HarkDialogue", "HarkTestSupport"],
                    swiftSettings: strictness),
        .testTarget(name: "HarkSpeechTests", dependencies: ["HarkSpeech", "HarkGrammar", "HarkAudio", "HarkTestSupport"],
                    swiftSettings: strictness),
        .testTarget(name: "HarkVoiceTests", dependencies: ["HarkVoice", "HarkAudio", "HarkTestSupport"],
                    swiftSettings: strictness),
        .testTarget(name: "HarkRuntimeTests",
                    dependencies: ["HarkBench", "HarkRuntime", "HarkAudio", "HarkDialogue", "HarkExampleApps", "HarkGrammar", "HarkIntents",
                                   "HarkShortcuts", "HarkSpeech", "HarkStore", "HarkVoice", "HarkTestSupport"],
                    swiftSettings: strictness),
        .testTarget(name: "HarkWyomingTests", dependencies: ["HarkWyoming"], swiftSettings: strictness),
        .testTarget(name: "HarkServerTests",
                    dependencies: ["HarkServer", "HarkWyoming", "HarkRuntime", "HarkAudio", "HarkExampleApps", "HarkDialogue", "HarkVoice", "HarkSpeech", "HarkTestSupport",
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: strictness),
    ]
)
