/* outfile.c - see outfile.h. */
/* realpath() */
#define _XOPEN_SOURCE 700

#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* Paths under /dev and /proc name streams (/dev/stdout, /proc/self/fd/1):
 * never replaced, always written through. */
static bool is_stream_path(const char *p)
{
    return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0;
}

bool tf_outfile_stage(struct tf_outfile *o, const char *path, const void *data, size_t len,
                      struct tf_diag *d)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->data = data;
    o->len = len;
    if (strcmp(path, "-") == 0 || is_stream_path(path)) {
        o->direct = true;
        return true;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0; /* follows symlinks */
    if (exists && S_ISDIR(st.st_mode))
        return fail(d, path, EISDIR);
    if (exists && !S_ISREG(st.st_mode)) {
        o->direct = true;
        return true;
    }
    struct stat lst;
    bool is_link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    if (is_link && !exists) {
        o->direct = true; /* a dangling link: create the file it names */
        return true;
    }
    o->target = is_link ? realpath(path, NULL) : strdup(path);
    if (!o->target)
        return fail(d, path, errno ? errno : ENOMEM);

    /* "dir/.tfXXXXXX" beside the real target, so rename() stays on one
     * file system and a long file name cannot make the temp name too long. */
    const char *slash = strrchr(o->target, '/');
    size_t dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;
    o->tmp = malloc(dirlen + sizeof ".tfXXXXXX");
    if (!o->tmp)
        return fail(d, path, ENOMEM);
    memcpy(o->tmp, o->target, dirlen);
    strcpy(o->tmp + dirlen, ".tfXXXXXX");
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int err = errno;
        free(o->tmp);
        o->tmp = NULL;
        return fail(d, path, err);
    }
    /* mkstemp makes 0600: keep an existing file's bits, else 0666 - umask. */
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    bool ok = fchmod(fd, mode) == 0 && write_all(fd, data, len);
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return fail(d, path, err);
    }
    return true;
}

bool tf_outfile_commit(struct tf_outfile *o, struct tf_diag *d)
{
    if (!o->direct) {
        if (rename(o->tmp, o->target) != 0)
            return fail(d, o->path, errno);
        free(o->tmp);
        o->tmp = NULL;
        return true;
    }
    if (strcmp(o->path, "-") == 0)
        return write_all(STDOUT_FILENO, o->data, o->len) ? true : fail(d, "<stdout>", errno);
    int fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return fail(d, o->path, errno);
    bool ok = write_all(fd, o->data, o->len);
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    return ok ? true : fail(d, o->path, err);
}

void tf_outfile_abort(struct tf_outfile *o)
{
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->target);
    o->tmp = NULL;
    o->target = NULL;
}
