#include <alsa/asoundlib.h>

/* libasound prints its own diagnostics to stderr ("ALSA lib confmisc.c: Cannot get card index …") on every failed
   open; cockpitd reports device problems itself (status flag and one log line), so they are silenced. C variadic
   functions cannot be written in Swift, hence this one inline helper. */
static void cockpit_alsa_silent_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void cockpit_alsa_silence_library_errors(void) {
    snd_lib_error_set_handler(cockpit_alsa_silent_error);
}
