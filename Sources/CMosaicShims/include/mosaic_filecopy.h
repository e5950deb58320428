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

/// Asked before an approval changes anything: with `name` NULL, whether entries of the folder
/// open at `folder` may be made, renamed over and removed; with `name`, whether that entry
/// may be replaced or removed. 0, or the errno that rename or unlink would give: EROFS (a
/// read-only mount), EACCES (the folder's permission bits, for a user who is not root),
/// EPERM (immutable or append-only, `chattr +i` / `+a`, which root too must obey; or a
/// sticky folder's entry of another owner). An entry that is not there is 0. Linux reads
/// the attributes with statx; elsewhere only the folder's access is checked.
int mosaic_check_replaceable(int folder, const char *name);

#ifdef __cplusplus
}
#endif

#endif
