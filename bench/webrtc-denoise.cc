// The WebRTC audio processing module's noise suppression (Debian's libwebrtc-audio-processing),
// for `make bench-wake-denoised`: the wake corpus as a device would hear it through a denoiser
// in front of the spotter, to measure whether one belongs there before building it in.
//
//   webrtc-denoise WARM_UP_SAMPLES LEVEL < IN.raw > OUT.raw
//
// Raw audio: 16 kHz mono signed 16-bit little-endian. LEVEL is the suppression's strength, 0
// (low) to 3 (very high). The first WARM_UP_SAMPLES are heard five times before the whole input
// and what comes out of them is dropped: a device has heard its room for a while before anyone
// speaks (hark bench-wake warms its spotter up the same way). High-pass filter and noise
// suppression only: no gain control, no echo cancellation. Every call's return code is checked.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <webrtc/modules/audio_processing/include/audio_processing.h>
#include <webrtc/modules/interface/module_common_types.h>

static void check(int status, const char* call) {
    if (status != webrtc::AudioProcessing::kNoError) {
        std::fprintf(stderr, "webrtc-denoise: %s failed: %d\n", call, status);
        std::exit(1);
    }
}

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: webrtc-denoise WARM_UP_SAMPLES LEVEL < IN.raw > OUT.raw\n");
        return 2;
    }
    const long warmUp = std::atol(argv[1]);
    const int level = std::atoi(argv[2]);
    if (warmUp < 0 || level < 0 || level > 3) {
        std::fprintf(stderr, "webrtc-denoise: WARM_UP_SAMPLES must be 0 or more and LEVEL 0 to 3\n");
        return 2;
    }
    std::vector<int16_t> samples;
    int16_t buffer[4096];
    size_t count;
    while ((count = std::fread(buffer, sizeof(int16_t), 4096, stdin)) > 0) samples.insert(samples.end(), buffer, buffer + count);
    if (std::ferror(stdin)) { std::perror("webrtc-denoise: stdin"); return 1; }

    webrtc::Config config;
    webrtc::AudioProcessing* apm = webrtc::AudioProcessing::Create(config);
    if (!apm) { std::fprintf(stderr, "webrtc-denoise: AudioProcessing::Create failed\n"); return 1; }
    check(apm->high_pass_filter()->Enable(true), "high_pass_filter Enable");
    check(apm->noise_suppression()->set_level(static_cast<webrtc::NoiseSuppression::Level>(level)), "set_level");
    check(apm->noise_suppression()->Enable(true), "noise_suppression Enable");

    const size_t frame = 160;  // 10 ms, the module's unit
    webrtc::AudioFrame audio;
    auto process = [&](size_t end, bool keep) {
        for (size_t start = 0; start + frame <= end; start += frame) {
            audio.sample_rate_hz_ = 16000;
            audio.num_channels_ = 1;
            audio.samples_per_channel_ = frame;
            for (size_t i = 0; i < frame; ++i) audio.data_[i] = samples[start + i];
            check(apm->ProcessStream(&audio), "ProcessStream");
            if (keep && std::fwrite(audio.data_, sizeof(int16_t), frame, stdout) != frame) {
                std::perror("webrtc-denoise: stdout");
                std::exit(1);
            }
        }
    };
    const size_t room = std::min(samples.size(), static_cast<size_t>(warmUp));
    for (int pass = 0; pass < 5; ++pass) process(room, false);
    process(samples.size(), true);
    if (std::fflush(stdout) != 0) { std::perror("webrtc-denoise: stdout"); return 1; }
    delete apm;
    return 0;
}
