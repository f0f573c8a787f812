/* escape.c - see escape.h. */
#include "base/escape.h"

#include <string.h>

#include "base/utf8.h"

void tf_buf_json_str(struct tf_buf *b, const char *s)
{
    tf_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': tf_buf_puts(b, "\\\""); break;
        case '\\': tf_buf_puts(b, "\\\\"); break;
        case '\n': tf_buf_puts(b, "\\n"); break;
        case '\r': tf_buf_puts(b, "\\r"); break;
        case '\t': tf_buf_puts(b, "\\t"); break;
        default:
            if (*p < 0x20 || *p == 0x7F)
                tf_buf_printf(b, "\\u%04x", *p);
            else
                tf_buf_putc(b, (char)*p);
        }
    }
    tf_buf_putc(b, '"');
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

char *tf_xml_clean(const char *s)
{
    /* Most text is printable ASCII: copy it as it is. */
    const unsigned char *q = (const unsigned char *)s;
    while (*q >= 0x20 && *q < 0x7F)
        q++;
    if (*q == '\0')
        return strdup(s);
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_puts(&b, ""); /* an empty string still gets a buffer */
    const unsigned char *p = (const unsigned char *)s;
    uint32_t cp;
    for (size_t n; (n = tf_utf8_next(p, &cp)) > 0; p += n) {
        /* Not XML characters: controls other than tab/LF/CR, U+FFFE/FFFF. */
        bool bad = cp == TF_UTF8_REPLACEMENT || (cp < 0x20 && cp != '\t' && cp != '\n' &&
                                                 cp != '\r') ||
                   cp == 0x7F || cp == 0xFFFE || cp == 0xFFFF;
        if (bad)
            tf_buf_puts(&b, "\xEF\xBF\xBD");
        else
            tf_buf_putn(&b, (const char *)p, n);
    }
    if (b.oom) {
        tf_buf_fini(&b);
        return NULL;
    }
    return b.data;
}
