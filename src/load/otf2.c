/* otf2.c - OTF2 archives through libotf2; see otf2.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Lazy loading.  libotf2 (Debian's libopen-trace-format2, from
 * libotf2-trace-dev) is dlopen()ed when an archive is read (base/dl.h), as
 * libsqlite3 is for Nsight Systems exports: the runs that read JSON do not
 * load it, and a tracefig built where the library is missing still builds
 * (without its header, this file compiles to the message that says what to
 * install) and runs; only an archive then asks for it.
 *
 * Reading.  The global definitions first (the converter names the lanes
 * and picks the locations from them, so that only the picked locations'
 * files are opened), then, location by location in rank order, its local
 * definitions (the mapping tables and clock offsets libotf2 applies to its
 * events, which is why its event reader is made first) and its events.
 * One location at a time keeps one event buffer in memory however many
 * ranks there are; a figure needs no global time order (each lane's slices
 * come in its own order, and messages are matched per channel).  The
 * events are read twice: pass 1 for the sink's index, pass 2 for the
 * window's records.
 *
 * Errors.  libotf2 reports through a callback, which would otherwise print
 * its own lines to stderr: this file's callback keeps the first message
 * (libotf2's description of the code and its text), and the failing call
 * then becomes one line naming the archive.  A location without local
 * definitions (some writers write none) is no error.
 */
#include "load/otf2.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>

#include "base/buf.h"
#include "load/otf2_conv.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

bool tf_otf2_is_archive(const char *path)
{
    struct stat st;
    if (strcmp(path, "-") == 0)
        return false;
    return ends_with(path, ".otf2") || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

#ifndef TF_HAVE_OTF2

bool tf_load_otf2(const char *path, const char *file, const struct tf_keep *keep,
                  struct tf_trace *out, struct tf_diag *d)
{
    (void)path;
    (void)keep;
    (void)out;
    return tf_diag_error(d, TF_EIO,
                         "%s: an OTF2 archive (or a folder of one), but this tracefig was built without OTF2 "
                         "support: install Debian's libotf2-trace-dev and build again",
                         file);
}

#else

#include <otf2/otf2.h>

#include "base/dl.h"
#include "base/str.h"

/* The anchor of a folder: its only *.otf2 file, in b; false with the
 * message when it has none or several. */
static bool folder_anchor(const char *path, const char *file, struct tf_buf *b,
                          struct tf_diag *d)
{
    DIR *dir = opendir(path);
    if (!dir)
        return tf_diag_error(d, TF_EBADINPUT, "%s: cannot open the folder: %s", file,
                             strerror(errno));
    size_t found = 0;
    struct dirent *e;
    char first[256] = "";
    while ((e = readdir(dir))) {
        if (!ends_with(e->d_name, ".otf2") || strlen(e->d_name) >= sizeof first)
            continue;
        if (found++ == 0 || strcmp(e->d_name, first) < 0)
            snprintf(first, sizeof first, "%s", e->d_name);
    }
    closedir(dir);
    if (found == 0)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a folder, but not an OTF2 archive (no anchor file *.otf2 in "
                             "it)",
                             file);
    if (found > 1)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: a folder of %zu OTF2 anchor files: name one (%s/%s)", file,
                             found, file, first);
    tf_buf_printf(b, "%s/%s", path, first);
    return b->oom ? tf_diag_oom(d, file) : true;
}

