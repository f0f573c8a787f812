/* chrome.h - the events of a Chrome trace (Trace Event Format), for both
 * load paths: each element goes through tf_load_chrome_json (parsed) or
 * tf_load_chrome_scanned (bytes with members located by the scanner), and
 * what the mode wants of it reaches the mode's sink (model/trace.h).
 *
 * The loader knows the format: complete events ("ph": "X", ts + dur), and
 * B/E pairs (an E closes the innermost open B of the same pid/tid; pids and
 * tids may be numbers or strings), which make one slice at the position of
 * its B.  Metadata ("M") and every other phase are passed over.  ts and dur
 * are microseconds and may be fractional ("displayTimeUnit" only changes
 * how viewers display them).  Events without ts or dur are skipped, unless
 * the mode marks them required; a wrong type is an error.
 */
#ifndef TF_LOAD_CHROME_H
#define TF_LOAD_CHROME_H

#include "load/jsonutil.h"
#include "load/scan.h"

/* A Chrome trace being read: the open B events of every thread.  _new/_free. */
struct tf_chrome;
struct tf_chrome *tf_load_chrome_new(const char *file, const struct tf_chrome_sink *sink);
void tf_load_chrome_free(struct tf_chrome *c);

/* One element, parsed (whole-document path) ... */
bool tf_load_chrome_json(struct tf_chrome *c, const json_t *e, size_t idx, struct tf_diag *d);

/* ... or as bytes with these members located (streaming path). */
enum { TF_CHROME_F_PH, TF_CHROME_F_NAME, TF_CHROME_N_FIELDS };
extern const char *const tf_chrome_field_names[TF_CHROME_N_FIELDS];
bool tf_load_chrome_scanned(struct tf_chrome *c, const unsigned char *data, size_t len,
                            const struct tf_scan_field *f, size_t idx, struct tf_diag *d);

/* After the last element: the sink's finish, then warnings about B and E
 * events left unpaired. */
bool tf_load_chrome_finish(struct tf_chrome *c, struct tf_diag *d);

#endif
