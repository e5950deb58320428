// Interrupted runs: temporary files removed on a signal (tempfiles.c).
#ifndef MOSAIC_TEMPFILES_H
#define MOSAIC_TEMPFILES_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Remembers a temporary file to remove if the program is interrupted. The table grows as
/// needed; returns 0 only when memory runs out.
int mosaic_temp_register(const char *path);

/// Remembers a temporary folder (a staged pyramid, a report's images) to remove with
/// everything in it if the program is interrupted (Linux; elsewhere only files are).
int mosaic_temp_register_folder(const char *path);

/// Remembers a folder to remove on an interrupt only if it is then empty (a shards' folder
/// this run made, which other processes may be writing into too).
int mosaic_temp_register_empty_folder(const char *path);

/// Forgets a temporary file or folder (it was renamed into place or removed).
void mosaic_temp_unregister(const char *path);

/// `defer` 1: an interrupt that arrives from now on waits; 0: the renames are done, and an
/// interrupt that came meanwhile is acted on now (the cleanup, then the exit). Nests.
void mosaic_defer_interrupts(int defer);

/// mkdir(path, mode), unless an interrupt is being acted on: then -1 with errno EINTR. Held
/// against the interrupt handler (as the deferred renames are), so that no folder is made
/// after the handler removed it: a worker still writing when another thread took the
/// signal would otherwise make a staged folder again, empty, and leave it.
int mosaic_make_folder(const char *path, unsigned int mode);

/// The CRC-32 (zlib's and gzip's polynomial) of `count` bytes following bytes whose CRC
/// is `crc` (0 to start), by ISA-L.
uint32_t mosaic_crc32(uint32_t crc, const void *bytes, size_t count);

/// The CRC-64 (ECMA-182's polynomial, reflected, as xz computes it) of `count` bytes
/// following bytes whose CRC is `crc` (0 to start), by ISA-L.
uint64_t mosaic_crc64(uint64_t crc, const void *bytes, size_t count);

/// Unlinks every registered temporary file and removes every registered folder (what the
/// signal handler does); returns how many were removed. Async-signal-safe.
int mosaic_temp_remove_all(void);

/// The same for the registered files whose path starts with `prefix` (tests: the table is
/// the process's, and other tests' files are in it).
int mosaic_temp_remove_under(const char *prefix);

/// Installs async-signal-safe SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers that unlink
/// every registered temporary file and exit with 128 + the signal, and unblocks them; and
/// ignores SIGXFSZ, so that a file over the size limit is a failed write (EFBIG).
void mosaic_install_interrupt_cleanup(void);

/// Tells the interrupt handler that a progress line is on standard error (1) or not (0):
/// an interrupt then clears it before exiting.
void mosaic_set_progress_line(int active);

#ifdef __cplusplus
}
#endif

#endif