/* --- Lazy loading ------------------------------------------------------------ */
#define TF_O2_FUNCS(X)                                                                          \
    X(0, OTF2_Reader *, OTF2_Reader_Open, (const char *))                                       \
    X(0, OTF2_ErrorCode, OTF2_Reader_Close, (OTF2_Reader *))                                    \
    X(0, OTF2_ErrorCode, OTF2_Reader_SetSerialCollectiveCallbacks, (OTF2_Reader *))             \
    X(0, OTF2_ErrorCode, OTF2_Reader_GetVersion, (OTF2_Reader *, uint8_t *, uint8_t *, uint8_t *)) \
    X(0, OTF2_GlobalDefReader *, OTF2_Reader_GetGlobalDefReader, (OTF2_Reader *))               \
    X(0, OTF2_ErrorCode, OTF2_Reader_CloseGlobalDefReader, (OTF2_Reader *, OTF2_GlobalDefReader *)) \
    X(0, OTF2_ErrorCode, OTF2_Reader_RegisterGlobalDefCallbacks,                                \
      (OTF2_Reader *, OTF2_GlobalDefReader *, const OTF2_GlobalDefReaderCallbacks *, void *))   \
    X(0, OTF2_ErrorCode, OTF2_Reader_ReadGlobalDefinitions,                                     \
      (OTF2_Reader *, OTF2_GlobalDefReader *, uint64_t, uint64_t *))                            \
    X(0, OTF2_ErrorCode, OTF2_Reader_SelectLocation, (OTF2_Reader *, OTF2_LocationRef))         \
    X(0, OTF2_ErrorCode, OTF2_Reader_OpenEvtFiles, (OTF2_Reader *))                             \
    X(0, OTF2_ErrorCode, OTF2_Reader_CloseEvtFiles, (OTF2_Reader *))                            \
    X(0, OTF2_ErrorCode, OTF2_Reader_OpenDefFiles, (OTF2_Reader *))                             \
    X(0, OTF2_ErrorCode, OTF2_Reader_CloseDefFiles, (OTF2_Reader *))                            \
    X(0, OTF2_EvtReader *, OTF2_Reader_GetEvtReader, (OTF2_Reader *, OTF2_LocationRef))         \
    X(0, OTF2_ErrorCode, OTF2_Reader_CloseEvtReader, (OTF2_Reader *, OTF2_EvtReader *))         \
    X(0, OTF2_DefReader *, OTF2_Reader_GetDefReader, (OTF2_Reader *, OTF2_LocationRef))         \
    X(0, OTF2_ErrorCode, OTF2_Reader_CloseDefReader, (OTF2_Reader *, OTF2_DefReader *))         \
    X(0, OTF2_ErrorCode, OTF2_Reader_ReadLocalDefinitions,                                      \
      (OTF2_Reader *, OTF2_DefReader *, uint64_t, uint64_t *))                                  \
    X(0, OTF2_ErrorCode, OTF2_Reader_RegisterEvtCallbacks,                                      \
      (OTF2_Reader *, OTF2_EvtReader *, const OTF2_EvtReaderCallbacks *, void *))               \
    X(0, OTF2_ErrorCode, OTF2_Reader_ReadLocalEvents,                                           \
      (OTF2_Reader *, OTF2_EvtReader *, uint64_t, uint64_t *))                                  \
    X(0, OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallbacks_New, (void))            \
    X(0, void, OTF2_GlobalDefReaderCallbacks_Delete, (OTF2_GlobalDefReaderCallbacks *))         \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback,              \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_ClockProperties))          \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetStringCallback,                       \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_String))                   \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetRegionCallback,                       \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_Region))                   \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback,                \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_LocationGroup))            \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetLocationCallback,                     \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_Location))                 \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetGroupCallback,                        \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_Group))                    \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetCommCallback,                         \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_Comm))                     \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback,                 \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_MetricMember))             \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback,                  \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_MetricClass))              \
    X(0, OTF2_ErrorCode, OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback,               \
      (OTF2_GlobalDefReaderCallbacks *, OTF2_GlobalDefReaderCallback_MetricInstance))           \
    X(0, OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallbacks_New, (void))                        \
    X(0, void, OTF2_EvtReaderCallbacks_Delete, (OTF2_EvtReaderCallbacks *))                     \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetEnterCallback,                              \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_Enter))                                \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetLeaveCallback,                              \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_Leave))                                \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMpiSendCallback,                            \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_MpiSend))                              \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMpiIsendCallback,                           \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_MpiIsend))                             \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMpiRecvCallback,                            \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_MpiRecv))                              \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMpiIrecvCallback,                           \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_MpiIrecv))                             \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback,                 \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_MpiCollectiveBegin))                   \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback,                   \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_MpiCollectiveEnd))                     \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMetricCallback,                             \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_Metric))                               \
    X(0, OTF2_ErrorCode, OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback,                   \
      (OTF2_EvtReaderCallbacks *, OTF2_EvtReaderCallback_MeasurementOnOff))                     \
    X(0, OTF2_ErrorCallback, OTF2_Error_RegisterCallback, (OTF2_ErrorCallback, void *))         \
    X(0, const char *, OTF2_Error_GetDescription, (OTF2_ErrorCode))
