#include "hark_noise_suppression.h"

#include <algorithm>
#include <new>
#include <webrtc/modules/audio_processing/include/audio_processing.h>
#include <webrtc/modules/interface/module_common_types.h>

struct hark_ns {
    webrtc::AudioProcessing *module;
    webrtc::AudioFrame frame;
};

extern "C" hark_ns *hark_ns_create(int level, int *error) {
    auto fail = [&](int code, webrtc::AudioProcessing *module) -> hark_ns * {
        if (error) *error = code;
        delete module;
        return nullptr;
    };
    if (level < 0 || level > 3) return fail(-1, nullptr);
    webrtc::Config config;
    webrtc::AudioProcessing *module = webrtc::AudioProcessing::Create(config);
    if (!module) return fail(-1, nullptr);
    int code = module->high_pass_filter()->Enable(true);
    if (code == webrtc::AudioProcessing::kNoError)
        code = module->noise_suppression()->set_level(static_cast<webrtc::NoiseSuppression::Level>(level));
    if (code == webrtc::AudioProcessing::kNoError) code = module->noise_suppression()->Enable(true);
    if (code != webrtc::AudioProcessing::kNoError) return fail(code, module);
    hark_ns *suppressor = new (std::nothrow) hark_ns;
    if (!suppressor) return fail(-1, module);
    suppressor->module = module;
    if (error) *error = 0;
    return suppressor;
}

extern "C" int hark_ns_process(hark_ns *suppressor, int16_t *frame) {
    webrtc::AudioFrame &audio = suppressor->frame;
    audio.sample_rate_hz_ = 16000;
    audio.num_channels_ = 1;
    audio.samples_per_channel_ = HARK_NS_FRAME_SAMPLES;
    std::copy(frame, frame + HARK_NS_FRAME_SAMPLES, audio.data_);
    int code = suppressor->module->ProcessStream(&audio);
    if (code == webrtc::AudioProcessing::kNoError) std::copy(audio.data_, audio.data_ + HARK_NS_FRAME_SAMPLES, frame);
    return code;
}

extern "C" void hark_ns_free(hark_ns *suppressor) {
    if (!suppressor) return;
    delete suppressor->module;
    delete suppressor;
}
