/* diag.c - see diag.h. */
#include "base/diag.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"

void tf_diag_init(struct tf_diag *d)
{
    memset(d, 0, sizeof *d);
}

bool tf_diag_verror(struct tf_diag *d, enum tf_exit code, const char *fmt,
                    va_list ap)
{
    if (d->code != TF_OK)
        return false;
    d->code = code;
    char raw[sizeof d->msg];
    vsnprintf(raw, sizeof raw, fmt, ap);
    tf_utf8_clean(d->msg, sizeof d->msg, raw, true);
    return false;
}

bool tf_diag_error(struct tf_diag *d, enum tf_exit code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tf_diag_verror(d, code, fmt, ap);
    va_end(ap);
    return false;
}

bool tf_diag_usage(struct tf_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tf_diag_verror(d, TF_EUSAGE, fmt, ap);
    va_end(ap);
    return false;
}

bool tf_diag_oom(struct tf_diag *d, const char *where)
{
    if (where)
        return tf_diag_error(d, TF_ENOMEM, "%s: out of memory", where);
    return tf_diag_error(d, TF_ENOMEM, "out of memory");
}

void tf_diag_warn(struct tf_diag *d, const char *fmt, ...)
{
    d->n_warnings++;
    if (d->quiet)
        return;
    char raw[1024], msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    tf_utf8_clean(msg, sizeof msg, raw, true);
    if (d->held)
        tf_buf_printf(d->held, "tracefig: warning: %s\n", msg);
    else
        fprintf(stderr, "tracefig: warning: %s\n", msg);
}

bool tf_diag_failed(const struct tf_diag *d)
{
    return d->code != TF_OK;
}

const char *tf_diag_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

void tf_diag_prefix(struct tf_diag *d, const char *raw)
{
    char name[512];
    tf_utf8_clean(name, sizeof name, raw, true);
    size_t n = strlen(name), cap = sizeof d->msg;
    if (n + 2 >= cap)
        return;
    memmove(d->msg + n + 2, d->msg, cap - n - 2);
    d->msg[cap - 1] = '\0';
    memcpy(d->msg, name, n);
    memcpy(d->msg + n, ": ", 2);
    /* the cut end may have split a character */
    char whole[sizeof d->msg];
    tf_utf8_clean(whole, sizeof whole, d->msg, true);
    memcpy(d->msg, whole, sizeof whole);
}