TF_O2_FUNCS(TF_DL_TYPEDEF)
TF_O2_FUNCS(TF_DL_CHECK)
static struct o2_api {
    TF_O2_FUNCS(TF_DL_MEMBER)
} o2;
/* Loaded once per process (see svg.c's xml_load), with tracefig's error
 * callback registered for good: libotf2's own prints to stderr. */
static pthread_once_t o2_once = PTHREAD_ONCE_INIT;
static struct tf_diag o2_outcome;

#define TF_DL_API struct o2_api
static const struct tf_dl_sym o2_syms[] = {TF_O2_FUNCS(TF_DL_SYM)};
#undef TF_DL_API
static const struct tf_dl_lib o2_lib = {"libopen-trace-format2.so.10",
                                        "libotf2-trace-dev (libopen-trace-format2-10)"};

static OTF2_ErrorCode on_error(void *user, const char *src, uint64_t line, const char *func,
                               OTF2_ErrorCode code, const char *fmt, va_list va);

static void o2_load_once(void)
{
    tf_diag_init(&o2_outcome);
    if (tf_dl_load("Reading an OTF2 archive", &o2_lib, 1, o2_syms,
                   sizeof o2_syms / sizeof o2_syms[0], &o2, sizeof o2, &o2_outcome))
        o2.OTF2_Error_RegisterCallback(on_error, NULL);
}

static bool o2_load(struct tf_diag *d)
{
    pthread_once(&o2_once, o2_load_once);
    return tf_dl_outcome(&o2_outcome, d);
}

/* --- errors --------------------------------------------------------------------- */

/* The first message libotf2 reported on this thread since the last clear
 * (its callback, called on the thread that met the error, has no other way
 * back: one per thread, so two figures on two threads keep their own). */
static _Thread_local char o2_msg[512];

static OTF2_ErrorCode on_error(void *user, const char *src, uint64_t line, const char *func,
                               OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)user;
    (void)src;
    (void)line;
    (void)func;
    if (o2_msg[0])
        return code;
    const char *desc = o2.OTF2_Error_GetDescription(code);
    char text[384] = "";
    if (fmt && *fmt) {
        va_list ap;
        va_copy(ap, va);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
        vsnprintf(text, sizeof text, fmt, ap);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
        va_end(ap);
    }
    snprintf(o2_msg, sizeof o2_msg, "%s%s%s", desc ? desc : "error", text[0] ? ": " : "", text);
    for (char *p = o2_msg; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    return code;
}

static bool lib_error(const char *file, const char *what, struct tf_diag *d)
{
    if (tf_diag_failed(d))
        return false;
    return tf_diag_error(d, TF_EBADINPUT, "%s: %s: %s", file, what,
                         o2_msg[0] ? o2_msg : "libotf2 reports an error");
}

/* --- definitions ------------------------------------------------------------------- */

#define CB(call) ((call) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT)

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t off, uint64_t len,
                                   uint64_t real)
{
    (void)len;
    (void)real;
    return CB(tf_otf2_def_clock(u, res, off));
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    return CB(tf_otf2_def_string(u, self, s));
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef desc,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef src, uint32_t l0,
                                    uint32_t l1)
{
    (void)canonical;
    (void)desc;
    (void)flags;
    (void)src;
    (void)l0;
    (void)l1;
    return CB(tf_otf2_def_region(u, self, name, role, paradigm));
}

static OTF2_CallbackCode def_lg(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                OTF2_LocationGroupRef creator)
{
    (void)parent;
    (void)creator;
    return CB(tf_otf2_def_location_group(u, self, name, type));
}

static OTF2_CallbackCode def_loc(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                 OTF2_LocationType type, uint64_t n_events,
                                 OTF2_LocationGroupRef group)
{
    return CB(tf_otf2_def_location(u, self, name, type, n_events, group));
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    (void)name;
    (void)flags;
    return CB(tf_otf2_def_group(u, self, type, paradigm, n, members));
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    (void)name;
    (void)parent;
    (void)flags;
    return CB(tf_otf2_def_comm(u, self, group));
}

static OTF2_CallbackCode def_member(void *u, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                    OTF2_StringRef desc, OTF2_MetricType type,
                                    OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,
                                    int64_t exponent, OTF2_StringRef unit)
{
    (void)desc;
    (void)type;
    (void)mode;
    (void)value_type;
    return CB(tf_otf2_def_member(u, self, name, unit, base, exponent));
}

