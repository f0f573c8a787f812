/* otf2_conv.h - an OTF2 archive's definitions and events, as trace records
 * for the generic mode (model/trace.h, struct tf_tef_sink): the pure half
 * of the OTF2 loader.  otf2.c drives libotf2 and calls these functions from
 * its callbacks; nothing here knows libotf2, so a test can feed it
 * definitions and events of its own.
 *
 * What becomes what:
 *   - in an archive with MPI (some region or group of the MPI paradigm),
 *     a location group (an MPI rank) is a process "rank N" (N: the number
 *     its name ends in when every group's name ends in a distinct one,
 *     else its place in the definitions); its CPU threads are its lanes,
 *     "thread K" (K: their place in the group) when it has several, else
 *     the rank's one lane, "rank N";
 *   - without MPI, a location group and its threads keep the archive's
 *     names ("Process / Master thread"; a name two share gets its number
 *     after it, no name "process N" or "thread K"), cleaned to valid
 *     UTF-8 and cut at a character;
 *   - an accelerator stream is a lane "GPU N / stream M" (N: the group that
 *     holds it, in order; M: its place there);
 *   - a metric member is a counter series of the location's process, named
 *     after the member, with its unit (and its base and exponent as a
 *     prefix: "ms", "KiB");
 *   - Enter/Leave pairs are slices named after the region, category its
 *     paradigm ("MPI", "OpenMP", "CUDA", "HIP", "I/O", "user",
 *     "compiler", "measurement", ...); an MPI region that holds a
 *     collective operation (CollectiveBegin/End), or whose role is a
 *     collective's, has the category "MPI collective"; a collective
 *     outside any MPI region is a slice of its own ("MPI_Bcast");
 *   - a Leave that does not match the innermost open region closes its own
 *     region (the regions above it stay open); a Leave of a region that is
 *     not open closes the innermost open region (OTF2's events nest: APEX
 *     leaves a renamed task under its old name); a region never left runs
 *     to the end; all are counted in one warning;
 *   - MeasurementOnOff: the open regions stop at Off and go on at On, so the
 *     lanes show the gap; a note says how many;
 *   - point-to-point messages (MpiSend/MpiIsend to MpiRecv/MpiIrecv) are
 *     flows from the send to the receive, matched by sender, receiver,
 *     communicator and tag in order (the k-th send of a channel to its
 *     k-th receive);
 *   - times are nanoseconds from the archive's global offset (its clock
 *     properties).
 *
 * Two passes, as the sink expects: events given before tf_otf2_window()
 * go to its index(), those after it to collect(); the caller reads the
 * same events, in the same order, in both.
 */
#ifndef TF_LOAD_OTF2_CONV_H
#define TF_LOAD_OTF2_CONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "model/trace.h"

/* The OTF2 enums the converter reads (values of libotf2's headers). */
enum {
    TF_OTF2_LG_PROCESS = 1,     /* OTF2_LOCATION_GROUP_TYPE_PROCESS */
    TF_OTF2_LG_ACCELERATOR = 2, /* OTF2_LOCATION_GROUP_TYPE_ACCELERATOR */
    TF_OTF2_LOC_CPU = 1,        /* OTF2_LOCATION_TYPE_CPU_THREAD */
    TF_OTF2_LOC_GPU = 2,        /* OTF2_LOCATION_TYPE_ACCELERATOR_STREAM */
    TF_OTF2_LOC_METRIC = 3,     /* OTF2_LOCATION_TYPE_METRIC */
    TF_OTF2_GROUP_COMM_LOCATIONS = 4,
    TF_OTF2_GROUP_COMM_GROUP = 5,
    TF_OTF2_GROUP_COMM_SELF = 6,
    TF_OTF2_TYPE_UINT64 = 4,
    TF_OTF2_TYPE_INT64 = 8,
    TF_OTF2_TYPE_DOUBLE = 10,
    TF_OTF2_MEASUREMENT_ON = 1,
    TF_OTF2_MEASUREMENT_OFF = 2
};

/* A metric value as libotf2 gives it (OTF2_MetricValue). */
union tf_otf2_value {
    int64_t i;
    uint64_t u;
    double d;
};

