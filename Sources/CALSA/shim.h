#ifndef HARK_CALSA_SHIM_H
#define HARK_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

/// Receives each message alsa-lib would have printed on stderr, already formatted:
/// the C function that reported it and the text (with strerror appended when ALSA passed
/// an error number).
typedef void (*hark_alsa_message_sink)(const char *function, const char *message);

/// The sink the handler forwards to. Only the two functions below touch it, and they are
/// emitted into the one Swift module that calls them (HarkAudio).
static hark_alsa_message_sink hark_alsa_current_sink = NULL;

/// snd_lib_error_handler_t is variadic, which Swift cannot implement: this formats the
/// message and hands it to the Swift sink instead of stderr.
static void hark_alsa_error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    char text[1024];
    va_list args;
    va_start(args, fmt);
    int length = vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    if (length < 0) {
        snprintf(text, sizeof text, "(unformattable ALSA message)");
        length = (int)strlen(text);
    }
    if (err != 0 && (size_t)length < sizeof text) {
        snprintf(text + length, sizeof text - (size_t)length, ": %s", snd_strerror(err));
    }
    hark_alsa_message_sink sink = hark_alsa_current_sink;
    if (sink) {
        sink(function ? function : "alsa-lib", text);
    }
}

/// Routes alsa-lib's messages to `sink`, or back to alsa-lib's own stderr printer with NULL.
/// Returns snd_lib_error_set_handler's result (0, or a negative error code).
static inline int hark_alsa_set_message_sink(hark_alsa_message_sink sink) {
    hark_alsa_current_sink = sink;
    return snd_lib_error_set_handler(sink ? hark_alsa_error_handler : NULL);
}
#endif
