/* render.c - the back-end registry; see render.h. */
#include "render/render.h"

#include "model/palette.h"

#include <string.h>
#include <strings.h>

const struct tf_backend *const tf_backends[] = {
    &tf_backend_svg, &tf_backend_tikz, &tf_backend_pdf,
    &tf_backend_png, &tf_backend_json, NULL,
};

static bool render_palette(const struct tf_figure *f, const struct tf_render_opts *o,
                           struct tf_buf *out, struct tf_diag *d)
{
    (void)o;
    (void)d;
    tf_palette_write(f, out);
    return true;
}

const struct tf_backend tf_backend_palette = {
    .name = "palette",
    .description = "the class -> colour table (--palette-out)",
    .available = true,
    .render = render_palette,
};

struct tf_size tf_render_size(const struct tf_backend *b, const struct tf_size *asked)
{
    struct tf_size s = *asked;
    if (b && b->fit_always)
        s.given = true;
    return s;
}

const struct tf_plan *tf_render_plan(const struct tf_figure *f, const struct tf_render_opts *o,
                                     struct tf_plan *own)
{
    memset(own, 0, sizeof *own);
    tf_arena_init(&own->arena);
    if (o && o->plan)
        return o->plan;
    if (o && o->plans_made)
        (*o->plans_made)++;
    return tf_plan_make(f, o ? &o->size : NULL, own) ? own : NULL;
}

const struct tf_backend *tf_backend_by_name(const char *name)
{
    for (size_t i = 0; tf_backends[i]; i++)
        if (strcmp(tf_backends[i]->name, name) == 0)
            return tf_backends[i];
    return NULL;
}

const struct tf_backend *tf_backend_by_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (!dot)
        return NULL;
    for (size_t i = 0; tf_backends[i]; i++)
        for (size_t j = 0; tf_backends[i]->exts[j]; j++)
            if (strcasecmp(tf_backends[i]->exts[j], dot) == 0)
                return tf_backends[i];
    return NULL;
}
