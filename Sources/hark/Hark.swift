import ArgumentParser

@main
struct Hark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hark",
        abstract: "An offline voice front end: hears requests, understands them against installed apps, answers in speech.",
        discussion: """
        Everything runs on this machine: pocketsphinx recognises speech against the phrases the \
        installed apps declare (each app is a folder with an app.yaml), espeak-ng speaks the answers.

        Try it on a recording:
          hark run audio-fixtures/home-en/turn_on_the_garage_light.wav
        Speak some text:
          hark say "Hello there" --out hello.wav
        A phrase of your own:
          hark shortcuts add "soup time" --intent soup.OrderSoup --set soup=clam_chowder
        """,
        version: "0.1.0",
        subcommands: [Listen.self, Run.self, Chat.self, Say.self, Pronounce.self, PIN.self, Devices.self,
                      Shortcuts.self, Donations.self, Suggest.self, Automations.self, Apps.self, Import.self, Serve.self, Bench.self, BenchWake.self, BenchEcho.self, BenchSoak.self, Sentences.self, WakeCheck.self, MicCheck.self, SpeakWorker.self],
        defaultSubcommand: nil)
}
