// POSIX_SPAWN_SETSID, the chdir and closefrom file actions and pipe2 are GNU extensions, which
// Swift's Glibc module does not show; this file is their one user.
#define _GNU_SOURCE
#include "hark_handler_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int hark_handler_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                       int input, int output, int errors, pid_t *pid) {
    if (input < 3 || output < 3 || errors < 3) return EINVAL;  // dup2 onto 0..2 would clobber them
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    sigset_t none, all;
    if (sigemptyset(&none) != 0 || sigfillset(&all) != 0) result = errno;
    // glibc's sigfillset leaves out its two internal signals (32 and 33), and its posix_spawn
    // then leaves them ignored in the child, which exec keeps. Its sigaddset refuses them, so
    // their bits are set directly: the program starts with no signal ignored at all.
    enum { bits = 8 * sizeof(all.__val[0]) };
    for (int number = __SIGRTMIN; number <= __SIGRTMIN + 1; number++) {
        all.__val[(number - 1) / bits] |= 1UL << ((number - 1) % bits);
    }
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, errors, 2);
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (result == 0) result = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (result == 0) result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK
                                                                        | POSIX_SPAWN_SETSIGDEF);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
    if (result == 0) result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    // Destroying either can only fail for an object that was never initialised.
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}

int hark_handler_pipe(int ends[2]) {
    if (pipe2(ends, O_CLOEXEC) != 0) return errno;
    for (int i = 0; i < 2; i++) {
        if (ends[i] >= 3) continue;
        int moved = fcntl(ends[i], F_DUPFD_CLOEXEC, 3);
        int code = moved < 0 ? errno : 0;
        close(ends[i]);  // a pipe end just made: closing it cannot fail (no EINTR, no data to flush)
        if (moved < 0) {
            close(ends[1 - i]);
            return code;
        }
        ends[i] = moved;
    }
    return 0;
}
