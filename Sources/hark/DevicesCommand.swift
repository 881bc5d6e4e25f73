import ArgumentParser
import Foundation
import HarkAudio
import HarkDialogue
import HarkRuntime

/// `hark devices`: the sound cards and the ALSA devices Hark can record from and speak on.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List sound cards and ALSA capture and playback devices, or try the ones named.",
        discussion: """
        Without options, lists the sound cards and every capture and playback device ALSA's \
        configuration offers, with its description; any name can be given to --input-device or \
        --output-device. With --input-device or --output-device, opens that device as Hark would, \
        records a tenth of a second or plays a tenth of a second of silence, and prints the rate, \
        channels and sample format the device agreed to (Hark converts to and from 16 kHz mono). \
        A machine without a sound card is said to be one; that is not an error.
        """)

    @OptionGroup var devices: DeviceOptions

    func run() throws {
        do throws(AudioError) {
            if devices.inputDevice == nil && devices.outputDevice == nil {
                try list()
                return
            }
        } catch {
            throw fail(error)
        }
        // Each device named is tried, and each failure reported: a wrong input name must not
        // hide what is wrong (or right) with the output.
        var failures: [AudioError] = []
        for probe in [probeInput, probeOutput] {
            do throws(AudioError) {
                try probe()
            } catch {
                printError("hark: \(error.message)")
                failures.append(error)
            }
        }
        let named = [devices.inputDevice, devices.outputDevice].compactMap { $0 }.count
        if let first = failures.first {
            throw fail(AudioError(first.code, "\(failures.count) of the \(named) devices named could not be used", underlying: first.underlying))
        }
    }

    private func list() throws(AudioError) {
        let cards = try AudioDevices.cards()
        if cards.isEmpty {
            print("""
            No sound card: ALSA finds no card on this machine, so there is no microphone or speaker to use.
            Hark still works on recordings (hark run FILE.wav) and speaks into files (hark say TEXT --out FILE.wav).
            """)
        } else {
            print("Sound cards:")
            for card in cards { print("  \(card.index): \(card.name) — \(card.longName)") }
        }
        let capture = try AudioDevices.captureDevices()
        let playback = try AudioDevices.playbackDevices()
        let note = cards.isEmpty ? " (software devices only)" : ""
        print("\nCapture devices\(note):")
        print(Self.table(capture))
        print("\nPlayback devices\(note):")
        print(Self.table(playback))
        // Set by voice ("louder", "volume four"), in software: Hark does not touch a card's mixer.
        let volume = LoudspeakerVolume(file: HarkPaths.dataDirectory().appendingPathComponent(LoudspeakerVolume.fileName))
        print("\nVolume: \(volume.level) of \(LoudnessLevels.highest), applied in software to everything Hark plays "
              + "(\(Int(LoudspeakerVolume.decibelsPerStep)) dB a step; kept in \(volume.file?.path ?? "memory"))")
        if let problem = volume.problem { printError("hark: warning: \(problem)") }
    }

    /// One device a line: its name, then its description folded onto the same line.
    static func table(_ devices: [PCMDeviceInfo]) -> String {
        guard !devices.isEmpty else { return "  (none)" }
        let width = min(devices.map(\.name.count).max() ?? 0, 40)
        return devices.map { device in
            let description = device.description.split(whereSeparator: \.isNewline).joined(separator: " — ")
            let padding = String(repeating: " ", count: max(1, width - device.name.count + 2))
            return "  \(device.name)\(padding)\(description)"
        }.joined(separator: "\n")
    }

    private func probeInput() throws(AudioError) {
        guard let name = devices.inputDevice else { return }
        let capture = try CaptureDevice(PCMDeviceSpec(name: name))
        let samples = try capture.read(frames: PipelineAudio.sampleRate / 10)
        print("capture \(name): opens at \(capture.deviceRate) Hz, \(capture.deviceChannels) channel(s), \(capture.deviceFormat);"
            + " read \(samples.count) samples at 16 kHz mono")
    }

    private func probeOutput() throws(AudioError) {
        guard let name = devices.outputDevice else { return }
        let playback = try PlaybackDevice(PCMDeviceSpec(name: name))
        let silence = AudioClip(samples: [Float](repeating: 0, count: PipelineAudio.sampleRate / 10),
                                sampleRate: PipelineAudio.sampleRate, channels: 1)
        try playback.play(silence)
        print("playback \(name): opens at \(playback.lastRate) Hz, \(playback.lastChannels) channel(s) for 16 kHz mono speech")
    }
}
