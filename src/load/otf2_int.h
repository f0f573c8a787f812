/* otf2_int.h - what the two halves of the OTF2 converter share: the
 * definitions they keep and the state of a read (otf2_conv.c: definitions,
 * lanes, the name records; otf2_events.c: events into records, messages,
 * metrics, each rank's time per paradigm, the passes).  Private to
 * src/load/otf2_*.c; see otf2_conv.h for what the converter does.
 */
#ifndef TF_LOAD_OTF2_INT_H
#define TF_LOAD_OTF2_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "load/otf2_conv.h"

/* A map of OTF2 refs (ids) to indices into a kind's array. */
struct refmap {
    uint64_t *keys;
    uint32_t *vals; /* index + 1; 0: empty */
    size_t cap, n;
};

uint64_t tf_otf2_mix(uint64_t k);
/* false when out of memory */
bool tf_otf2_map_put(struct refmap *m, uint64_t key, uint32_t val);
/* the index of key, or SIZE_MAX */
size_t tf_otf2_map_get(const struct refmap *m, uint64_t key);
void tf_otf2_map_fini(struct refmap *m);

struct region {
    uint32_t name;
    const char *cat;
};

struct lgroup {
    uint32_t ref, name;
    int type;
    long long rank;  /* "rank N" */
    size_t n_cpu, n_gpu;
    size_t n_threads; /* its CPU threads with events: several get "thread K" labels */
    bool counted;     /* some location of it says how many events it has */
    long long device; /* its GPU streams' "GPU N", -1: none */
    bool selected;    /* some location of it is read */
    char label[96];   /* "rank N"; without MPI, its own name */
};

struct frame {
    uint32_t region;
    int64_t t0;     /* of its current piece; INT64_MIN while measurement is off */
    unsigned depth; /* 1: outermost */
    bool coll;      /* holds a collective operation */
};

struct location {
    uint64_t ref;
    uint64_t n_events; /* as the definitions say */
    uint32_t name;
    int type;
    size_t group;   /* index into groups, SIZE_MAX: none */
    long long ordinal; /* its place among the group's locations of its type */
    bool selected;
    struct tf_id pid, tid;
    char pid_str[48], tid_str[96]; /* tid_str: also a CPU thread's name without MPI */
    char label[200];
    bool lane;      /* has a lane of its own (not a metric location) */
};

struct group {
    int type, paradigm;
    uint64_t *members;
    uint32_t n;
};

struct member {
    uint32_t name;
    char *unit;
};

struct metric {
    uint32_t *members; /* indices into members; NULL for an instance */
    uint32_t n;
    uint32_t cls;      /* an instance: its class's ref */
    bool instance;
};

struct channel {
    uint64_t from, to;
    uint32_t comm, tag;
    uint64_t sends, recvs;
};

/* Pass 2: a rank's slices of one category (or, mpi, of MPI of any kind)
 * in the window that no slice of it encloses: intervals that may overlap
 * only across its threads, merged once the rank is read. */
struct par_acc {
    const char *cat;
    bool mpi;
    struct piece {
        int64_t lo, hi;
    } *v;
    size_t n, cap;
};

struct tf_otf2 {
    const char *file;
    const struct tf_tef_sink *sink;
    int pass;
    size_t idx, idx0; /* idx0: the first event's (the same in both passes) */
    uint64_t res, offset;
    bool has_clock;
    bool mpi;       /* some region or group is MPI's: its processes are ranks */
    struct tf_arena arena;
    char **strs;
    size_t n_strs, cap_strs;
    struct refmap m_str, m_region, m_lg, m_loc, m_group, m_comm, m_member, m_metric, m_chan;
    struct region *regions;
    size_t n_regions, cap_regions;
    struct lgroup *lgs;
    size_t n_lgs, cap_lgs;
    struct location *locs;
    size_t n_locs, cap_locs;
    struct group *groups;
    size_t n_groups, cap_groups;
    uint32_t *comms; /* group ref of each communicator */
    size_t n_comms, cap_comms;
    struct member *members;
    size_t n_members, cap_members;
    struct metric *metrics;
    size_t n_metrics, cap_metrics;
    struct channel *chans;
    size_t n_chans, cap_chans;
    uint64_t *selected;
    size_t n_selected;
    /* the location being read */
    struct location *cur;
    struct frame *stack;
    size_t n_stack, cap_stack;
    int64_t coll_t0;
    bool in_coll, off;
    /* pass 2: the rank being read's time per paradigm */
    int64_t w0, w1;
    size_t acc_group; /* its group, SIZE_MAX: none */
    struct tf_id acc_pid;
    char acc_pid_str[48];
    struct par_acc *accs;
    size_t n_accs, cap_accs;
    /* counts (pass 1) */
    size_t n_misnested, n_stray_leaves, n_idle_leaves, n_never_left, n_off, n_off_ranks, n_bad_metric;
    bool loc_had_off;
    struct tf_buf args, flow, name;
};

/* The string of ref ("" when undefined). */
const char *tf_otf2_str(const struct tf_otf2 *n, uint32_t ref);
/* Hands a record to the sink of the pass (index, collect); its errors
 * name the file. */
bool tf_otf2_emit(struct tf_otf2 *n, struct tf_tef_rec *r, struct tf_diag *d);

#endif