static OTF2_CallbackCode def_class(void *u, OTF2_MetricRef self, uint8_t n,
                                   const OTF2_MetricMemberRef *members,
                                   OTF2_MetricOccurrence occurrence, OTF2_RecorderKind kind)
{
    (void)occurrence;
    (void)kind;
    return CB(tf_otf2_def_metric_class(u, self, n, members));
}

static OTF2_CallbackCode def_instance(void *u, OTF2_MetricRef self, OTF2_MetricRef cls,
                                      OTF2_LocationRef recorder, OTF2_MetricScope scope_kind,
                                      uint64_t scope)
{
    (void)recorder;
    (void)scope_kind;
    (void)scope;
    return CB(tf_otf2_def_metric_instance(u, self, cls));
}

/* The bytes of the file at path, UINT64_MAX when it cannot be seen: a
 * bound on the records a reader of it may deliver (a record takes at
 * least two bytes), so that one going round a damaged chunk list stops. */
static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : UINT64_MAX;
}

/* A read of at most limit records: asks the reader for one more. */
static uint64_t ask_for(uint64_t limit)
{
    return limit == UINT64_MAX ? OTF2_UNDEFINED_UINT64 : limit + 1;
}

static bool read_defs(OTF2_Reader *rd, struct tf_otf2 *conv, const char *anchor,
                      const char *file, struct tf_diag *d)
{
    /* "traces.def" of "traces.otf2" */
    char def[4096];
    size_t len = strlen(anchor);
    snprintf(def, sizeof def, "%.*s.def", (int)(len > 5 ? len - 5 : len), anchor);
    uint64_t limit = file_bytes(def);
    OTF2_GlobalDefReader *gdr = o2.OTF2_Reader_GetGlobalDefReader(rd);
    if (!gdr)
        return lib_error(file, "cannot read the global definitions", d);
    OTF2_GlobalDefReaderCallbacks *cb = o2.OTF2_GlobalDefReaderCallbacks_New();
    if (!cb) {
        o2.OTF2_Reader_CloseGlobalDefReader(rd, gdr);
        return tf_diag_oom(d, file);
    }
    o2.OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    o2.OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    o2.OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    o2.OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_lg);
    o2.OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_loc);
    o2.OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    o2.OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    o2.OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, def_member);
    o2.OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, def_class);
    o2.OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, def_instance);
    o2.OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, conv);
    uint64_t n = 0;
    OTF2_ErrorCode rc = o2.OTF2_Reader_ReadGlobalDefinitions(rd, gdr, ask_for(limit), &n);
    o2.OTF2_GlobalDefReaderCallbacks_Delete(cb);
    o2.OTF2_Reader_CloseGlobalDefReader(rd, gdr);
    if (rc == OTF2_SUCCESS && limit != UINT64_MAX && n > limit)
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: %s: more definitions than its %llu bytes hold (a damaged "
                             "archive)",
                             file, tf_base_name(def), (unsigned long long)limit);
    if (rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
        return tf_diag_oom(d, file);
    if (rc != OTF2_SUCCESS)
        return lib_error(file, "cannot read the global definitions", d);
    return true;
}

/* --- events ---------------------------------------------------------------------- */

/* The locations whose events are not as many as their definitions say
 * (APEX declares the same count for every thread, whatever each holds):
 * the first of them and how many, for one warning after pass 1. */
struct miscount {
    uint64_t loc, read, declared;
    size_t n;
    char files[64]; /* the first one's event file is FILES/LOC.evt */
};

struct evctx {
    struct tf_otf2 *conv;
    struct tf_diag *d;
    const char *files; /* the archive's name: its event files are FILES/N.evt */
    const char *dir;   /* the folder of its anchor ("." for none) */
    /* the location being read: events delivered, and the most its file holds */
    uint64_t count, limit;
    bool overrun;
    struct miscount *mis; /* pass 1's; NULL in pass 2 */
};

/* Every callback counts its event first: a location that delivers more
 * events than its file's bytes hold is a damaged archive (a reader going
 * round a broken chunk list), interrupted there. */
#define EV(call) (bounded(e) && (call) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT)

