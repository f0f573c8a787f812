/* templates.h - the files of templates/, compiled into the binary.
 *
 * build/templates.c is generated from templates/ by src/tools/embed.c at
 * build time, so the binary never reads files at run time.
 */
#ifndef TF_TEMPLATES_H
#define TF_TEMPLATES_H

#include <stddef.h>

struct tf_template {
    const char *name; /* file name in templates/, e.g. "svg.css" */
    const char *data; /* NUL-terminated contents */
    size_t len;
};

/* The template called `name`, or NULL. */
const struct tf_template *tf_template_get(const char *name);

#endif
