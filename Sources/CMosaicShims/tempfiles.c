// Temporary files and folders to remove when the program is interrupted. The signal
// handler must be async-signal-safe: it only walks the table and calls unlink(), openat(),
// getdents64, unlinkat(), nanosleep() and _exit(), which is why it is written in C (Swift code may
// allocate or take runtime locks).
//
// The table has no fixed size: it is a list of chunks of slots. A chunk is filled in
// before it is published with one atomic store, and chunks are never freed, so the
// handler can walk the list at any moment without a lock.
#include "CMosaicShims.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#include <isa-l/crc.h>
#include <isa-l/crc64.h>

enum { MOSAIC_TEMP_CHUNK = 64 };

/// A slot's state: free, a file, a folder (removed with everything in it), or a folder
/// removed only when it is empty (one that other processes may also write into).
enum { MOSAIC_TEMP_FREE = 0, MOSAIC_TEMP_FILE = 1, MOSAIC_TEMP_FOLDER = 2, MOSAIC_TEMP_EMPTY_FOLDER = 3 };

typedef struct mosaic_temp_chunk {
    char *paths[MOSAIC_TEMP_CHUNK];
    volatile sig_atomic_t used[MOSAIC_TEMP_CHUNK];
    struct mosaic_temp_chunk *_Atomic next;
} mosaic_temp_chunk;

static mosaic_temp_chunk mosaic_temp_first;
static pthread_mutex_t mosaic_temp_lock = PTHREAD_MUTEX_INITIALIZER;

