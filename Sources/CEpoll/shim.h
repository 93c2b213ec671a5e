// epoll(7) for the relay's load generator (Glibc's module does not include it).
#include <sys/epoll.h>
