// zlib (Debian's zlib1g) for the data updater's gunzip of terrain tiles. inflateInit2 is a macro, which Swift cannot
// call: hence the one inline wrapper.
#ifndef COCKPIT_CZLIB_SHIM_H
#define COCKPIT_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 for a gzip stream (window bits 15 + 16: a gzip header and trailer, checked).
static inline int cockpit_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
