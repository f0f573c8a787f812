/* genotf2big.c - a large OTF2 archive for make bench, written with
 * libotf2's own writer (the Python binding writes ~1 M events in tens of
 * seconds; this writes 64 M in a few).
 *
 *   genotf2big OUT_DIR RANKS EVENTS_PER_RANK
 *
 * Each rank is one location: main, then steps of compute, MPI_Send (a
 * message to rank r+1) and MPI_Recv (from rank r-1), 8 events a step, on
 * a 1 GHz clock; rank r's steps are 1000..1499 ns of compute (a fixed
 * sequence, the same bytes every time).  Built and run by
 * tests/tools/bench-otf2.sh: cc genotf2big.c -lotf2. */
#include <otf2/otf2.h>

#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: genotf2big OUT_DIR RANKS EVENTS_PER_RANK\n");
        return 2;
    }
    uint32_t ranks = (uint32_t)strtoul(argv[2], NULL, 10);
    uint64_t events = strtoull(argv[3], NULL, 10);
    uint64_t steps = events > 2 ? (events - 2) / 8 : 0;
    OTF2_Archive *ar = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                         4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    if (!ar)
        return 1;
    OTF2_FlushCallbacks fl = {pre_flush, post_flush};
    OTF2_Archive_SetFlushCallbacks(ar, &fl, NULL);
    OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    OTF2_Archive_OpenEvtFiles(ar);
    uint64_t end = 0;
    for (uint32_t r = 0; r < ranks; r++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, r);
        uint64_t t = 1000ULL * r, seed = 12345u + r;
        OTF2_EvtWriter_Enter(w, NULL, t, 0);
        for (uint64_t k = 0; k < steps; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            uint64_t dt = 1000 + (seed >> 33) % 500;
            OTF2_EvtWriter_Enter(w, NULL, t, 1);
            OTF2_EvtWriter_Leave(w, NULL, t + dt, 1);
            t += dt;
            OTF2_EvtWriter_Enter(w, NULL, t, 2);
            OTF2_EvtWriter_MpiSend(w, NULL, t + 10, (r + 1) % ranks, 0, 1, 8);
            OTF2_EvtWriter_Leave(w, NULL, t + 50, 2);
            OTF2_EvtWriter_Enter(w, NULL, t + 50, 3);
            OTF2_EvtWriter_MpiRecv(w, NULL, t + 90, (r + ranks - 1) % ranks, 0, 1, 8);
            OTF2_EvtWriter_Leave(w, NULL, t + 100, 3);
            t += 100;
        }
        OTF2_EvtWriter_Leave(w, NULL, t, 0);
        if (t > end)
            end = t;
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
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, end, 0);
    const char *strs[] = {"", "main", "compute", "MPI_Send", "MPI_Recv", "node", "Master thread",
                          "MPI_COMM_WORLD", "world"};
    for (uint32_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        OTF2_GlobalDefWriter_WriteString(g, i, strs[i]);
    OTF2_GlobalDefWriter_WriteRegion(g, 0, 1, 1, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                     OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteRegion(g, 1, 2, 2, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                     OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteRegion(g, 2, 3, 3, 0, OTF2_REGION_ROLE_POINT2POINT,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteRegion(g, 3, 4, 4, 0, OTF2_REGION_ROLE_POINT2POINT,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 5, 5, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    uint64_t *members = malloc(ranks * sizeof *members);
    if (!members)
        return 1;
    for (uint32_t r = 0; r < ranks; r++) {
        char name[32];
        snprintf(name, sizeof name, "MPI Rank %u", (unsigned)r);
        OTF2_GlobalDefWriter_WriteString(g, 100 + r, name);
        OTF2_GlobalDefWriter_WriteLocationGroup(g, r, 100 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, r, 6, OTF2_LOCATION_TYPE_CPU_THREAD, 2 + 8 * steps,
                                           r);
        members[r] = r;
    }
    OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, ranks, members);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, 8, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, ranks, members);
    OTF2_GlobalDefWriter_WriteComm(g, 0, 7, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    free(members);
    OTF2_Archive_CloseGlobalDefWriter(ar, g);
    return OTF2_Archive_Close(ar) == OTF2_SUCCESS ? 0 : 1;
}
