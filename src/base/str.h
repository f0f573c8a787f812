/* str.h - small string helpers every stage may use. */
#ifndef TF_STR_H
#define TF_STR_H

/* A copy of s (the caller frees it); NULL for NULL, and NULL when out of
 * memory (then s was not NULL). */
char *tf_strdup(const char *s);

#endif
