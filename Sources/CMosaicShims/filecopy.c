// A report's copies of the images compared: the kernel shares the blocks when the file
// system can (a reflink: ioctl FICLONE on btrfs, XFS, bcachefs), else copies them without
// a trip through user space (copy_file_range), else by read and write. A copy is a new
// file either way, never a hard link: a tool that rewrites the report's files cannot
// change a baseline through it. And whether an approval may change a folder's entries
// (mosaic_check_replaceable), asked before it changes any.
#define _GNU_SOURCE
#include "CMosaicShims.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

int mosaic_copy_file(int source, int destination, int64_t size) {
    if (size < 0) return -EINVAL;
#if defined(__linux__) && defined(FICLONE)
    if (ioctl(destination, FICLONE, source) == 0) return MOSAIC_COPY_CLONED;
#endif
    int64_t done = 0;
    int way = MOSAIC_COPY_KERNEL;
#if defined(__linux__)
    while (done < size) {
        ssize_t copied = copy_file_range(source, NULL, destination, NULL, (size_t)(size - done), 0);
        if (copied < 0 && errno == EINTR) continue;
        if (copied <= 0) {
            // Not across these file systems or kernels (EXDEV, ENOSYS, EINVAL, EOPNOTSUPP),
            // or the file shrank: the rest by read and write.
            if (copied < 0 && errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP && errno != EPERM) return -errno;
            break;
        }
        done += copied;
    }
#endif
    if (done >= size) return way;
    way = MOSAIC_COPY_READ;
    if (lseek(source, (off_t)done, SEEK_SET) < 0 || lseek(destination, (off_t)done, SEEK_SET) < 0) return -errno;
    char buffer[1 << 16];
    for (;;) {
        ssize_t got = read(source, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -errno;
        if (got == 0) break;
        ssize_t at = 0;
        while (at < got) {
            ssize_t wrote = write(destination, buffer + at, (size_t)(got - at));
            if (wrote < 0 && errno == EINTR) continue;
            if (wrote <= 0) return wrote < 0 ? -errno : -EIO;
            at += wrote;
        }
    }
    return way;
}

int mosaic_check_replaceable(int folder, const char *name) {
    if (name == NULL && faccessat(folder, ".", W_OK | X_OK, AT_EACCESS) != 0) return errno;
#if defined(__linux__) && defined(STATX_ATTR_IMMUTABLE) && defined(STATX_ATTR_APPEND)
    const uint64_t fixed = STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND;
    struct statx dir, entry;
    if (statx(folder, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MODE | STATX_UID, &dir) != 0) return errno;
    if (name == NULL) return (dir.stx_attributes_mask & dir.stx_attributes & fixed) ? EPERM : 0;
    if (statx(folder, name, AT_SYMLINK_NOFOLLOW, STATX_MODE | STATX_UID, &entry) != 0) return errno == ENOENT ? 0 : errno;
    if (entry.stx_attributes_mask & entry.stx_attributes & fixed) return EPERM;
    uid_t user = geteuid();
    if ((dir.stx_mode & S_ISVTX) && user != 0 && user != entry.stx_uid && user != dir.stx_uid) return EPERM;
#else
    (void)name;
#endif
    return 0;
}
