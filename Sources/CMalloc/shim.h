#ifndef HARK_CMALLOC_SHIM_H
#define HARK_CMALLOC_SHIM_H
// glibc's malloc_trim, which Swift's Glibc module does not show.
#include <malloc.h>
#endif
