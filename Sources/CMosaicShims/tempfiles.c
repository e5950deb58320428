// Temporary files to remove when the program is interrupted. The signal handler must be
// async-signal-safe: it only walks a fixed table of paths and calls unlink() and _exit(),
// which is why it is written in C (Swift code may allocate or take runtime locks).
#include "CMosaicShims.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MOSAIC_TEMP_SLOTS = 64, MOSAIC_TEMP_PATH = 4096 };

static char mosaic_temp_paths[MOSAIC_TEMP_SLOTS][MOSAIC_TEMP_PATH];
static volatile sig_atomic_t mosaic_temp_used[MOSAIC_TEMP_SLOTS];
static pthread_mutex_t mosaic_temp_lock = PTHREAD_MUTEX_INITIALIZER;

int mosaic_temp_register(const char *path) {
    size_t length = strlen(path);
    if (length >= MOSAIC_TEMP_PATH) return 0;
    pthread_mutex_lock(&mosaic_temp_lock);
    for (int i = 0; i < MOSAIC_TEMP_SLOTS; i++) {
        if (!mosaic_temp_used[i]) {
            memcpy(mosaic_temp_paths[i], path, length + 1);
            mosaic_temp_used[i] = 1;
            pthread_mutex_unlock(&mosaic_temp_lock);
            return 1;
        }
    }
    pthread_mutex_unlock(&mosaic_temp_lock);
    return 0;
}

void mosaic_temp_unregister(const char *path) {
    pthread_mutex_lock(&mosaic_temp_lock);
    for (int i = 0; i < MOSAIC_TEMP_SLOTS; i++) {
        if (mosaic_temp_used[i] && strcmp(mosaic_temp_paths[i], path) == 0) mosaic_temp_used[i] = 0;
    }
    pthread_mutex_unlock(&mosaic_temp_lock);
}

static void mosaic_temp_on_signal(int number) {
    for (int i = 0; i < MOSAIC_TEMP_SLOTS; i++) {
        if (mosaic_temp_used[i]) unlink(mosaic_temp_paths[i]);
    }
    _exit(128 + number);
}

void mosaic_install_interrupt_cleanup(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = mosaic_temp_on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    // A blocked mask is inherited from the parent: make sure these arrive.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &signals, NULL);
}
