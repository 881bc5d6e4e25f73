import ArgumentParser
import Foundation
import HarkAudio

/// Which ALSA devices Hark records from and speaks on.
struct DeviceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("ALSA capture device, e.g. default, plughw:1, or a name from `hark devices`.",
                               valueName: "name"))
    var inputDevice: String?

    @Option(help: ArgumentHelp("ALSA playback device, e.g. default, hw:0,0, or a name from `hark devices`.",
                               valueName: "name"))
    var outputDevice: String?

    func validate() throws {
        for (flag, name) in [("--input-device", inputDevice), ("--output-device", outputDevice)] {
            try Self.check(name, given: flag)
        }
    }

    /// Refuses a device name (given with `flag`) that cannot name an ALSA device.
    static func check(_ name: String?, given flag: String) throws {
        guard let name else { return }
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("\(flag) needs a device name; `hark devices` lists them")
        }
        if name.contains(where: \.isNewline) {
            throw ValidationError("\(flag) \"\(name)\" is not an ALSA device name: it spans lines")
        }
    }

    /// The capture device to use: the one named, else ALSA's default.
    var input: PCMDeviceSpec { PCMDeviceSpec(name: inputDevice ?? PCMDeviceSpec.default.name) }
    /// The playback device to use: the one named, else ALSA's default.
    var output: PCMDeviceSpec { PCMDeviceSpec(name: outputDevice ?? PCMDeviceSpec.default.name) }
}