static bool bounded(struct evctx *e)
{
    if (++e->count <= e->limit)
        return true;
    e->overrun = true;
    return false;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef region)
{
    (void)loc;
    (void)pos;
    (void)a;
    struct evctx *e = u;
    return EV(tf_otf2_enter(e->conv, t, region, e->d));
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef region)
{
    (void)loc;
    (void)pos;
    (void)a;
    struct evctx *e = u;
    return EV(tf_otf2_leave(e->conv, t, region, e->d));
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
    (void)loc;
    (void)pos;
    (void)a;
    (void)len;
    struct evctx *e = u;
    return EV(tf_otf2_send(e->conv, t, peer, comm, tag, e->d));
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    (void)req;
    return ev_send(loc, t, pos, u, a, peer, comm, tag, len);
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len)
{
    (void)loc;
    (void)pos;
    (void)a;
    (void)len;
    struct evctx *e = u;
    return EV(tf_otf2_recv(e->conv, t, peer, comm, tag, e->d));
}

/* MpiIrecv is the completion of a non-blocking receive: the message's end. */
static OTF2_CallbackCode ev_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req)
{
    (void)req;
    return ev_recv(loc, t, pos, u, a, peer, comm, tag, len);
}

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                       void *u, OTF2_AttributeList *a)
{
    (void)loc;
    (void)pos;
    (void)a;
    struct evctx *e = u;
    if (!bounded(e))
        return OTF2_CALLBACK_INTERRUPT;
    tf_otf2_coll_begin(e->conv, t);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos,
                                     void *u, OTF2_AttributeList *a, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received)
{
    (void)loc;
    (void)pos;
    (void)a;
    (void)comm;
    (void)root;
    (void)sent;
    (void)received;
    struct evctx *e = u;
    return EV(tf_otf2_coll_end(e->conv, t, op, e->d));
}

static OTF2_CallbackCode ev_metric(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                   OTF2_AttributeList *a, OTF2_MetricRef metric, uint8_t n,
                                   const OTF2_Type *types, const OTF2_MetricValue *values)
{
    (void)loc;
    (void)pos;
    (void)a;
    struct evctx *e = u;
    union tf_otf2_value v[256];
    for (uint8_t i = 0; i < n; i++)
        memcpy(&v[i], &values[i], sizeof v[i]);
    return EV(tf_otf2_metric(e->conv, t, metric, n, types, v, e->d));
}

static OTF2_CallbackCode ev_onoff(OTF2_LocationRef loc, OTF2_TimeStamp t, uint64_t pos, void *u,
                                  OTF2_AttributeList *a, OTF2_MeasurementMode mode)
{
    (void)loc;
    (void)pos;
    (void)a;
    struct evctx *e = u;
    return EV(tf_otf2_onoff(e->conv, t, mode, e->d));
}

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = o2.OTF2_EvtReaderCallbacks_New();
    if (!cb)
        return NULL;
    o2.OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    o2.OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    o2.OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    o2.OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    o2.OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    o2.OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    o2.OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
    o2.OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
    o2.OTF2_EvtReaderCallbacks_SetMetricCallback(cb, ev_metric);
    o2.OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, ev_onoff);
    return cb;
}

/* The most events a location may deliver: as many as the bytes of its
 * event file hold (a record takes at least two: its type and its length
 * or a value); UINT64_MAX when the file's size is not known.  The count
 * its definition gives bounds nothing: real writers get it wrong (APEX
 * declares the same count for every thread). */
static uint64_t event_limit(const struct evctx *e, uint64_t loc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%llu.evt", e->dir, e->files, (unsigned long long)loc);
    uint64_t bytes = file_bytes(path);
    return bytes == UINT64_MAX ? bytes : bytes / 2;
}

/* A damaged location's one line, naming its event file. */
static bool overrun(const struct evctx *e, uint64_t loc, const char *file)
{
    if (tf_diag_failed(e->d))
        return false;
    return tf_diag_error(e->d, TF_EBADINPUT,
                         "%s: %.40s/%llu.evt: location %llu delivers more events than the %llu "
                         "its file's bytes hold (a damaged archive)",
                         file, e->files, (unsigned long long)loc, (unsigned long long)loc,
                         (unsigned long long)e->limit);
}

/* Pass 1: a location read whole whose count is not its definition's. */
static void note_count(struct evctx *e, uint64_t loc, uint64_t read)
{
    uint64_t declared = tf_otf2_location_events(e->conv, loc);
    if (!e->mis || read == declared)
        return;
    if (e->mis->n++ == 0) {
        e->mis->loc = loc;
        e->mis->read = read;
        e->mis->declared = declared;
        snprintf(e->mis->files, sizeof e->mis->files, "%s", e->files);
    }
}

