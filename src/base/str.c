/* str.c - small string helpers; see str.h. */
#include "base/str.h"

#include <stdlib.h>
#include <string.h>

char *tf_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}
