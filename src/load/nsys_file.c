/* nsys_file.c - an Nsight Systems export as a file, before SQLite reads
 * it (see nsys.h): the magic, the header's own account of the file's
 * length, and the URI that opens it read-only and immutable.  Nothing here
 * knows the tables.
 */
#include "load/nsys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool tf_nsys_is_sqlite(const unsigned char *head, size_t n)
{
    return n >= TF_SQLITE_MAGIC_LEN && memcmp(head, "SQLite format 3", TF_SQLITE_MAGIC_LEN) == 0;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A file cut short (a copy that stopped) by its header's own account: the
 * page count it records (when valid: the "version-valid-for" number equals
 * the change counter), else whole pages. */
bool tf_nsys_check_file(const char *path, const char *file, struct tf_diag *d)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", file, strerror(errno));
    struct stat st;
    unsigned char h[100];
    ssize_t n = fstat(fd, &st) == 0 ? pread(fd, h, sizeof h, 0) : -1;
    int err = errno;
    close(fd);
    if (n < 0)
        return tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", file, strerror(err));
    if (n < (ssize_t)sizeof h)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a truncated SQLite database: %lld bytes, not even its header",
                             file, (long long)n);
    uint32_t page = (uint32_t)h[16] << 8 | h[17];
    if (page == 1)
        page = 65536;
    if (page < 512 || (page & (page - 1)))
        return tf_diag_error(d, TF_EBADINPUT, "%s: a damaged SQLite database: page size %u",
                             file, (unsigned)page);
    uint64_t pages = be32(h + 28), size = (uint64_t)st.st_size;
    if (pages && be32(h + 92) == be32(h + 24) && size < pages * page)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a truncated SQLite database: %llu of its %llu bytes", file,
                             (unsigned long long)size, (unsigned long long)(pages * page));
    if (size % page)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a truncated SQLite database: %llu bytes, not a whole number "
                             "of %u-byte pages",
                             file, (unsigned long long)size, (unsigned)page);
    return true;
}

/* "file:PATH?immutable=1", PATH percent-encoded where a URI needs it. */
void tf_nsys_uri(struct tf_buf *b, const char *path)
{
    tf_buf_puts(b, path[0] == '/' ? "file://" : "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p <= 0x20 || *p >= 0x7F)
            tf_buf_printf(b, "%%%02X", *p);
        else
            tf_buf_putc(b, (char)*p);
    }
    tf_buf_puts(b, "?immutable=1");
}
