/* pb.c - see pb.h. */
#include "load/pb.h"

#include <string.h>

bool tf_pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    const uint8_t *q = *p;
    uint64_t x = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (q >= end)
            return false;
        uint8_t b = *q++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *p = q;
            *v = x;
            return true;
        }
    }
    return false;
}

static int fail(struct tf_pb *r, const uint8_t *at, const char *why)
{
    r->err = why;
    r->err_at = r->base + (uint64_t)(at - r->start);
    r->p = r->end;
    return -1;
}

int tf_pb_next(struct tf_pb *r, struct tf_pb_field *f)
{
    if (r->p >= r->end)
        return 0;
    const uint8_t *at = r->p;
    uint64_t tag;
    if (*r->p < 0x80) /* the common case: a one-byte tag */
        tag = *r->p++;
    else if (!tf_pb_varint(&r->p, r->end, &tag))
        return fail(r, at, "damaged protobuf: a field tag is cut or longer than ten bytes");
    f->at = r->base + (uint64_t)(at - r->start);
    /* what a field of another wire type leaves: a wrong type reads as 0 or "" */
    f->v = 0;
    f->data = r->start;
    f->len = 0;
    f->num = (uint32_t)(tag >> 3);
    f->wt = (int)(tag & 7);
    if (f->num == 0 || tag >> 3 > 0x1fffffff)
        return fail(r, at, "damaged protobuf: a field number 0");
    switch (f->wt) {
    case TF_PB_VARINT:
        if (r->p < r->end && *r->p < 0x80) {
            f->v = *r->p++;
            return 1;
        }
        if (!tf_pb_varint(&r->p, r->end, &f->v))
            return fail(r, at, "damaged protobuf: a varint is cut or longer than ten bytes");
        return 1;
    case TF_PB_I64:
        if (r->end - r->p < 8)
            return fail(r, at, "damaged protobuf: a fixed64 field is cut");
        f->v = 0;
        for (int k = 0; k < 8; k++)
            f->v |= (uint64_t)r->p[k] << (8 * k);
        r->p += 8;
        return 1;
    case TF_PB_I32:
        if (r->end - r->p < 4)
            return fail(r, at, "damaged protobuf: a fixed32 field is cut");
        f->v = 0;
        for (int k = 0; k < 4; k++)
            f->v |= (uint64_t)r->p[k] << (8 * k);
        r->p += 4;
        return 1;
    case TF_PB_LEN: {
        uint64_t n;
        if (r->p < r->end && *r->p < 0x80)
            n = *r->p++;
        else if (!tf_pb_varint(&r->p, r->end, &n))
            return fail(r, at, "damaged protobuf: a length is cut or longer than ten bytes");
        if (n > (uint64_t)(r->end - r->p))
            return fail(r, at, "damaged protobuf: a length-delimited field runs past the end of its message");
        f->data = r->p;
        f->len = (size_t)n;
        r->p += n;
        return 1;
    }
    default:
        return fail(r, at, "damaged protobuf: wire type 3, 4, 6 or 7");
    }
}

bool tf_pb_each(const struct tf_pb_field *f, int fixed, bool (*fn)(void *ctx, uint64_t v),
                void *ctx)
{
    if (f->wt != TF_PB_LEN)
        return fn(ctx, f->v);
    const uint8_t *p = f->data, *end = f->data + f->len;
    while (p < end) {
        uint64_t v = 0;
        if (fixed) {
            if (end - p < fixed)
                return false;
            for (int k = 0; k < fixed; k++)
                v |= (uint64_t)p[k] << (8 * k);
            p += fixed;
        } else if (!tf_pb_varint(&p, end, &v)) {
            return false;
        }
        if (!fn(ctx, v))
            return false;
    }
    return true;
}