/* The one warning for the locations note_count found. */
static void warn_counts(const struct miscount *m, const char *file, struct tf_diag *d)
{
    if (m->n == 0)
        return;
    char more[80] = "";
    if (m->n > 1)
        snprintf(more, sizeof more, " (and %zu other location%s differ%s)", m->n - 1,
                 m->n == 2 ? "" : "s", m->n == 2 ? "s" : "");
    tf_diag_warn(d,
                 "%s: %.40s/%llu.evt: location %llu holds %llu event%s where its definition "
                 "says %llu%s: drawn as read",
                 file, m->files, (unsigned long long)m->loc, (unsigned long long)m->loc,
                 (unsigned long long)m->read, m->read == 1 ? "" : "s",
                 (unsigned long long)m->declared, more);
}

/* One location: its local definitions, then its events. */
static bool read_location(OTF2_Reader *rd, OTF2_EvtReaderCallbacks *cb, struct evctx *e,
                          uint64_t loc, const char *file)
{
    /* A location without events may have no event file at all (some
     * writers write none): nothing to read. */
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", e->dir, e->files);
    if (tf_otf2_location_events(e->conv, loc) == 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(path, sizeof path, "%s/%s/%llu.evt", e->dir, e->files, (unsigned long long)loc);
        if (stat(path, &st) != 0)
            return true;
    }
    OTF2_EvtReader *er = o2.OTF2_Reader_GetEvtReader(rd, loc);
    if (!er)
        return lib_error(file, "cannot read the events", e->d);
    OTF2_DefReader *dr = o2.OTF2_Reader_GetDefReader(rd, loc);
    if (dr) {
        uint64_t nd = 0;
        snprintf(path, sizeof path, "%s/%s/%llu.def", e->dir, e->files, (unsigned long long)loc);
        uint64_t most = file_bytes(path);
        OTF2_ErrorCode drc = o2.OTF2_Reader_ReadLocalDefinitions(rd, dr, ask_for(most), &nd);
        o2.OTF2_Reader_CloseDefReader(rd, dr);
        if (drc == OTF2_SUCCESS && most != UINT64_MAX && nd > most) {
            o2.OTF2_Reader_CloseEvtReader(rd, er);
            return tf_diag_error(e->d, TF_EBADINPUT,
                                 "%s: %.40s/%llu.def: more definitions than its %llu bytes hold "
                                 "(a damaged archive)",
                                 file, e->files, (unsigned long long)loc, (unsigned long long)most);
        }
    }
    o2_msg[0] = '\0'; /* no local definitions is no error */
    o2.OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, e);
    if (!tf_otf2_location(e->conv, loc, e->d)) {
        o2.OTF2_Reader_CloseEvtReader(rd, er);
        return false;
    }
    e->count = 0;
    e->limit = event_limit(e, loc);
    e->overrun = false;
    /* The reader is asked for one record more than the file holds, so
     * that records no callback sees (of kinds not drawn) are bounded too. */
    uint64_t n = 0;
    OTF2_ErrorCode rc = o2.OTF2_Reader_ReadLocalEvents(rd, er, ask_for(e->limit), &n);
    o2.OTF2_Reader_CloseEvtReader(rd, er);
    if (e->overrun || (rc == OTF2_SUCCESS && e->limit != UINT64_MAX && n > e->limit))
        return overrun(e, loc, file);
    if (rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK)
        return tf_diag_failed(e->d) ? false : tf_diag_oom(e->d, file);
    if (rc == OTF2_SUCCESS)
        note_count(e, loc, n);
    if (rc != OTF2_SUCCESS) {
        char what[160];
        snprintf(what, sizeof what, "the events of location %llu (%.40s/%llu.evt, cut or damaged?)",
                 (unsigned long long)loc, e->files, (unsigned long long)loc);
        return lib_error(file, what, e->d);
    }
    return tf_otf2_location_end(e->conv, e->d);
}

