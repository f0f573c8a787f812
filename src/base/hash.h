/* hash.h - the string hashes: 32-bit FNV-1a, which keys the scanner's
 * object index and the loaders' name tables and picks a category's colour
 * (so its values are part of the output: never change it), and a faster
 * one for the string table, whose slots never show. */
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

/* A hash for tables whose order never shows (the string table's slots):
 * eight bytes at a time, so a long kernel name costs a few steps.  Not
 * FNV-1a: never let it pick anything that is printed. */
static inline uint32_t tf_hash_words(const char *s, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int k = 0; k < 8; k++) /* little-endian whatever the machine */
            w |= (uint64_t)(unsigned char)s[i + k] << (8 * k);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    for (int k = 0; i < n; i++, k++)
        w |= (uint64_t)(unsigned char)s[i] << (8 * k);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
    h ^= h >> 29;
    return (uint32_t)h;
}

/* The slot of an address in a direct-mapped memo of n slots (n a power
 * of 2; strings start at any byte, so the low bits alone would do badly).
 * Never let it pick anything that is printed. */
static inline size_t tf_addr_slot(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    return (size_t)((a ^ (a >> 7) ^ (a >> 13)) & (n - 1));
}

#endif
