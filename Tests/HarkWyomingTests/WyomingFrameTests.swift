import Foundation
import HarkWyoming
import Testing

/// The event framing on bytes alone: what the reference implementation writes is read, what
/// Hark writes reads back, and malformed input is refused before anything is trusted.
struct WyomingFrameTests {
    /// Feeds `bytes` in pieces of `piece` bytes, as a socket might deliver them.
    static func decodeAll(_ bytes: [UInt8], piece: Int = .max, limits: WyomingLimits = WyomingLimits()) throws -> [WyomingEvent] {
        var decoder = WyomingFrameDecoder(limits: limits)
        var buffered: [UInt8] = []
        var events: [WyomingEvent] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            buffered += bytes[offset..<end]
            offset = end
            while true {
                let (consumed, event) = try buffered.withUnsafeBytes { try decoder.decode($0) }
                buffered.removeFirst(consumed)
                if let event { events.append(event) } else if consumed == 0 { break }
            }
        }
        #expect(buffered.isEmpty, "bytes left over: \(buffered.count)")
        return events
    }

    @Test func readsWhatTheReferenceClientWrites() throws {
        // wyoming.event.write_event's layout: the data after the header, then the payload.
        let data = #"{"rate": 16000, "width": 2, "channels": 1, "timestamp": null}"#
        let header = #"{"type": "audio-chunk", "version": "1.10.0", "data_length": \#(data.utf8.count), "payload_length": 4}"#
        let bytes = Array((header + "\n" + data).utf8) + [1, 0, 255, 255]
            + Array(#"{"type": "audio-stop", "data": {"timestamp": 5}}"#.utf8) + [10]
        for piece in [1, 3, 64, Int.max] {
            let events = try Self.decodeAll(bytes, piece: piece)
            try #require(events.count == 2)
            #expect(events[0].type == "audio-chunk")
            #expect(events[0].data["rate"] == .integer(16000))
            #expect(events[0].data["timestamp"] == .null)
            #expect(events[0].payload == [1, 0, 255, 255])
            #expect(events[1] == WyomingEvent("audio-stop", data: ["timestamp": 5]))
        }
    }

    @Test func extraDataOverridesTheHeadersData() throws {
        let extra = #"{"text": "from data"}"#
        let bytes = Array(#"{"type": "synthesize", "data": {"text": "header", "keep": true}, "data_length": \#(extra.utf8.count)}"#.utf8)
            + [10] + Array(extra.utf8)
        let event = try #require(try Self.decodeAll(bytes).first)
        #expect(event.data == ["text": "from data", "keep": true])
    }

    @Test func whatIsWrittenReadsBack() throws {
        let event = WyomingEvent("audio-chunk", data: ["rate": 22050, "width": 2, "channels": 1, "name": "ünïcode/\"quoted\""],
                                 payload: Array(0..<200).map { UInt8($0) })
        let bytes = try WyomingFrameEncoder.encode(event)
        let header = try #require(bytes.firstIndex(of: 10))
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(bytes[..<header])) as? [String: Any])
        #expect(fields["type"] as? String == "audio-chunk")
        #expect(fields["payload_length"] as? Int == 200)
        #expect(fields["version"] as? String == WyomingFrameEncoder.protocolVersion)
        #expect(try Self.decodeAll(bytes + bytes, piece: 7) == [event, event])
        // No data and no payload: the header alone, with neither length.
        let bare = try WyomingFrameEncoder.encode(WyomingEvent("describe"))
        #expect(String(decoding: bare, as: UTF8.self) == #"{"type":"describe","version":"\#(WyomingFrameEncoder.protocolVersion)"}"# + "\n")
    }

    static let malformed: [(String, [UInt8], WyomingError.Code)] = [
        ("not JSON", Array("hello there\n".utf8), .badJSON),
        ("an array", Array("[1, 2]\n".utf8), .badJSON),
        ("no type", Array(#"{"data": {}}"#.utf8) + [10], .badJSON),
        ("data not an object", Array(#"{"type": "x", "data": [1]}"#.utf8) + [10], .badJSON),
        ("negative length", Array(#"{"type": "x", "payload_length": -1}"#.utf8) + [10], .badJSON),
        ("fractional length", Array(#"{"type": "x", "payload_length": 1.5}"#.utf8) + [10], .badJSON),
        ("huge payload", Array(#"{"type": "audio-chunk", "payload_length": 9000000000000}"#.utf8) + [10], .tooLarge),
        ("payload over the limit", Array(#"{"type": "audio-chunk", "payload_length": 16777217}"#.utf8) + [10], .tooLarge),
        ("data over the limit", Array(#"{"type": "x", "data_length": 1048577}"#.utf8) + [10], .tooLarge),
        ("extra data not JSON", Array(#"{"type": "x", "data_length": 3}"#.utf8) + [10] + Array("abc".utf8), .badJSON),
        ("extra data not an object", Array(#"{"type": "x", "data_length": 3}"#.utf8) + [10] + Array("[1]".utf8), .badJSON),
    ]

    @Test(arguments: malformed.indices) func malformedInputIsRefused(_ index: Int) {
        let (name, bytes, code) = Self.malformed[index]
        #expect(throws: WyomingError.self, "\(name)") { try Self.decodeAll(bytes) }
        do {
            _ = try Self.decodeAll(bytes)
        } catch let error as WyomingError {
            #expect(error.code == code, "\(name): \(error)")
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test func aHeaderLineWithNoEndIsRefusedAtTheLimit() throws {
        var decoder = WyomingFrameDecoder(limits: WyomingLimits(headerBytes: 100))
        let short = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        #expect(try short.withUnsafeBytes { try decoder.decode($0) }.consumed == 0)
        let long = short + [UInt8(ascii: "x")]
        #expect(throws: WyomingError(.tooLarge, "an event header line is longer than 100 bytes")) {
            try long.withUnsafeBytes { try decoder.decode($0) }
        }
    }
}

struct WyomingAudioFormatTests {
    @Test func readsSixteenAndThirtyTwoBitAndMixesChannels() throws {
        let stereo16 = WyomingAudioFormat(rate: 48_000, width: 2, channels: 2)
        // Left 16384 (0.5), right -16384: the average is 0; then 32767 and 32767.
        let samples = try stereo16.monoSamples(from: [0x00, 0x40, 0x00, 0xC0, 0xFF, 0x7F, 0xFF, 0x7F])
        #expect(samples.count == 2)
        #expect(samples[0] == 0)
        #expect(abs(samples[1] - 32767 / 32768) < 1e-6)
        let mono32 = WyomingAudioFormat(rate: 16_000, width: 4, channels: 1)
        #expect(try mono32.monoSamples(from: [0, 0, 0, 0x40]) == [0.5])
        #expect(throws: WyomingError.self) { try stereo16.monoSamples(from: [1, 2, 3]) }
    }

    @Test func refusesFormatsItCannotRead() throws {
        for data: [String: JSONValue] in [["rate": 4000, "width": 2, "channels": 1], ["rate": 16000, "width": 3, "channels": 1],
                                          ["rate": 16000, "width": 2, "channels": 9], ["rate": 16000, "width": 2],
                                          ["rate": "16000", "width": 2, "channels": 1]] {
            #expect(throws: WyomingError.self, "\(data)") { try WyomingAudioFormat(eventData: data, type: "audio-start") }
        }
        #expect(try WyomingAudioFormat(eventData: ["rate": 192_000, "width": 4, "channels": 8], type: "audio-start")
            == WyomingAudioFormat(rate: 192_000, width: 4, channels: 8))
    }

    @Test func writesLittleEndianSixteenBit() {
        #expect(WyomingAudioFormat.payload([1, -2, 0x1234][...]) == [1, 0, 0xFE, 0xFF, 0x34, 0x12])
    }
}