/* A converter for one archive; `file` names it in messages.  _new/_free;
 * NULL when out of memory. */
struct tf_otf2;
struct tf_otf2 *tf_otf2_new(const char *file, const struct tf_tef_sink *sink);
void tf_otf2_free(struct tf_otf2 *n);

/* --- the global definitions (strings are copied; false: out of memory) --- */
bool tf_otf2_def_clock(struct tf_otf2 *n, uint64_t resolution, uint64_t offset);
bool tf_otf2_def_string(struct tf_otf2 *n, uint32_t ref, const char *s);
bool tf_otf2_def_region(struct tf_otf2 *n, uint32_t ref, uint32_t name, int role, int paradigm);
bool tf_otf2_def_location_group(struct tf_otf2 *n, uint32_t ref, uint32_t name, int type);
bool tf_otf2_def_location(struct tf_otf2 *n, uint64_t ref, uint32_t name, int type,
                          uint64_t n_events, uint32_t group);
bool tf_otf2_def_group(struct tf_otf2 *n, uint32_t ref, int type, int paradigm, uint32_t n_members,
                       const uint64_t *members);
bool tf_otf2_def_comm(struct tf_otf2 *n, uint32_t ref, uint32_t group);
bool tf_otf2_def_member(struct tf_otf2 *n, uint32_t ref, uint32_t name, uint32_t unit, int base,
                        int64_t exponent);
bool tf_otf2_def_metric_class(struct tf_otf2 *n, uint32_t ref, uint32_t n_members,
                              const uint32_t *members);
bool tf_otf2_def_metric_instance(struct tf_otf2 *n, uint32_t ref, uint32_t metric_class);

/* After the definitions: the lanes are named, and the locations to read
 * chosen: those whose lane label (or, for a metric location, its
 * process's label) matches a --lanes glob of the sink, or all of them
 * without one.  False with a message (no locations; no --lanes match). */
bool tf_otf2_plan(struct tf_otf2 *n, struct tf_diag *d);
/* The locations to read, in rank order: refs[0 .. *count). */
const uint64_t *tf_otf2_selected(const struct tf_otf2 *n, size_t *count);
/* The number of events the definitions give location ref (0 when
 * unknown). */
uint64_t tf_otf2_location_events(const struct tf_otf2 *n, uint64_t ref);
/* The name records, to index(). */
bool tf_otf2_begin(struct tf_otf2 *n, struct tf_diag *d);

/* --- one location's events, in its order ------------------------------------ */
/* The location whose events follow (one of tf_otf2_selected, in their
 * order: a rank's locations one after another). */
bool tf_otf2_location(struct tf_otf2 *n, uint64_t ref, struct tf_diag *d);
bool tf_otf2_enter(struct tf_otf2 *n, uint64_t t, uint32_t region, struct tf_diag *d);
bool tf_otf2_leave(struct tf_otf2 *n, uint64_t t, uint32_t region, struct tf_diag *d);
/* A message sent to, or received from, rank `peer` of communicator comm. */
bool tf_otf2_send(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                  struct tf_diag *d);
bool tf_otf2_recv(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                  struct tf_diag *d);
void tf_otf2_coll_begin(struct tf_otf2 *n, uint64_t t);
bool tf_otf2_coll_end(struct tf_otf2 *n, uint64_t t, int op, struct tf_diag *d);
bool tf_otf2_metric(struct tf_otf2 *n, uint64_t t, uint32_t metric, size_t count,
                    const uint8_t *types, const union tf_otf2_value *values, struct tf_diag *d);
bool tf_otf2_onoff(struct tf_otf2 *n, uint64_t t, int mode, struct tf_diag *d);
/* After the location's last event: the regions still open. */
bool tf_otf2_location_end(struct tf_otf2 *n, struct tf_diag *d);

/* The end of pass 1 (its note), then the sink's window (ns). */
bool tf_otf2_window(struct tf_otf2 *n, int64_t *lo, int64_t *hi, struct tf_diag *d);
/* The sink's finish, then the warnings. */
bool tf_otf2_finish(struct tf_otf2 *n, struct tf_diag *d);

#endif
