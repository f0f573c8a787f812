/* pb_stream.c - see pb_stream.h. */
#include "load/pb_stream.h"

#include <stdlib.h>
#include <string.h>

bool tf_pb_stream_init(struct tf_pb_stream *s, struct tf_input *in)
{
    memset(s, 0, sizeof *s);
    s->in = in;
    s->buf = malloc(TF_PB_STREAM_BUF);
    return s->buf != NULL;
}

void tf_pb_stream_fini(struct tf_pb_stream *s)
{
    free(s->buf);
    s->buf = NULL;
}

void tf_pb_stream_rewind(struct tf_pb_stream *s)
{
    s->pos = s->len = 0;
    s->eof = false;
    s->off = 0;
}

/* Refills an empty buffer: false at the input's end. */
static bool fill(struct tf_pb_stream *s)
{
    if (s->eof)
        return false;
    ssize_t n = tf_input_read(s->in, s->buf, TF_PB_STREAM_BUF);
    if (n <= 0) {
        s->eof = true;
        return false;
    }
    s->pos = 0;
    s->len = (size_t)n;
    return true;
}

int tf_pb_stream_byte(struct tf_pb_stream *s)
{
    if (s->pos == s->len && !fill(s))
        return -1;
    s->off++;
    return s->buf[s->pos++];
}

int tf_pb_stream_varint(struct tf_pb_stream *s, uint64_t *v)
{
    if (s->pos < s->len && s->buf[s->pos] < 0x80) {
        *v = s->buf[s->pos++];
        s->off++;
        return 1;
    }
    uint64_t x = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        int b = tf_pb_stream_byte(s);
        if (b < 0)
            return shift == 0 ? 0 : -1;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return -2;
}

bool tf_pb_stream_bytes(struct tf_pb_stream *s, uint8_t *dst, uint64_t n)
{
    while (n) {
        if (s->pos == s->len && !fill(s))
            return false;
        size_t k = s->len - s->pos < n ? s->len - s->pos : (size_t)n;
        if (dst) {
            memcpy(dst, s->buf + s->pos, k);
            dst += k;
        }
        s->pos += k;
        s->off += k;
        n -= k;
    }
    return true;
}

const uint8_t *tf_pb_stream_peek(struct tf_pb_stream *s, uint64_t n)
{
    if (s->len - s->pos < n)
        return NULL;
    const uint8_t *p = s->buf + s->pos;
    s->pos += (size_t)n;
    s->off += n;
    return p;
}
