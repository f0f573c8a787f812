/* utf8.c - see utf8.h. */
#include "base/utf8.h"

#include <string.h>

size_t tf_utf8_seq_len(unsigned char lead)
{
    if (lead < 0x80)
        return 1;
    if (lead >= 0xC2 && lead <= 0xDF)
        return 2;
    if (lead >= 0xE0 && lead <= 0xEF)
        return 3;
    if (lead >= 0xF0 && lead <= 0xF4)
        return 4;
    return 0;
}

int32_t tf_utf8_decode(const unsigned char *s, size_t n)
{
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (n == 1)
        return s[0] < 0x80 ? s[0] : -1;
    if (n < 2 || n > 4)
        return -1;
    uint32_t c = s[0] & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return -1;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return -1;
    return (int32_t)c;
}

size_t tf_utf8_next(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return s[0] ? 1 : 0;
    }
    size_t n = tf_utf8_seq_len(s[0]);
    /* A NUL inside the sequence fails the continuation test, so the
     * decoder never reads past the terminator. */
    int32_t c = n ? tf_utf8_decode(s, n) : -1;
    if (c < 0) {
        *cp = TF_UTF8_REPLACEMENT;
        return 1;
    }
    *cp = (uint32_t)c;
    return n;
}

size_t tf_utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

void tf_utf8_clean(char *out, size_t cap, const char *in, bool hex)
{
    static const char digits[] = "0123456789ABCDEF";
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
            if (hex) {
                esc[0] = '\\';
                esc[1] = 'x';
                esc[2] = digits[*p >> 4];
                esc[3] = digits[*p & 0xF];
                m = 4;
            } else {
                m = tf_utf8_encode(cp, esc);
            }
            src = esc;
        }
        if (k + m + 1 > cap)
            break;
        memcpy(out + k, src, m);
        k += m;
        p += len;
    }
    out[k] = '\0';
}
