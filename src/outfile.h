/* outfile.h - writing an output without ever leaving a partial one.
 *
 * A regular file is written to a temp file beside the target and renamed
 * into place only when every byte was written and closed; on failure the
 * temp file is removed and the old target is untouched.  "-" writes to
 * standard output; an existing non-regular target (a device such as
 * /dev/full, a FIFO) is written directly, since it cannot be replaced.
 * Errors are reported through *d with TF_EIO (exit 3).
 */
#ifndef TF_OUTFILE_H
#define TF_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

bool tf_outfile_write(const char *path, const void *data, size_t len, struct tf_diag *d);

#endif
