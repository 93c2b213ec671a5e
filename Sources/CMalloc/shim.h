// mallopt(3) for the daemon (docs/performance.md, "Each thread's malloc arena kept 128 KiB spare"): Swift's Glibc
// module does not include <malloc.h>.
#ifndef COCKPIT_CMALLOC_SHIM_H
#define COCKPIT_CMALLOC_SHIM_H
#include <malloc.h>
#endif
