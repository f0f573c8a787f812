/* hash.h - the one string hash: 32-bit FNV-1a.  It keys the scanner's
 * object index, the loaders' name tables and the string table, and picks
 * a category's colour (so its values are part of the output: never change
 * it). */
#ifndef TF_HASH_H
#define TF_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a of the n bytes at p. */
static inline uint32_t tf_fnv1a(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

#endif
