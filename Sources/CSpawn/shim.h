// posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34; Debian 12 and Raspberry Pi OS 12 have 2.36) is declared in
// <spawn.h> only under _GNU_SOURCE, which Swift's Glibc module is built without. The same prototype, declared here.
#include <spawn.h>
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
