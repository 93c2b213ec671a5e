// SIGINT/SIGTERM forwarded into a pipe (SignalWaiter). The handler is C so that it makes only async-signal-safe calls:
// one write(2) of the signal number, errno kept. It is installed with sigaction at once, so no signal can arrive in
// a window where it is ignored or not yet handled (libdispatch's signal sources register asynchronously, and the
// SIG_IGN they need beforehand discarded a SIGTERM that came in that window: the relay never stopped).
#ifndef COCKPIT_CSIGNAL_SHIM_H
#define COCKPIT_CSIGNAL_SHIM_H
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile int cockpit_signal_pipe_fd = -1;

static void cockpit_signal_forward(int signo) {
    int saved = errno;
    unsigned char number = (unsigned char)signo;
    int fd = cockpit_signal_pipe_fd;
    if (fd >= 0) {
        ssize_t written = write(fd, &number, 1);
        (void)written;
    }
    errno = saved;
}

/// Makes `signo` write its number to `pipe_fd` (the non-blocking write end of a pipe). Returns sigaction's result.
static inline int cockpit_signal_forward_to_pipe(int signo, int pipe_fd) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = cockpit_signal_forward;
    action.sa_flags = SA_RESTART;
    cockpit_signal_pipe_fd = pipe_fd;
    return sigaction(signo, &action, NULL);
}
#endif
