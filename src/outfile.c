/* outfile.c - see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static bool fail(struct tf_diag *d, const char *path, int err)
{
    return tf_diag_error(d, TF_EIO, "%s: cannot write: %s", path, strerror(err));
}

bool tf_outfile_write(const char *path, const void *data, size_t len, struct tf_diag *d)
{
    if (strcmp(path, "-") == 0) {
        if (!write_all(STDOUT_FILENO, data, len))
            return fail(d, "<stdout>", errno);
        return true;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return fail(d, path, EISDIR);
        int fd = open(path, O_WRONLY | O_TRUNC);
        if (fd < 0)
            return fail(d, path, errno);
        bool ok = write_all(fd, data, len);
        int err = errno;
        if (close(fd) != 0 && ok) {
            ok = false;
            err = errno;
        }
        return ok ? true : fail(d, path, err);
    }

    /* "dir/.name.XXXXXX" beside the target, so rename() stays on one file system. */
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return fail(d, path, ENOMEM);
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    memcpy(tmp, path, dirlen);
    tmp[dirlen] = '.';
    strcpy(tmp + dirlen + 1, path + dirlen);
    strcat(tmp, ".XXXXXX");

    int fd = mkstemp(tmp);
    if (fd < 0) {
        int err = errno;
        free(tmp);
        return fail(d, path, err);
    }
    /* mkstemp makes 0600; an output gets the usual 0666 less the umask. */
    mode_t mask = umask(0);
    umask(mask);
    bool ok = fchmod(fd, 0666 & ~mask) == 0 && write_all(fd, data, len);
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok)
        unlink(tmp);
    free(tmp);
    return ok ? true : fail(d, path, err);
}
