/* escape.c - see escape.h. */
#include "base/escape.h"

#include <string.h>

#include "base/utf8.h"

void tf_buf_json_str(struct tf_buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    tf_buf_putc(b, '"');
    const unsigned char *run = (const unsigned char *)s, *p = run;
    for (;; p++) {
        /* Bytes that stand for themselves are copied a run at a time. */
        if (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\' && *p != 0x7F)
            continue;
        if (*p >= 0x80) {
            /* valid UTF-8 stands for itself; an invalid byte for U+FFFD */
            size_t n = tf_utf8_seq_len(*p);
            if (n && tf_utf8_decode(p, n) >= 0) {
                p += n - 1;
                continue;
            }
            tf_buf_putn(b, (const char *)run, (size_t)(p - run));
            tf_buf_puts(b, "\xEF\xBF\xBD");
            run = p + 1;
            continue;
        }
        tf_buf_putn(b, (const char *)run, (size_t)(p - run));
        run = p + 1;
        switch (*p) {
        case '\0': tf_buf_putc(b, '"'); return;
        case '"': tf_buf_puts(b, "\\\""); break;
        case '\\': tf_buf_puts(b, "\\\\"); break;
        case '\n': tf_buf_puts(b, "\\n"); break;
        case '\r': tf_buf_puts(b, "\\r"); break;
        case '\t': tf_buf_puts(b, "\\t"); break;
        default: { /* "\u%04x" */
            char u[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 0xF]};
            tf_buf_putn(b, u, sizeof u);
        }
        }
    }
}

void tf_buf_tex_escape(struct tf_buf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '#': case '$': case '%': case '&': case '_': case '{': case '}':
            tf_buf_putc(b, '\\');
            tf_buf_putc(b, (char)*p);
            break;
        case '\\': tf_buf_puts(b, "\\textbackslash{}"); break;
        case '^': tf_buf_puts(b, "\\^{}"); break;
        case '~': tf_buf_puts(b, "\\textasciitilde{}"); break;
        case '<': tf_buf_puts(b, "\\textless{}"); break;
        case '>': tf_buf_puts(b, "\\textgreater{}"); break;
        case '|': tf_buf_puts(b, "\\textbar{}"); break;
        case '"': tf_buf_puts(b, "\\tracefigdq{}"); break;
        case '[': tf_buf_puts(b, "{[}"); break;
        case ']': tf_buf_puts(b, "{]}"); break;
        case '-':
            tf_buf_putc(b, '-');
            if (p[1] == '-')
                tf_buf_puts(b, "{}");
            break;
        default:
            if (*p < 0x20 || *p == 0x7F)
                break; /* control bytes have no meaning in TeX text */
            tf_buf_putc(b, (char)*p);
        }
    }
}

/* Not an XML character (controls other than tab/LF/CR, DEL, U+FFFE/FFFF)
 * or not UTF-8: each such character (one byte when invalid) becomes
 * U+FFFD.  A U+FFFD of the input counts as bad too; it is written as it
 * was. */
static bool xml_bad(uint32_t cp)
{
    return cp == TF_UTF8_REPLACEMENT || (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
           cp == 0x7F || cp == 0xFFFE || cp == 0xFFFF;
}

/* The bytes from p up to the first bad character or the end, which
 * tf_xml_clean copies as they are. */
static const unsigned char *good_run(const unsigned char *p)
{
    for (;;) {
        while ((*p >= 0x20 && *p < 0x7F) || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (*p < 0x80)
            return p; /* the end, a control or DEL */
        uint32_t cp;
        size_t n = tf_utf8_next(p, &cp);
        if (xml_bad(cp))
            return p;
        p += n;
    }
}

/* s cleaned into b (appended): each good run copied at once. */
static void clean_into(struct tf_buf *b, const unsigned char *p)
{
    for (;;) {
        const unsigned char *e = good_run(p);
        tf_buf_putn(b, (const char *)p, (size_t)(e - p));
        if (!*e)
            return;
        uint32_t cp;
        size_t n = tf_utf8_next(e, &cp);
        tf_buf_puts(b, "\xEF\xBF\xBD");
        p = e + n;
    }
}

const char *tf_xml_clean_view(const char *s, struct tf_buf *scratch)
{
    const unsigned char *p = (const unsigned char *)s;
    if (!*good_run(p))
        return s;
    tf_buf_clear(scratch);
    clean_into(scratch, p);
    return scratch->oom ? NULL : scratch->data;
}

char *tf_xml_clean(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    if (!*good_run(p))
        return strdup(s);
    struct tf_buf b;
    tf_buf_init(&b);
    clean_into(&b, p);
    if (b.oom) {
        tf_buf_fini(&b);
        return NULL;
    }
    return b.data;
}
