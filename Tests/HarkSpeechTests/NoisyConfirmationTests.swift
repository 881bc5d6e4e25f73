import HarkSpeech
import Testing

/// In a noisy room a request heard only just well enough is asked about ("Did you say …?")
/// instead of acted on; a quiet room's requests are judged as before.
@Suite struct NoisyConfirmationTests {
    static let threshold = Confidence.defaultThreshold, band = Confidence.defaultAskBand
    static let standard = NoisyConfirmation.standard

    static func judged(_ margin: Double, snr: Double?) -> Double {
        standard.judged(margin, signalToNoise: snr, threshold: threshold, askBand: band)
    }

    @Test func aQuietRoomsMarginsAreLeftAsTheyAre() {
        for margin in stride(from: -4.0, through: 1.0, by: 0.05) {
            #expect(Self.judged(margin, snr: 45) == margin)
        }
    }

    @Test func inANoisyRoomAMarginJustAboveTheThresholdIsAskedAbout() {
        let justAbove = Self.threshold + 0.2
        #expect(Self.judged(justAbove, snr: 12) < Self.threshold)
        #expect(Self.judged(justAbove, snr: 12) >= Self.threshold - Self.band)
        #expect(Self.standard.asksAbout(justAbove, signalToNoise: 12, threshold: Self.threshold, askBand: Self.band))
        // Audio too short to estimate counts as noisy.
        #expect(Self.standard.asksAbout(justAbove, signalToNoise: nil, threshold: Self.threshold, askBand: Self.band))
        // Heard clearly, it is acted on in any room.
        let clear = Self.threshold + NoisyConfirmation.standardReach + 0.01
        #expect(Self.judged(clear, snr: 5) == clear)
        // Below the ask band it is rejected as before.
        let far = Self.threshold - Self.band - 0.01
        #expect(Self.judged(far, snr: 5) == far)
    }

    /// A room of 20 to 30 dB is asked about too (where most of the wrong actions left at 20 dB
    /// and after a click were taken); a quieter one is not.
    @Test func aRoomUpTo30DecibelsIsAskedAbout() {
        let justAbove = Self.threshold + 0.2
        #expect(Self.standard.asksAbout(justAbove, signalToNoise: 25, threshold: Self.threshold, askBand: Self.band))
        #expect(Self.standard.asksAbout(justAbove, signalToNoise: 29.9, threshold: Self.threshold, askBand: Self.band))
        #expect(!Self.standard.asksAbout(justAbove, signalToNoise: 30, threshold: Self.threshold, askBand: Self.band))
    }

    /// The squeezed margins keep their order, so a better hearing never judges worse, and
    /// nothing lands between the threshold and the reach.
    @Test func theMarginsKeepTheirOrder() {
        var previous = -Double.infinity
        for margin in stride(from: -3.0, through: 0.0, by: 0.001) {
            let judged = Self.judged(margin, snr: 8)
            #expect(judged > previous, "\(margin) → \(judged)")
            #expect(judged < Self.threshold || judged >= Self.threshold + NoisyConfirmation.standardReach, "\(margin) → \(judged)")
            previous = judged
        }
    }
}

