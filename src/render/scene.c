/* scene.c - storage for a scene and the walk that draws it; see scene.h.
 *
 * Strings and point arrays live in an arena (base/buf.h) whose blocks
 * never move, so items can point into it while the item array grows.  Nothing here knows
 * what the primitives mean.
 */
#include "render/scene.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "render/metrics.h"

void tf_scene_init(struct tf_scene *s)
{
    memset(s, 0, sizeof *s);
    tf_arena_init(&s->arena);
}

void tf_scene_fini(struct tf_scene *s)
{
    tf_arena_fini(&s->arena);
    free(s->items);
    memset(s, 0, sizeof *s);
}

static void *arena_alloc(struct tf_scene *s, size_t n)
{
    void *p = tf_arena_alloc(&s->arena, n);
    if (!p)
        s->oom = true;
    return p;
}

const char *tf_scene_strdup(struct tf_scene *s, const char *str)
{
    if (!str)
        return NULL;
    const char *p = tf_arena_strdup(&s->arena, str);
    if (!p)
        s->oom = true;
    return p;
}

void tf_scene_set_title(struct tf_scene *s, const char *title, const char *desc)
{
    s->title = tf_scene_strdup(s, title);
    s->desc = tf_scene_strdup(s, desc);
}

static struct tf_item *push(struct tf_scene *s, enum tf_item_kind kind)
{
    if (s->oom)
        return NULL;
    if (!TF_GROW(s->items, s->n_items, s->cap_items)) {
        s->oom = true;
        return NULL;
    }
    struct tf_item *it = &s->items[s->n_items++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    return it;
}

void tf_scene_path(struct tf_scene *s, const struct tf_path *p)
{
    if (p->n == 0)
        return;
    double *pts = arena_alloc(s, 2 * p->n * sizeof *pts);
    struct tf_item *it = pts ? push(s, TF_ITEM_PATH) : NULL;
    if (!it)
        return;
    memcpy(pts, p->xs, p->n * sizeof *pts);
    memcpy(pts + p->n, p->ys, p->n * sizeof *pts);
    it->u.path = *p;
    it->u.path.cls = tf_scene_strdup(s, p->cls);
    it->u.path.xs = pts;
    it->u.path.ys = pts + p->n;
    if (it->u.path.n_dash > TF_SCENE_MAX_DASH)
        it->u.path.n_dash = TF_SCENE_MAX_DASH;
}

void tf_scene_text(struct tf_scene *s, const struct tf_text *t)
{
    const char *str = tf_scene_strdup(s, t->s ? t->s : "");
    struct tf_item *it = str ? push(s, TF_ITEM_TEXT) : NULL;
    if (!it)
        return;
    it->u.text = *t;
    it->u.text.s = str;
    it->u.text.cls = tf_scene_strdup(s, t->cls);
}

void tf_scene_label(struct tf_scene *s, struct tf_text t)
{
    char *str = tf_xml_clean(t.s ? t.s : "");
    if (!str) {
        s->oom = true;
        return;
    }
    for (char *p = str; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
    t.s = str;
    t.width = tf_text_width(str, t.size, t.bold);
    tf_scene_text(s, &t);
    free(str);
}

void tf_scene_group_begin(struct tf_scene *s, const struct tf_group *g)
{
    struct tf_group copy = *g;
    copy.cls = tf_scene_strdup(s, g->cls);
    copy.title = tf_scene_strdup(s, g->title);
    struct tf_attr *attrs = NULL;
    if (g->n_attrs) {
        attrs = arena_alloc(s, g->n_attrs * sizeof *attrs);
        if (!attrs)
            return;
        for (size_t i = 0; i < g->n_attrs; i++) {
            attrs[i].key = tf_scene_strdup(s, g->attrs[i].key);
            attrs[i].value = tf_scene_strdup(s, g->attrs[i].value ? g->attrs[i].value : "");
        }
    }
    copy.attrs = attrs;
    struct tf_item *it = push(s, TF_ITEM_GROUP_BEGIN);
    if (!it)
        return;
    it->u.group = copy;
    s->depth++;
}

void tf_scene_group_end(struct tf_scene *s)
{
    if (s->depth <= 0)
        return;
    if (push(s, TF_ITEM_GROUP_END))
        s->depth--;
}

void tf_scene_draw(const struct tf_scene *s, const struct tf_draw *d, void *ctx)
{
    if (d->begin)
        d->begin(ctx, s->width, s->height, s->title, s->desc);
    for (size_t i = 0; i < s->n_items; i++) {
        const struct tf_item *it = &s->items[i];
        switch (it->kind) {
        case TF_ITEM_PATH:
            if (d->path)
                d->path(ctx, &it->u.path);
            break;
        case TF_ITEM_TEXT:
            if (d->text)
                d->text(ctx, &it->u.text);
            break;
        case TF_ITEM_GROUP_BEGIN:
            if (d->group_begin)
                d->group_begin(ctx, &it->u.group);
            break;
        case TF_ITEM_GROUP_END:
            if (d->group_end)
                d->group_end(ctx);
            break;
        }
    }
    if (d->end)
        d->end(ctx);
}

void tf_scene_append_moved(struct tf_scene *dst, const struct tf_scene *src, double dx, double dy)
{
    if (src->oom)
        dst->oom = true;
    for (size_t i = 0; i < src->n_items && !dst->oom; i++) {
        const struct tf_item *it = &src->items[i];
        switch (it->kind) {
        case TF_ITEM_PATH: {
            struct tf_path p = it->u.path;
            double *pts = malloc(2 * (p.n ? p.n : 1) * sizeof *pts);
            if (!pts) {
                dst->oom = true;
                return;
            }
            for (size_t k = 0; k < p.n; k++) {
                pts[k] = p.xs[k] + dx;
                pts[p.n + k] = p.ys[k] + dy;
            }
            p.xs = pts;
            p.ys = pts + p.n;
            tf_scene_path(dst, &p);
            free(pts);
            break;
        }
        case TF_ITEM_TEXT: {
            struct tf_text t = it->u.text;
            t.x += dx;
            t.y += dy;
            tf_scene_text(dst, &t);
            break;
        }
        case TF_ITEM_GROUP_BEGIN:
            tf_scene_group_begin(dst, &it->u.group);
            break;
        case TF_ITEM_GROUP_END:
            tf_scene_group_end(dst);
            break;
        }
    }
}
