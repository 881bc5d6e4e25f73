#ifndef HARK_CSAMPLERATE_SHIM_H
#define HARK_CSAMPLERATE_SHIM_H
#include <samplerate.h>
#endif
