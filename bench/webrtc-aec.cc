// The WebRTC audio processing module's echo canceller (Debian's libwebrtc-audio-processing),
// for `hark bench-echo --external-canceller`: the same captured and played audio through
// another canceller, to compare with the one Hark ships (speexdsp).
//
//   webrtc-aec CAPTURED.raw PLAYED.raw CLEANED.raw DELAY_MS
//
// Raw files: 16 kHz mono signed 16-bit little-endian. PLAYED is what the loudspeaker played,
// CAPTURED what the microphone heard, both from the same moment; DELAY_MS the delay between
// them as measured (the canceller is also told to find it by itself: delay-agnostic mode).
// Settings as Hark's own canceller: echo cancellation and its residual suppression only, no
// noise suppression, no gain control. Every call's return code is checked.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <webrtc/modules/audio_processing/include/audio_processing.h>
#include <webrtc/modules/interface/module_common_types.h>

static std::vector<int16_t> readRaw(const char* path) {
    std::vector<int16_t> samples;
    FILE* file = std::fopen(path, "rb");
    if (!file) { std::perror(path); std::exit(1); }
    int16_t buffer[4096];
    size_t count;
    while ((count = std::fread(buffer, sizeof(int16_t), 4096, file)) > 0) samples.insert(samples.end(), buffer, buffer + count);
    std::fclose(file);
    return samples;
}

static void check(int status, const char* call) {
    if (status != webrtc::AudioProcessing::kNoError) {
        std::fprintf(stderr, "webrtc-aec: %s failed: %d\n", call, status);
        std::exit(1);
    }
}

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: webrtc-aec CAPTURED.raw PLAYED.raw CLEANED.raw DELAY_MS\n");
        return 2;
    }
    std::vector<int16_t> captured = readRaw(argv[1]), played = readRaw(argv[2]);
    const int delay = std::atoi(argv[4]);
    webrtc::Config config;
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(true));
    webrtc::AudioProcessing* apm = webrtc::AudioProcessing::Create(config);
    if (!apm) { std::fprintf(stderr, "webrtc-aec: AudioProcessing::Create failed\n"); return 1; }
    check(apm->echo_cancellation()->enable_drift_compensation(false), "enable_drift_compensation");
    check(apm->echo_cancellation()->Enable(true), "echo_cancellation Enable");
    const int frame = 160;
    webrtc::AudioFrame far, near;
    FILE* out = std::fopen(argv[3], "wb");
    if (!out) { std::perror(argv[3]); return 1; }
    for (size_t start = 0; start + frame <= captured.size(); start += frame) {
        far.sample_rate_hz_ = near.sample_rate_hz_ = 16000;
        far.num_channels_ = near.num_channels_ = 1;
        far.samples_per_channel_ = near.samples_per_channel_ = frame;
        for (int i = 0; i < frame; ++i) {
            far.data_[i] = start + i < played.size() ? played[start + i] : 0;
            near.data_[i] = captured[start + i];
        }
        check(apm->ProcessReverseStream(&far), "ProcessReverseStream");
        check(apm->set_stream_delay_ms(delay), "set_stream_delay_ms");
        check(apm->ProcessStream(&near), "ProcessStream");
        if (std::fwrite(near.data_, sizeof(int16_t), frame, out) != static_cast<size_t>(frame)) { std::perror(argv[3]); return 1; }
    }
    if (std::fclose(out) != 0) { std::perror(argv[3]); return 1; }
    delete apm;
    return 0;
}
