#ifndef HARK_HANDLER_SPAWN_H
#define HARK_HANDLER_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (both NULL-terminated) in `directory`, as the leader of a
/// new session and process group, with an empty signal mask and every signal at its default
/// action, whatever Hark's own threads block or ignore. The child's stdin, stdout and stderr are
/// `input`, `output` and `errors`; every other descriptor is closed in it.
/// Returns 0 and sets `*pid`, or the errno value that says why it could not start.
int hark_handler_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                       int input, int output, int errors, pid_t *pid);

/// A pipe whose two ends are close-on-exec from the start (and numbered 3 or above, so that they
/// can never be mistaken for a child's standard descriptors). Returns 0, or an errno value.
int hark_handler_pipe(int ends[2]);

#endif
