import Foundation
import HarkSpeech
import HarkTestSupport
import Testing

@Suite struct PhoneMapTests {
    static func map(_ text: String) throws -> PhoneMap {
        let file = try temporaryDirectory().appendingPathComponent("map.tsv")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return try PhoneMap(contentsOf: file)
    }

    @Test func theProjectMapCoversCommonWords() throws {
        let map = try PhoneMap(contentsOf: Fixtures.root.appendingPathComponent("models/espeak2arpabet.tsv"))
        // espeak-ng -x --sep=_ -v en-us: "unicornchat", "zorblax"
        #expect(try map.phones(fromEspeak: "j_'u:_n_I2_k_,o@_n_tS_a_t", word: "unicornchat")
                == ["Y", "UW", "N", "IH", "K", "AO", "R", "N", "CH", "AE", "T"])
        #expect(try map.phones(fromEspeak: "z_'o@_b_l_a_k_s", word: "zorblax") == ["Z", "AO", "R", "B", "L", "AE", "K", "S"])
    }

    @Test func dropsStressAndLengthMarksAndFoldsDoubleR() throws {
        let map = try Self.map("3:\tER\nr\tR\nh\tHH\n'\tAH\n")
        #expect(try map.phones(fromEspeak: "h_'3:_r", word: "her") == ["HH", "ER"])
        #expect(try map.phones(fromEspeak: "h_;_:_%r", word: "hr") == ["HH", "R"])
    }

    @Test func namesAPhonemeItCannotMap() throws {
        let map = try Self.map("h\tHH\n")
        #expect {
            _ = try map.phones(fromEspeak: "h_Q", word: "hq")
        } throws: { error in
            (error as? PhoneMap.UnknownPhoneme)?.description.contains("\"Q\" in \"hq\"") == true
        }
    }

    @Test func refusesAMapWithPhonesTheModelLacks() throws {
        #expect {
            _ = try Self.map("# comment\nh\tHH\nx\tKH\n")
        } throws: { error in
            (error as? RecognitionError)?.message.contains("map.tsv:3:") == true
        }
    }
}
