/* str.c - see str.h. */
#include "base/str.h"

#include <stdlib.h>
#include <string.h>

const char *tf_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

void *tf_field_of(void *base, size_t off)
{
    return (char *)base + off;
}

char *tf_strdup_oom(const char *s, bool *oom)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (!p) {
        *oom = true;
        return NULL;
    }
    return memcpy(p, s, n);
}