/* One pass over the selected locations' events. */
static bool read_events(OTF2_Reader *rd, struct tf_otf2 *conv, const char *anchor,
                        const char *file, struct miscount *mis, struct tf_diag *d)
{
    /* "traces" of ".../traces.otf2" */
    const char *base = strrchr(anchor, '/');
    base = base ? base + 1 : anchor;
    char files[64];
    size_t len = strlen(base) > 5 ? strlen(base) - 5 : strlen(base);
    snprintf(files, sizeof files, "%.*s", (int)(len < sizeof files ? len : sizeof files - 1), base);
    size_t n_sel;
    const uint64_t *sel = tf_otf2_selected(conv, &n_sel);
    OTF2_EvtReaderCallbacks *cb = event_callbacks();
    if (!cb)
        return tf_diag_oom(d, file);
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", base > anchor ? (int)(base - anchor - 1) : 1,
             base > anchor ? anchor : ".");
    struct evctx e = {conv, d, files, dir, 0, UINT64_MAX, false, mis};
    bool ok = true;
    for (size_t i = 0; ok && i < n_sel; i++)
        ok = read_location(rd, cb, &e, sel[i], file);
    o2.OTF2_EvtReaderCallbacks_Delete(cb);
    return ok;
}

/* --- the anchor ------------------------------------------------------------------ */

/* The archive's byte order, from its event chunk size (a size libotf2
 * takes lies in 256 KiB .. 16 MiB): 1 little-endian, 2 big-endian, 0
 * neither. */
static int anchor_order(const unsigned char *p)
{
    uint64_t le = 0, be = 0;
    for (int i = 0; i < 8; i++) {
        le |= (uint64_t)p[i] << (8 * i);
        be = be << 8 | p[i];
    }
    const uint64_t lo = 256 * 1024, hi = 16 * 1024 * 1024;
    return le >= lo && le <= hi ? 1 : be >= lo && be <= hi ? 2 : 0;
}

/* False, with the message, when the anchor names more properties than its
 * bytes can hold: libotf2 would make room for each (an anchor whose
 * count is damaged costs it seconds, however small the file).  The
 * layout: "OTF2" and its NUL, the anchor format (1 byte), 38 bytes of
 * versions, chunk sizes, substrate, compression and counts, three strings
 * (machine, creator, description), then (format 2 on) the number of
 * properties (4 bytes), each a name and a value string.  Whatever else is
 * wrong is left to libotf2, which says so at once. */
static bool anchor_props_fit(const unsigned char *b, size_t n, const char *file,
                             struct tf_diag *d);

static bool anchor_fits(const char *anchor, const char *file, struct tf_diag *d)
{
    FILE *f = fopen(anchor, "rb");
    if (!f)
        return true; /* libotf2 says why */
    enum { CAP = 65536 }; /* anchors are hundreds of bytes; a larger one is not checked */
    unsigned char *b = malloc(CAP);
    if (!b) {
        fclose(f);
        return tf_diag_oom(d, file);
    }
    size_t n = fread(b, 1, CAP, f);
    bool whole = n < CAP || fgetc(f) == EOF;
    fclose(f);
    bool ok = !whole || anchor_props_fit(b, n, file, d);
    free(b);
    return ok;
}

/* anchor_fits on the anchor's n bytes at b. */
static bool anchor_props_fit(const unsigned char *b, size_t n, const char *file,
                             struct tf_diag *d)
{
    size_t p = 0;
    while (p + 5 <= n && p < 16 && memcmp(b + p, "OTF2", 5) != 0)
        p++;
    if (p + 5 > n || p >= 16 || p + 6 + 38 > n)
        return true;
    unsigned format = b[p + 5];
    size_t q = p + 6;
    int order = anchor_order(b + q + 4);
    if (format < 2 || order == 0)
        return true;
    q += 38;
    for (int k = 0; k < 3; k++) {
        const unsigned char *z = q < n ? memchr(b + q, 0, n - q) : NULL;
        if (!z)
            return true;
        q = (size_t)(z - b) + 1;
    }
    if (q + 4 > n)
        return true;
    uint32_t props = order == 1 ? (uint32_t)b[q] | (uint32_t)b[q + 1] << 8 | (uint32_t)b[q + 2] << 16 |
                             (uint32_t)b[q + 3] << 24
                       : (uint32_t)b[q] << 24 | (uint32_t)b[q + 1] << 16 | (uint32_t)b[q + 2] << 8 |
                             (uint32_t)b[q + 3];
    size_t room = n - (q + 4);
    if ((uint64_t)props * 2 <= room)
        return true;
    return tf_diag_error(d, TF_EBADINPUT,
                         "%s: cannot open the OTF2 archive: its anchor names %lu properties, more "
                         "than its %zu bytes hold (a damaged anchor)",
                         file, (unsigned long)props, n);
}

