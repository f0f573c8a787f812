/* pb_stream.h - protobuf bytes read from an input (input.h) a buffer at a
 * time: a byte, a varint, n bytes copied or skipped, with the file offset
 * of the next byte.  The one buffered reader of the loaders that walk a
 * protobuf file on the stream (Perfetto's packets, pftrace.c; an XPlane's
 * planes and lines, xplane.c); messages read whole are then taken apart
 * by pb.h's cursor.
 */
#ifndef TF_LOAD_PB_STREAM_H
#define TF_LOAD_PB_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load/input.h"

#define TF_PB_STREAM_BUF ((size_t)1 << 16)

struct tf_pb_stream {
    struct tf_input *in;
    uint8_t *buf;  /* TF_PB_STREAM_BUF bytes */
    size_t pos, len;
    bool eof;      /* the input's end (or a read error, which the input reports) */
    uint64_t off;  /* file offset of buf[pos] */
};

/* Its buffer allocated (false: out of memory), at offset 0 of in. */
bool tf_pb_stream_init(struct tf_pb_stream *s, struct tf_input *in);
void tf_pb_stream_fini(struct tf_pb_stream *s);
/* Back to offset 0, without reading: the caller seeks the input. */
void tf_pb_stream_rewind(struct tf_pb_stream *s);

/* The next byte, -1 at the input's end. */
int tf_pb_stream_byte(struct tf_pb_stream *s);

/* A varint: 1; 0 at a clean end (no byte); -1 cut; -2 longer than ten bytes. */
int tf_pb_stream_varint(struct tf_pb_stream *s, uint64_t *v);

/* n bytes copied to dst, or skipped (dst NULL); false when the input ends
 * first. */
bool tf_pb_stream_bytes(struct tf_pb_stream *s, uint8_t *dst, uint64_t n);

/* The n bytes at the read position when the buffer holds them whole (the
 * position moved past them), else NULL (nothing read). */
const uint8_t *tf_pb_stream_peek(struct tf_pb_stream *s, uint64_t n);

#endif
