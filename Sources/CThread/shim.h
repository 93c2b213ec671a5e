// Names the calling thread (BackgroundThread), as top -H, ps -L, perf and gdb show it. prctl(2) is variadic, which
// Swift cannot call, and pthread_setname_np is declared only under _GNU_SOURCE, which Swift's Glibc module is not
// built with: hence this one line of C. Linux keeps the first 15 bytes.
#ifndef COCKPIT_CTHREAD_SHIM_H
#define COCKPIT_CTHREAD_SHIM_H
#include <sys/prctl.h>

static inline int cockpit_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

#endif