static int mosaic_temp_register_kind(const char *path, sig_atomic_t kind) {
    char *copy = strdup(path);
    if (!copy) return 0;
    pthread_mutex_lock(&mosaic_temp_lock);
    mosaic_temp_chunk *chunk = &mosaic_temp_first;
    while (1) {
        for (int i = 0; i < MOSAIC_TEMP_CHUNK; i++) {
            if (!chunk->used[i]) {
                free(chunk->paths[i]);
                chunk->paths[i] = copy;
                chunk->used[i] = kind;  // after the path: the handler never sees a half-set slot
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

int mosaic_temp_register(const char *path) { return mosaic_temp_register_kind(path, MOSAIC_TEMP_FILE); }

int mosaic_temp_register_folder(const char *path) { return mosaic_temp_register_kind(path, MOSAIC_TEMP_FOLDER); }

int mosaic_temp_register_empty_folder(const char *path) { return mosaic_temp_register_kind(path, MOSAIC_TEMP_EMPTY_FOLDER); }

void mosaic_temp_unregister(const char *path) {
    pthread_mutex_lock(&mosaic_temp_lock);
    for (mosaic_temp_chunk *chunk = &mosaic_temp_first; chunk; chunk = atomic_load(&chunk->next)) {
        for (int i = 0; i < MOSAIC_TEMP_CHUNK; i++) {
            if (chunk->used[i] && strcmp(chunk->paths[i], path) == 0) chunk->used[i] = 0;
        }
    }
    pthread_mutex_unlock(&mosaic_temp_lock);
}

#if defined(__linux__)
/// getdents64's record (the kernel's layout; glibc declares no type for it).
struct mosaic_dirent64 {
    uint64_t inode;
    int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[];
};

/// Removes `name` in the folder `parent` with everything in it, without following links,
/// `depth` folders deep at most. Async-signal-safe: no allocation, a buffer on the stack.
/// A pass over the folder's entries is repeated until one removes nothing (entries
/// removed while the folder is read may move the others).
static int mosaic_remove_tree_at(int parent, const char *name, int depth) {
    if (unlinkat(parent, name, 0) == 0) return 1;
    if ((errno != EISDIR && errno != EPERM) || depth > 16) return 0;
    int folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (folder < 0) return 0;
    char buffer[2048] __attribute__((aligned(8)));
    for (int removed = 1; removed;) {
        removed = 0;
        if (lseek(folder, 0, SEEK_SET) != 0) break;
        long count;
        while ((count = syscall(SYS_getdents64, folder, buffer, sizeof buffer)) > 0) {
            for (long at = 0; at < count;) {
                struct mosaic_dirent64 *entry = (struct mosaic_dirent64 *)(buffer + at);
                at += entry->length;
                if (strcmp(entry->name, ".") == 0 || strcmp(entry->name, "..") == 0) continue;
                removed += mosaic_remove_tree_at(folder, entry->name, depth + 1);
            }
        }
    }
    close(folder);
    return unlinkat(parent, name, AT_REMOVEDIR) == 0;
}
#endif

/// Removes a registered path: a file, a folder with everything in it, or an empty folder.
/// On an interrupt the other threads run on while the handler removes a folder (a tile
/// pyramid's workers still writing into the staged folder): a file they make after the
/// last pass leaves it not empty, so the folder is gone over again, a millisecond later,
/// until it goes (the workers' pace is far below the passes').
static int mosaic_temp_remove_slot(const char *path, sig_atomic_t kind) {
    if (kind == MOSAIC_TEMP_EMPTY_FOLDER) return rmdir(path) == 0;
#if defined(__linux__)
    if (kind == MOSAIC_TEMP_FOLDER) {
        for (int attempt = 0; attempt < 200; attempt++) {
            if (mosaic_remove_tree_at(AT_FDCWD, path, 0)) return 1;
            if (errno != ENOTEMPTY && errno != EEXIST) return 0;
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
        }
        return 0;
    }
#else
    (void)kind;
#endif
    return unlink(path) == 0;
}

int mosaic_temp_remove_under(const char *prefix) {
    size_t length = prefix ? strlen(prefix) : 0;
    int removed = 0;
    // Empty folders last: what is registered inside them goes first.
    for (int pass = 0; pass < 2; pass++) {
        for (mosaic_temp_chunk *chunk = &mosaic_temp_first; chunk; chunk = atomic_load(&chunk->next)) {
            for (int i = 0; i < MOSAIC_TEMP_CHUNK; i++) {
                sig_atomic_t kind = chunk->used[i];
                if (kind == MOSAIC_TEMP_FREE || (kind == MOSAIC_TEMP_EMPTY_FOLDER) != (pass == 1)) continue;
                if (prefix && strncmp(chunk->paths[i], prefix, length) != 0) continue;
                removed += mosaic_temp_remove_slot(chunk->paths[i], kind);
            }
        }
    }
    return removed;
}

int mosaic_temp_remove_all(void) { return mosaic_temp_remove_under(NULL); }

/// A progress line is on standard error (set by the command line): an interrupt ends it.
static volatile sig_atomic_t mosaic_progress_line = 0;

void mosaic_set_progress_line(int active) { mosaic_progress_line = active; }

/// Renames in progress (a staged folder's two renames into place), and the signal that
/// came meanwhile: it is acted on when they are done, so an interrupt never falls between
/// moving the previous folder aside and putting the new one in its place.
static atomic_int mosaic_deferring = 0;
static atomic_int mosaic_deferred = 0;
/// Set by the handler before it looks at `mosaic_deferring`: a folder maker that holds the
/// handler back and then sees it makes nothing (mosaic_make_folder).
static atomic_int mosaic_interrupted = 0;

static void mosaic_temp_on_signal(int number) {
    atomic_store(&mosaic_deferred, number);
    atomic_store(&mosaic_interrupted, 1);
    if (atomic_load(&mosaic_deferring) > 0) return;
    mosaic_temp_remove_all();
    // Clear the progress line, so that the shell's prompt starts on a clean line.
    if (mosaic_progress_line) (void)!write(2, "\r\033[K", 4);
    _exit(128 + number);
}

void mosaic_defer_interrupts(int defer) {
    if (defer) {
        atomic_fetch_add(&mosaic_deferring, 1);
        return;
    }
    if (atomic_fetch_sub(&mosaic_deferring, 1) == 1) {
        int number = atomic_load(&mosaic_deferred);
        if (number) mosaic_temp_on_signal(number);
    }
}

int mosaic_make_folder(const char *path, unsigned int mode) {
    mosaic_defer_interrupts(1);
    int made = -1;
    if (atomic_load(&mosaic_interrupted)) {
        errno = EINTR;
    } else {
        made = mkdir(path, (mode_t)mode);
    }
    int saved = errno;
    mosaic_defer_interrupts(0);
    errno = saved;
    return made;
}

uint32_t mosaic_crc32(uint32_t crc, const void *bytes, size_t count) {
    return count ? crc32_gzip_refl(crc, (const unsigned char *)bytes, (uint64_t)count) : crc;
}

uint64_t mosaic_crc64(uint64_t crc, const void *bytes, size_t count) {
    return count ? crc64_ecma_refl(crc, (const unsigned char *)bytes, (uint64_t)count) : crc;
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
    // A file over the size limit (`ulimit -f`): the write fails with EFBIG, which the
    // writer reports and cleans up after, instead of SIGXFSZ ending the program with its
    // temporary files and folders left behind.
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGXFSZ, &ignore, NULL);
}