/* Opens the archive with its global definitions read into conv (the
 * first time) and its picked locations selected. */
static OTF2_Reader *open_archive(const char *anchor, const char *file, struct tf_otf2 *conv,
                                 bool defs, struct tf_diag *d)
{
    if (defs && !anchor_fits(anchor, file, d))
        return NULL;
    o2_msg[0] = '\0';
    OTF2_Reader *rd = o2.OTF2_Reader_Open(anchor);
    if (!rd) {
        /* an anchor of a later format version is refused by name */
        lib_error(file,
                  strstr(o2_msg, "version") ? "cannot open the OTF2 archive (written by a newer "
                                              "OTF2 than this libotf2 reads?)"
                                            : "cannot open the OTF2 archive",
                  d);
        return NULL;
    }
    o2.OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    bool ok = !defs || (read_defs(rd, conv, anchor, file, d) && tf_otf2_plan(conv, d));
    size_t n_sel;
    const uint64_t *sel = ok ? tf_otf2_selected(conv, &n_sel) : NULL;
    for (size_t i = 0; ok && i < n_sel; i++)
        ok = o2.OTF2_Reader_SelectLocation(rd, sel[i]) == OTF2_SUCCESS ||
             lib_error(file, "cannot select a location", d);
    ok = ok && (o2.OTF2_Reader_OpenEvtFiles(rd) == OTF2_SUCCESS ||
                lib_error(file, "cannot open the event files", d));
    ok = ok && (o2.OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS || (o2_msg[0] = '\0', true));
    if (!ok) {
        o2.OTF2_Reader_Close(rd);
        return NULL;
    }
    return rd;
}

static void close_archive(OTF2_Reader *rd)
{
    o2.OTF2_Reader_CloseDefFiles(rd);
    o2.OTF2_Reader_CloseEvtFiles(rd);
    o2.OTF2_Reader_Close(rd);
}

static bool read_archive(const char *anchor, const char *file, const struct tf_keep *keep,
                         struct tf_diag *d)
{
    struct tf_otf2 *conv = tf_otf2_new(file, &keep->tef);
    if (!conv)
        return tf_diag_oom(d, file);
    OTF2_Reader *rd = open_archive(anchor, file, conv, true, d);
    struct miscount mis = {0, 0, 0, 0, ""};
    bool ok = rd && tf_otf2_begin(conv, d) && read_events(rd, conv, anchor, file, &mis, d);
    if (rd)
        close_archive(rd);
    int64_t lo, hi;
    ok = ok && tf_otf2_window(conv, &lo, &hi, d);
    /* Pass 2 opens the archive again: libotf2 reads a location's events
     * once per reader. */
    rd = ok ? open_archive(anchor, file, conv, false, d) : NULL;
    ok = ok && rd && read_events(rd, conv, anchor, file, NULL, d);
    if (rd)
        close_archive(rd);
    ok = ok && tf_otf2_finish(conv, d);
    /* Only a read that succeeds warns: a refused archive says one line. */
    if (ok)
        warn_counts(&mis, file, d);
    tf_otf2_free(conv);
    return ok;
}

bool tf_load_otf2(const char *path, const char *file, const struct tf_keep *keep,
                  struct tf_trace *out, struct tf_diag *d)
{
    out->kind = TF_TRACE_CHROME;
    out->generic = true;
    if (!keep->tef.index && !keep->tef.collect)
        return true; /* another mode was asked for: run.c says it reads another kind */
    struct stat st;
    struct tf_buf anchor;
    tf_buf_init(&anchor);
    bool ok = true;
    if (stat(path, &st) != 0) {
        ok = tf_diag_error(d, TF_EBADINPUT, "%s: cannot open: %s", file, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
        ok = folder_anchor(path, file, &anchor, d);
    } else {
        tf_buf_puts(&anchor, path);
        ok = !anchor.oom || tf_diag_oom(d, file);
    }
    ok = ok && o2_load(d) && read_archive(anchor.data, file, keep, d);
    tf_buf_fini(&anchor);
    return ok;
}

#endif
