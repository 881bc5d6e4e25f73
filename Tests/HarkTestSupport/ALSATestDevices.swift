public import Foundation
public import HarkAudio

/// ALSA PCMs defined in configuration text, backed by files and the `null` plugin,
/// so the real ALSA code path runs on a machine with no sound card.
public enum ALSATestDevices {
    /// Playback into a raw file, at whatever rate, channels and format are opened.
    public static func fileOutput(_ url: URL) -> PCMDeviceSpec {
        PCMDeviceSpec(name: "hark_test_out", configText: """
            pcm.hark_test_out {
                type file
                slave.pcm { type null }
                file "\(url.path)"
                format "raw"
            }
            """)
    }

    /// Playback into a raw file through a `plug` whose slave only runs at `rate` Hz stereo:
    /// with ALSA's resampling switched off, the device refuses any other rate.
    public static func fixedRateOutput(_ url: URL, rate: Int) -> PCMDeviceSpec {
        PCMDeviceSpec(name: "hark_test_fixed", configText: """
            pcm.hark_test_fixed {
                type plug
                slave {
                    pcm { type file; slave.pcm { type null }; file "\(url.path)"; format "raw" }
                    rate \(rate)
                    channels 2
                    format S16_LE
                }
            }
            """)
    }

    /// Capture whose samples come from a raw file.
    public static func fileInput(_ url: URL) -> PCMDeviceSpec {
        PCMDeviceSpec(name: "hark_test_in", configText: """
            pcm.hark_test_in {
                type file
                slave.pcm { type null }
                file "/dev/null"
                infile "\(url.path)"
                format "raw"
            }
            """)
    }

    /// Capture from a raw file through a device that only runs at `rate` Hz with `channels`
    /// channels, as a card that offers nothing else would: `multi` fixes the channel count (one
    /// binding per channel) and a `plug` whose slave runs at `rate` fixes the rate once ALSA's
    /// resampling is off. No hardware involved: the chain ends in `null`, and the `file` plugin
    /// on top (it reads `infile` only for read calls, so it must face the client) supplies the samples.
    public static func fixedCapture(_ url: URL, rate: Int, channels: Int) -> PCMDeviceSpec {
        let bindings = (0..<channels).map { "bindings.\($0) { slave a; channel \($0) }" }.joined(separator: "\n")
        return PCMDeviceSpec(name: "hark_test_fixed_in", configText: """
            pcm.hark_test_fixed_in {
                type file
                file "/dev/null"
                infile "\(url.path)"
                format "raw"
                slave.pcm {
                    type multi
                    slaves.a {
                        pcm { type plug; slave { pcm null; rate \(rate); channels \(channels); format S16_LE } }
                        channels \(channels)
                    }
                    \(bindings)
                }
            }
            """)
    }

    public static func rawInt16(_ url: URL) throws -> [Int16] {
        let data = try Data(contentsOf: url)
        return stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    public static func writeRawInt32(_ samples: [Int32], to url: URL) throws {
        var data = Data(capacity: samples.count * 4)
        for sample in samples {
            let bits = UInt32(bitPattern: sample)
            for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8((bits >> UInt32(shift)) & 0xFF)) }
        }
        try data.write(to: url)
    }

    public static func writeRawInt16(_ samples: [Int16], to url: URL) throws {
        var data = Data(capacity: samples.count * 2)
        for sample in samples {
            let bits = UInt16(bitPattern: sample)
            data.append(UInt8(bits & 0xFF))
            data.append(UInt8(bits >> 8))
        }
        try data.write(to: url)
    }
}