/// The same on a real voice, decoded by pocketsphinx: heard in steady noise, a request the
/// recogniser would act on is asked about; heard in a quiet room, it is acted on as before.
@Suite struct NoisyConfirmationRecognitionTests {
    /// `samples` under steady white noise about 35 dB below full scale (seeded, so it repeats),
    /// or 6 dB further down for each step `quieter`.
    static func hiss(_ samples: [Int16], quieter: UInt64 = 0) -> [Int16] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return samples.map { sample -> Int16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(clamping: Int(sample) + Int(Int64(bitPattern: state) >> (53 + quieter)))  // -1024..<1024 at 0
        }
    }

    /// A request not made out is said to be lost "over the noise" only in a room below 20 dB,
    /// though Hark asks first up to 30: between the two, the miss is not the noise's doing.
    @Test func aRoomIsCalledNoisyBelow20Decibels() throws {
        let recognizer = try Recognizer(configuration: RecognizerConfiguration())
        try recognizer.use(RecognizerTests.home)
        let silence = [Int16](repeating: 0, count: 16_000)
        let quiet = silence + (try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")) + silence
        let loud = Self.hiss(quiet), middling = Self.hiss(quiet, quieter: 1)
        let loudRoom = try #require(SignalToNoise.estimate(loud)), middlingRoom = try #require(SignalToNoise.estimate(middling))
        #expect(loudRoom < NoisyConfirmation.noisyRoomBelow, "SNR \(loudRoom)")
        #expect(middlingRoom > NoisyConfirmation.noisyRoomBelow && middlingRoom < NoisyConfirmation.standardBelow, "SNR \(middlingRoom)")
        #expect(try recognizer.recognize(loud, heardIn: "loud").isInNoisyRoom)
        #expect(try !recognizer.recognize(middling, heardIn: "middling").isInNoisyRoom)
        // Asking first only in rooms louder than this one, it is not called noisy either.
        var strict = RecognizerConfiguration()
        strict.noisyConfirmation = NoisyConfirmation(below: loudRoom - 1, reach: NoisyConfirmation.standardReach)
        let strictRecognizer = try Recognizer(configuration: strict)
        try strictRecognizer.use(RecognizerTests.home)
        #expect(try !strictRecognizer.recognize(loud, heardIn: "loud").isInNoisyRoom)
    }

    @Test func aRequestInNoiseIsAskedAboutAndInQuietActedOn() throws {
        var acting = RecognizerConfiguration()
        acting.noisyConfirmation = nil
        // A reach wide enough that whatever margin the noisy request gets, it is asked about.
        var asking = RecognizerConfiguration()
        asking.noisyConfirmation = NoisyConfirmation(below: 40, reach: 10)
        let actingRecognizer = try Recognizer(configuration: acting), askingRecognizer = try Recognizer(configuration: asking)
        try actingRecognizer.use(RecognizerTests.home)
        try askingRecognizer.use(RecognizerTests.home)
        let silence = [Int16](repeating: 0, count: 16_000)
        let quiet = silence + (try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")) + silence
        let noisy = Self.hiss(quiet)
        #expect(try #require(SignalToNoise.estimate(noisy)) < 40, "SNR \(SignalToNoise.estimate(noisy) ?? 0)")
        #expect(try #require(SignalToNoise.estimate(quiet)) > 40)

        let quietActed = try actingRecognizer.recognize(quiet, heardIn: "quiet")
        let quietAsked = try askingRecognizer.recognize(quiet, heardIn: "quiet")
        #expect(!quietAsked.isRejected && quietAsked.text == "turn on the garage light", "\(quietAsked.rejection ?? "")")
        #expect(quietAsked.margin == quietActed.margin)
        #expect(!quietAsked.isAskedForTheRoom)

        let noisyActed = try actingRecognizer.recognize(noisy, heardIn: "loud")
        try #require(!noisyActed.isRejected && noisyActed.text == "turn on the garage light", "\(noisyActed.rejection ?? "")")
        let noisyAsked = try askingRecognizer.recognize(noisy, heardIn: "loud")
        #expect(noisyAsked.isRejected)
        #expect(noisyAsked.guess == noisyActed.words, "guess \(noisyAsked.guess)")
        #expect(noisyAsked.rejection?.contains("noisy room") == true, "\(noisyAsked.rejection ?? "")")
        // Heard well enough to act on in a quiet room: a tentative wake word's request asked about.
        #expect(noisyAsked.isAskedForTheRoom)
        // The same hearing asked about only a little below the threshold, in a quiet room, is not.
        var strict = acting
        strict.rejectionMargin = noisyActed.margin + 0.1
        strict.askBand = 1
        let strictRecognizer = try Recognizer(configuration: strict)
        try strictRecognizer.use(RecognizerTests.home)
        let guessed = try strictRecognizer.recognize(noisy, heardIn: "loud")
        #expect(guessed.isRejected && guessed.guess == noisyActed.words, "\(guessed.rejection ?? "")")
        #expect(!guessed.isAskedForTheRoom)
    }
}
