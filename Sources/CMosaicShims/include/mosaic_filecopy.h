// A file's bytes into a new file, shared where the file system can (filecopy.c).
#ifndef MOSAIC_FILECOPY_H
#define MOSAIC_FILECOPY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How `mosaic_copy_file` made the copy.
enum {
    MOSAIC_COPY_CLONED = 1,   // ioctl FICLONE: the blocks shared, copied on a later write (btrfs, XFS)
    MOSAIC_COPY_KERNEL = 2,   // copy_file_range: copied in the kernel (or shared by it)
    MOSAIC_COPY_READ = 3,     // read and write
};

/// Copies the regular file open at `source` (read from its start, `size` bytes) into the
/// empty file open for writing at `destination`: a clone first, then copy_file_range, then
/// read and write. Never a hard link. Returns the MOSAIC_COPY_ way used, or -errno.
int mosaic_copy_file(int source, int destination, int64_t size);

#ifdef __cplusplus
}
#endif

#endif
