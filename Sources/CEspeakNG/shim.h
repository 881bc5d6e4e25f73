#ifndef HARK_CESPEAKNG_SHIM_H
#define HARK_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
#endif
