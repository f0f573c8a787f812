/* xplane.h - XPlane profiles (`*.xplane.pb`: JAX, TensorFlow, PyTorch/XLA,
 * the input of TensorBoard and XProf), read by content, plain or gzip'd,
 * from a file or standard input, on the project's own wire reader (pb.h)
 * and handed to the generic mode's sink as a Kineto trace's records would
 * be (model/trace.h).
 *
 * What becomes what (tracefig.1, XPLANE):
 *   - an XSpace's planes are processes, their lines lanes: "/device:GPU:N"
 *     is "GPU N", its stream lines GPU streams whose events are kernels,
 *     memcpy and memset (Kineto's categories, args.stream the line id);
 *     "/device:TPU:N" is "TPU N" (its "XLA Ops" line counted as the
 *     device's work); "/host:CPU" is "Host", its lines threads; derived
 *     lines (XLA Modules, XLA Ops, ...) come after a device's streams;
 *     empty planes and lines are left out;
 *   - an event starts at its line's timestamp_ns plus offset_ps and lasts
 *     duration_ps (rounded to the ns at both ends, the ps they were rounded
 *     by in the record's ps0 and ps1, so busy times stay exact); a
 *     zero-length event is
 *     an instant; its label is the metadata's display_name, else its name
 *     (an HLO instruction "%fusion.3 = ..." shortened to "fusion.3"); the
 *     whole name, the display name and the stats go into its args;
 *   - correlation_id joins a host launch to its kernel (--flows).
 */
#ifndef TF_LOAD_XPLANE_H
#define TF_LOAD_XPLANE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "load/input.h"
#include "model/trace.h"

/* Whether the first n bytes of a (decompressed) input begin an XSpace: a
 * field-1 plane that starts with its id (a varint, which no Perfetto
 * packet does), its name (text) or its lines; or such a file after a UTF-8
 * text round trip (then the load says so). */
bool tf_xplane_looks(const unsigned char *head, size_t n);

/* Reads the XSpace from `in` (at offset 0; it is read three times) into
 * the generic mode's sink in keep->tef. */
bool tf_load_xplane(struct tf_input *in, const char *file, const struct tf_keep *keep,
                    struct tf_trace *out, struct tf_diag *d);

#endif
