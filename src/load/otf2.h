/* otf2.h - OTF2 archives (Score-P, TAU, APEX, rocprofv3), read through
 * libotf2 for the generic mode: the library half of the loader
 * (otf2_conv.h turns definitions and events into records).
 *
 * An archive is a folder: the anchor file (traces.otf2), the global
 * definitions (traces.def) and per location N.def and N.evt.  It is named
 * by its anchor, or by the folder that holds one.  Only the locations the
 * figure can draw (--lanes, applied to their lane labels before anything
 * is read) have their event files read; the events are read twice, for
 * the sink's two passes.  libotf2's errors come through its error
 * callback and are said in one line naming the archive.
 */
#ifndef TF_LOAD_OTF2_H
#define TF_LOAD_OTF2_H

#include <stdbool.h>

#include "base/diag.h"
#include "model/trace.h"

/* Whether `path` names an OTF2 archive for the loader: an anchor (a name
 * ending in .otf2) or a folder.  A folder that holds no anchor is the
 * loader's to refuse, with its message. */
bool tf_otf2_is_archive(const char *path);

/* Reads the archive at `path` into the generic mode's sink in keep->tef;
 * `file` names it in messages.  Failures are one message naming the file. */
bool tf_load_otf2(const char *path, const char *file, const struct tf_keep *keep,
                  struct tf_trace *out, struct tf_diag *d);

#endif
