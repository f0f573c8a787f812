/* outfile.h - writing outputs without ever leaving a partial one.
 *
 * Two phases, so several outputs are all-or-nothing:
 *   tf_outfile_stage   writes the bytes to a temp file beside the target
 *                      (".tfXXXXXX" in the target's folder) and closes it;
 *   tf_outfile_commit  renames it into place;
 *   tf_outfile_abort   removes a staged temp file.
 * main.c stages every output first and commits only when all were staged,
 * so a failure writes nothing and never clobbers an existing file.
 *
 * The target's real location counts: a symlink to a regular file is
 * followed and the file it names is replaced (the link stays).  "-" is
 * standard output; a target that is not a regular file (a device such as
 * /dev/full, a FIFO, /dev/stdout, a dangling symlink) cannot be replaced
 * atomically, so its bytes are written directly at commit time, before
 * any staged file is renamed into place.  An existing file keeps its permission
 * bits; a new one gets 0666 less the umask.
 * Errors are reported through *d with TF_EIO (exit 3).
 */
#ifndef TF_OUTFILE_H
#define TF_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

struct tf_outfile {
    const char *path; /* as given, for messages */
    char *target;     /* the file to replace (symlinks resolved), owned */
    char *tmp;        /* the staged temp file, owned; NULL when direct */
    bool direct;      /* stdout or a non-regular target: written at commit */
    const void *data; /* for direct outputs: the bytes, owned by the caller */
    size_t len;
};

bool tf_outfile_stage(struct tf_outfile *o, const char *path, const void *data, size_t len,
                      struct tf_diag *d);
/* Commit direct outputs first: their writes can fail; renames hardly can. */
bool tf_outfile_commit(struct tf_outfile *o, struct tf_diag *d);
/* Removes the temp file if still there and frees what o holds. */
void tf_outfile_abort(struct tf_outfile *o);

#endif
