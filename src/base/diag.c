/* diag.c - see diag.h. */
#include "base/diag.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/utf8.h"

/* One line of valid UTF-8 into out (cap bytes), whatever the text carried
 * in (file names, a damaged archive's names, libotf2's or jansson's text):
 * control bytes become '?', a byte of invalid UTF-8 "\xNN"; cut at a
 * character when out is full. */
static void plain_line(char *out, size_t cap, const char *in)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *p = (const unsigned char *)in;
    size_t k = 0;
    for (;;) {
        uint32_t cp;
        size_t len = tf_utf8_next(p, &cp);
        if (len == 0)
            break;
        char esc[4];
        const char *src = (const char *)p;
        size_t m = len;
        if (cp < 0x20 || cp == 0x7F) {
            esc[0] = '?';
            src = esc;
            m = 1;
        } else if (cp == TF_UTF8_REPLACEMENT && len == 1) {
            esc[0] = '\\';
            esc[1] = 'x';
            esc[2] = hex[*p >> 4];
            esc[3] = hex[*p & 0xF];
            src = esc;
            m = 4;
        }
        if (k + m + 1 > cap)
            break;
        memcpy(out + k, src, m);
        k += m;
        p += len;
    }
    out[k] = '\0';
}

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
    plain_line(d->msg, sizeof d->msg, raw);
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
    plain_line(msg, sizeof msg, raw);
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
    plain_line(name, sizeof name, raw);
    size_t n = strlen(name), cap = sizeof d->msg;
    if (n + 2 >= cap)
        return;
    memmove(d->msg + n + 2, d->msg, cap - n - 2);
    d->msg[cap - 1] = '\0';
    memcpy(d->msg, name, n);
    memcpy(d->msg + n, ": ", 2);
    /* the cut end may have split a character */
    char whole[sizeof d->msg];
    plain_line(whole, sizeof whole, d->msg);
    memcpy(d->msg, whole, sizeof whole);
}
