// Temporary files to remove when the program is interrupted. The signal handler must be
// async-signal-safe: it only walks the table and calls unlink() and _exit(), which is why
// it is written in C (Swift code may allocate or take runtime locks).
//
// The table has no fixed size: it is a list of chunks of slots. A chunk is filled in
// before it is published with one atomic store, and chunks are never freed, so the
// handler can walk the list at any moment without a lock.
#include "CMosaicShims.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MOSAIC_TEMP_CHUNK = 64 };

typedef struct mosaic_temp_chunk {
    char *paths[MOSAIC_TEMP_CHUNK];
    volatile sig_atomic_t used[MOSAIC_TEMP_CHUNK];
    struct mosaic_temp_chunk *_Atomic next;
} mosaic_temp_chunk;

static mosaic_temp_chunk mosaic_temp_first;
static pthread_mutex_t mosaic_temp_lock = PTHREAD_MUTEX_INITIALIZER;

int mosaic_temp_register(const char *path) {
    char *copy = strdup(path);
    if (!copy) return 0;
    pthread_mutex_lock(&mosaic_temp_lock);
    mosaic_temp_chunk *chunk = &mosaic_temp_first;
    while (1) {
        for (int i = 0; i < MOSAIC_TEMP_CHUNK; i++) {
            if (!chunk->used[i]) {
                free(chunk->paths[i]);
                chunk->paths[i] = copy;
                chunk->used[i] = 1;  // after the path: the handler never sees a half-set slot
                pthread_mutex_unlock(&mosaic_temp_lock);
                return 1;
            }
        }
        mosaic_temp_chunk *next = atomic_load(&chunk->next);
        if (!next) {
            next = calloc(1, sizeof *next);
            if (!next) {
                pthread_mutex_unlock(&mosaic_temp_lock);
                free(copy);
                return 0;
            }
            atomic_store(&chunk->next, next);
        }
        chunk = next;
    }
}

void mosaic_temp_unregister(const char *path) {
    pthread_mutex_lock(&mosaic_temp_lock);
    for (mosaic_temp_chunk *chunk = &mosaic_temp_first; chunk; chunk = atomic_load(&chunk->next)) {
        for (int i = 0; i < MOSAIC_TEMP_CHUNK; i++) {
            if (chunk->used[i] && strcmp(chunk->paths[i], path) == 0) chunk->used[i] = 0;
        }
    }
    pthread_mutex_unlock(&mosaic_temp_lock);
}

int mosaic_temp_remove_under(const char *prefix) {
    size_t length = prefix ? strlen(prefix) : 0;
    int removed = 0;
    for (mosaic_temp_chunk *chunk = &mosaic_temp_first; chunk; chunk = atomic_load(&chunk->next)) {
        for (int i = 0; i < MOSAIC_TEMP_CHUNK; i++) {
            if (!chunk->used[i] || (prefix && strncmp(chunk->paths[i], prefix, length) != 0)) continue;
            if (unlink(chunk->paths[i]) == 0) removed += 1;
        }
    }
    return removed;
}

int mosaic_temp_remove_all(void) { return mosaic_temp_remove_under(NULL); }

/// A progress line is on standard error (set by the command line): an interrupt ends it.
static volatile sig_atomic_t mosaic_progress_line = 0;

void mosaic_set_progress_line(int active) { mosaic_progress_line = active; }

static void mosaic_temp_on_signal(int number) {
    mosaic_temp_remove_all();
    // Clear the progress line, so that the shell's prompt starts on a clean line.
    if (mosaic_progress_line) (void)!write(2, "\r\033[K", 4);
    _exit(128 + number);
}

void mosaic_install_interrupt_cleanup(void) {
    // Ctrl-C, kill, a closed terminal, and a closed pipe (`mosaic render ... | head`).
    static const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = mosaic_temp_on_signal;
    sigemptyset(&action.sa_mask);
    sigset_t unblock;
    sigemptyset(&unblock);
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        sigaction(signals[i], &action, NULL);
        sigaddset(&unblock, signals[i]);
    }
    // A blocked mask is inherited from the parent: make sure these arrive.
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
}
