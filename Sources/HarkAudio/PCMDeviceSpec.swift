/// Names an ALSA PCM, optionally with extra configuration that defines it.
public struct PCMDeviceSpec: Sendable, Equatable {
    /// An ALSA PCM name: "default", "null", "hw:0,0", "plughw:1", or a name `configText` defines.
    public var name: String
    /// Extra ALSA configuration loaded on top of the system's, for tests and custom setups,
    /// e.g. `pcm.mic { type file; slave.pcm null; file "/dev/null"; infile "/tmp/in.raw"; format "raw" }`.
    public var configText: String?

    public init(name: String, configText: String? = nil) {
        self.name = name
        self.configText = configText
    }

    /// The system's default device.
    public static let `default` = PCMDeviceSpec(name: "default")
}
