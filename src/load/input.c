/* input.c - see input.h. */
#include "load/input.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

FILE *tf_open_input(const char *path, struct tf_diag *d)
{
    if (strcmp(path, "-") == 0)
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) {
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        tf_diag_error(d, TF_EBADINPUT, "%s: cannot read: %s", path, strerror(EISDIR));
        return NULL;
    }
    return f;
}

void tf_close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}
