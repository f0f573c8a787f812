/* genotf2job.c - an OTF2 archive of a job of many ranks, written with
 * libotf2's own writer, for the overview's tests and make bench: varied
 * busy shares and one straggler, as gentrace.py job makes them for Kineto.
 *
 *   genotf2job OUT_DIR RANKS STEPS STRAGGLER [TRUTH]
 *
 * Each rank is one location ("MPI Rank r", its master thread), on a 1 GHz
 * clock.  A step starts on every rank at once (plus r ns): "compute" for
 * a share of the step that differs by node of 8 ranks and by rank (30 % to
 * 85 % of 2 ms), then MPI_Allreduce for 100 us, then nothing until the
 * next step, which starts after the slowest rank.  The straggler (a rank
 * number, or -1 for none) computes 1.6 times as long.  TRUTH, when given,
 * gets a line per rank and step: "rank step busy_ns end_ns" (the union of
 * its slices in the step, and its last slice's end, ns from the clock's
 * start).  The same arguments give the same bytes.  Built and run by
 * tests/ranks/run.sh and tests/tools/bench-ranks.sh: cc genotf2job.c
 * -lotf2. */
#include <otf2/otf2.h>

#include <stdio.h>
#include <stdlib.h>

#define STEP_NS 2000000ULL
#define MPI_NS 100000ULL
#define NODE 8

static OTF2_FlushType pre_flush(void *u, OTF2_FileType t, OTF2_LocationRef l, void *c, bool final)
{
    (void)u;
    (void)t;
    (void)l;
    (void)c;
    (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *u, OTF2_FileType t, OTF2_LocationRef l)
{
    (void)u;
    (void)t;
    (void)l;
    return 0;
}

/* A number in [0, 1) from a key (a fixed mix: the same everywhere). */
static double unit_of(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (double)(k >> 11) / 9007199254740992.0;
}

/* Rank r's compute share of a step. */
static double share_of(uint32_t r)
{
    double node = (double)((r / NODE * 37) % 16) / 15.0;
    return 0.30 + 0.55 * (0.6 * node + 0.4 * unit_of(r + 1));
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: genotf2job OUT_DIR RANKS STEPS STRAGGLER [TRUTH]\n");
        return 2;
    }
    uint32_t ranks = (uint32_t)strtoul(argv[2], NULL, 10);
    uint32_t steps = (uint32_t)strtoul(argv[3], NULL, 10);
    long straggler = strtol(argv[4], NULL, 10);
    FILE *truth = argc == 6 ? fopen(argv[5], "w") : NULL;
    if (argc == 6 && !truth)
        return 1;
    OTF2_Archive *ar = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 256 * 1024,
                                         4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    if (!ar)
        return 1;
    OTF2_FlushCallbacks fl = {pre_flush, post_flush};
    OTF2_Archive_SetFlushCallbacks(ar, &fl, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    OTF2_Archive_OpenEvtFiles(ar);
    /* The longest step: the straggler's. */
    uint64_t period = (uint64_t)((double)STEP_NS * 1.6) + MPI_NS + 200000ULL;
    uint64_t end = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, r);
        double slow = (long)r == straggler ? 1.6 : 1.0;
        uint64_t compute = (uint64_t)(share_of(r) * (double)STEP_NS * slow) - MPI_NS;
        for (uint32_t s = 0; s < steps; s++) {
            uint64_t t0 = 1000000ULL + s * period + r, t1 = t0 + compute, t2 = t1 + MPI_NS;
            OTF2_EvtWriter_Enter(w, NULL, t0, 0);
            OTF2_EvtWriter_Enter(w, NULL, t0, 1);
            OTF2_EvtWriter_Leave(w, NULL, t1, 1);
            OTF2_EvtWriter_Enter(w, NULL, t1, 2);
            OTF2_EvtWriter_Leave(w, NULL, t2, 2);
            OTF2_EvtWriter_Leave(w, NULL, t2, 0);
            if (truth)
                fprintf(truth, "%u %u %llu %llu\n", (unsigned)r, (unsigned)s,
                        (unsigned long long)(t2 - t0), (unsigned long long)t2);
            if (t2 > end)
                end = t2;
        }
        OTF2_Archive_CloseEvtWriter(ar, w);
    }
    OTF2_Archive_CloseEvtFiles(ar);
    OTF2_Archive_OpenDefFiles(ar);
    for (uint32_t r = 0; r < ranks; r++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, r);
        OTF2_Archive_CloseDefWriter(ar, dw);
    }
    OTF2_Archive_CloseDefFiles(ar);
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, end + 1000000ULL, 0);
    const char *strs[] = {"", "step", "compute", "MPI_Allreduce", "node", "Master thread",
                          "MPI_COMM_WORLD", "world"};
    for (uint32_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        OTF2_GlobalDefWriter_WriteString(g, i, strs[i]);
    OTF2_GlobalDefWriter_WriteRegion(g, 0, 1, 1, 0, OTF2_REGION_ROLE_LOOP, OTF2_PARADIGM_USER,
                                     OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteRegion(g, 1, 2, 2, 0, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_COMPILER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteRegion(g, 2, 3, 3, 0, OTF2_REGION_ROLE_COLL_ALL2ALL,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 4, 4, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    uint64_t *members = malloc((ranks ? ranks : 1) * sizeof *members);
    if (!members)
        return 1;
    for (uint32_t r = 0; r < ranks; r++) {
        char name[32];
        snprintf(name, sizeof name, "MPI Rank %u", (unsigned)r);
        OTF2_GlobalDefWriter_WriteString(g, 100 + r, name);
        OTF2_GlobalDefWriter_WriteLocationGroup(g, r, 100 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, r, 5, OTF2_LOCATION_TYPE_CPU_THREAD,
                                           (uint64_t)steps * 6, r);
        members[r] = r;
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, ranks, members);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, 7, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, ranks, members);
    OTF2_GlobalDefWriter_WriteComm(g, 0, 6, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    free(members);
    OTF2_Archive_CloseGlobalDefWriter(ar, g);
    if (truth)
        fclose(truth);
    return OTF2_Archive_Close(ar) == OTF2_SUCCESS ? 0 : 1;
}
