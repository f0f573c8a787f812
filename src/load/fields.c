/* fields.c - the members of a value the scanner has already validated
 * (tf_scan_fields, scan.h): where each named field's value lies, read
 * without a second validation.  The streaming scanner itself is scan.c. */
#include "load/scan.h"
#include "load/scan_int.h"

#include <stdlib.h>
#include <string.h>

static size_t ws_from(const unsigned char *p, size_t i, size_t len)
{
    while (i < len && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        i++;
    return i;
}

/* Past the string token whose opening quote is at p[i]. */
static size_t string_end(const unsigned char *p, size_t i, size_t len, bool *esc)
{
    for (i++; i < len; i++) {
        if (p[i] == '\\') {
            *esc = true;
            i++;
        } else if (p[i] == '"') {
            return i + 1;
        }
    }
    return len;
}

/* A byte of a number token (scan.c's num_byte table). */
static bool number_byte(int c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Past the value that starts at p[i]. */
static size_t value_end(const unsigned char *p, size_t i, size_t len)
{
    bool esc = false;
    if (p[i] == '"')
        return string_end(p, i, len, &esc);
    if (p[i] != '{' && p[i] != '[') {
        /* A number or a word: up to the next structural byte, space or
         * (jansson's quirk, see drop_nul_after_token) NUL. */
        while (i < len && (number_byte(p[i]) || tf_scan_alpha(p[i])))
            i++;
        return i;
    }
    size_t depth = 0;
    for (; i < len; i++) {
        unsigned char c = p[i];
        if (c == '"') {
            i = string_end(p, i, len, &esc) - 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return len;
}

void tf_scan_fields(const unsigned char *data, size_t len, struct tf_scan_field *fields,
                    size_t n_fields)
{
    tf_scan_init_tables();
    for (size_t i = 0; i < n_fields; i++) {
        fields[i].type = TF_JT_NONE;
        fields[i].off = fields[i].len = 0;
        fields[i].escaped = fields[i].is_int = false;
    }
    size_t nf = n_fields < TF_SCAN_MAX_FIELDS ? n_fields : TF_SCAN_MAX_FIELDS;
    size_t i = ws_from(data, 0, len);
    if (i >= len || data[i] != '{')
        return;
    char small[256];
    for (i++;;) {
        i = ws_from(data, i, len);
        if (i >= len || data[i] != '"')
            return; /* the closing '}' */
        bool kesc = false;
        size_t kend = string_end(data, i, len, &kesc);
        const char *key = (const char *)data + i + 1;
        size_t klen = kend - i - 2;
        char *dec = NULL;
        if (kesc) {
            dec = klen <= sizeof small ? small : malloc(klen);
            if (dec)
                klen = tf_scan_decode_string(data + i + 1, klen, dec);
            key = dec;
        }
        struct tf_scan_field *cur = NULL;
        for (size_t k = 0; key && k < nf; k++)
            if (strlen(fields[k].name) == klen && memcmp(fields[k].name, key, klen) == 0) {
                cur = &fields[k];
                break;
            }
        if (dec != small)
            free(dec);
        i = ws_from(data, kend, len) + 1; /* the ':' */
        size_t v = ws_from(data, i, len);
        if (v >= len)
            return;
        size_t end = value_end(data, v, len);
        if (cur) {
            cur->type = tf_scan_kind_of(data[v]);
            cur->off = v;
            cur->len = end - v;
            cur->escaped = cur->is_int = false;
            if (cur->type == TF_JT_STRING) {
                cur->off = v + 1;
                cur->len = end - v - 2;
                string_end(data, v, len, &cur->escaped);
            } else if (cur->type == TF_JT_NUMBER) {
                cur->is_int = true;
                for (size_t k = v; k < end; k++)
                    if (data[k] == '.' || data[k] == 'e' || data[k] == 'E')
                        cur->is_int = false;
            } else if (cur->type == TF_JT_TRUE || cur->type == TF_JT_FALSE ||
                       cur->type == TF_JT_NULL) {
                cur->type = tf_scan_word_kind(data + v, end - v);
            }
        }
        i = end;
        if (i < len && data[i] == '\0')
            i++;
        i = ws_from(data, i, len);
        if (i >= len || data[i] != ',')
            return;
        i++;
    }
}
