/* str.h - three small string and struct helpers that several modules need,
 * kept here once: a path's base name, a member at an offset, and a copy of
 * a string that records running out of memory instead of returning it.
 */
#ifndef TF_STR_H
#define TF_STR_H

#include <stdbool.h>
#include <stddef.h>

/* The part of `path` after its last '/'; the whole path when it has none
 * or ends in '/' (a folder keeps its name).  Points into path. */
const char *tf_base_name(const char *path);

/* The member `off` bytes into the struct at base (an offsetof). */
void *tf_field_of(void *base, size_t off);

/* A malloc'ed copy of s (caller frees), NULL for NULL; when memory runs
 * out, NULL with *oom set (never cleared here). */
char *tf_strdup_oom(const char *s, bool *oom);

#endif
