/* pb.h - the protobuf wire format, read by hand: a cursor over bytes in
 * memory that yields one field at a time (varint, fixed64, length-
 * delimited, fixed32; groups are refused), bounds-checked, with each
 * field's place as a byte offset of the file for messages.  No schema, no
 * allocation: the Perfetto loader (pftrace*.c) knows the field numbers.
 */
#ifndef TF_LOAD_PB_H
#define TF_LOAD_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TF_PB_VARINT = 0, TF_PB_I64 = 1, TF_PB_LEN = 2, TF_PB_I32 = 5 };

/* A message's bytes [p, end); `base` the file offset of `start`. */
struct tf_pb {
    const uint8_t *start, *p, *end;
    uint64_t base;
    const char *err; /* why the last tf_pb_next failed (static text) */
    uint64_t err_at; /* its file offset */
};

struct tf_pb_field {
    uint32_t num;
    int wt;
    uint64_t v;          /* varint, I64, I32 */
    const uint8_t *data; /* LEN */
    size_t len;
    uint64_t at;         /* file offset of the field's tag */
};

static inline void tf_pb_init(struct tf_pb *r, const void *data, size_t len, uint64_t base)
{
    static const uint8_t none[1] = {0}; /* an empty message may come as NULL */
    r->start = r->p = data ? data : none;
    r->end = r->start + (data ? len : 0);
    r->base = base;
    r->err = NULL;
    r->err_at = 0;
}

/* A nested message (a LEN field) of the message read by r. */
static inline void tf_pb_sub(struct tf_pb *sub, const struct tf_pb *r, const struct tf_pb_field *f)
{
    tf_pb_init(sub, f->data, f->len, r->base + (uint64_t)(f->data - r->start));
}

/* The next field: 1; 0 at the end; -1 on damaged bytes (r->err, r->err_at). */
int tf_pb_next(struct tf_pb *r, struct tf_pb_field *f);

/* A varint at *p (before end), *p moved past it; false when cut or longer
 * than ten bytes. */
bool tf_pb_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

static inline int64_t tf_pb_zigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline double tf_pb_double(uint64_t v)
{
    double x;
    __builtin_memcpy(&x, &v, sizeof x);
    return x;
}

/* Walks the values of a repeated scalar field, packed (LEN) or not: calls
 * fn for each; false on damaged packed bytes.  `fixed`: 8 for fixed64 /
 * double, 4 for fixed32 / float, 0 for varints. */
bool tf_pb_each(const struct tf_pb_field *f, int fixed, bool (*fn)(void *ctx, uint64_t v),
                void *ctx);

#endif
