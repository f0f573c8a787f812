/* kernels.c - HTA's kernel types (types.py, utils.py get_kernel_type, with
 * Python's re semantics) and the classes built on them; see kernels.h. */
#include "rules/kernels.h"

#include <string.h>

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* p occurs on s's first line (what ".*p" matches from the start). */
static bool on_first_line(const char *s, const char *p)
{
    const char *at = strstr(s, p), *nl = strchr(s, '\n');
    return at && (!nl || at + strlen(p) <= nl);
}

/* Which of HTA's substrings occur on the first line of s, in one pass
 * (kernel names are long C++ signatures, and a trace has millions). */
enum { HAS_NCCLK = 1, HAS_MEMCPY = 2, HAS_MEMSET = 4, HAS_DMA = 8, HAS_SYNC = 16 };

static unsigned first_line_has(const char *s)
{
    unsigned m = 0;
    for (; *s && *s != '\n'; s++) {
        switch (*s) {
        case 'n':
            if (strncmp(s, "ncclKernel", 10) == 0)
                m |= HAS_NCCLK;
            break;
        case 'M':
            if (strncmp(s, "Memcpy", 6) == 0)
                m |= HAS_MEMCPY;
            else if (strncmp(s, "Memset", 6) == 0)
                m |= HAS_MEMSET;
            break;
        case 'd':
            if (s[1] == 'm' && s[2] == 'a')
                m |= HAS_DMA;
            break;
        case 'S':
            if (s[1] == 'y' && s[2] == 'n' && s[3] == 'c')
                m |= HAS_SYNC;
            break;
        default:
            break;
        }
    }
    return m;
}

/* The prefixes that make a kernel communication (HTA's). */
static bool comm_prefix(const char *name)
{
    return starts(name, "nccl") || starts(name, "hip") || starts(name, "hccl");
}

enum tf_hta_kernel tf_hta_kernel_type(const char *name)
{
    if (!name)
        name = "";
    unsigned has = first_line_has(name);
    if (comm_prefix(name) || (has & HAS_NCCLK))
        return TF_HTA_COMM;
    if (starts(name, "Memcpy") || starts(name, "Memset") || starts(name, "dma"))
        return TF_HTA_MEMORY;
    if (has & (HAS_MEMCPY | HAS_MEMSET | HAS_DMA | HAS_SYNC))
        return TF_HTA_OTHER;
    static const char *const not_compute_prefix[] = {
        "Stream Wait Event", "runFunction", "job_exe", "packet", "pe_exe",
        "cpum_exe_subgraph", "collective_subgraph_execution",
    };
    for (size_t i = 0; i < sizeof not_compute_prefix / sizeof *not_compute_prefix; i++)
        if (starts(name, not_compute_prefix[i]))
            return TF_HTA_OTHER;
    if (starts(name, "cuda") && on_first_line(name + 4, "LaunchKernel"))
        return TF_HTA_OTHER;
    return TF_HTA_COMPUTE;
}

enum tf_kernel_class tf_kernel_classify(const char *name, const char *cat)
{
    if (!name)
        name = "";
    size_t n = strlen(name);
    if ((cat && strcmp(cat, "cuda_sync") == 0) || (n >= 4 && strcmp(name + n - 4, "Sync") == 0))
        return TF_KERNEL_NONE;
    switch (tf_hta_kernel_type(name)) {
    case TF_HTA_COMM:
        return TF_KERNEL_COMM;
    case TF_HTA_MEMORY:
        return TF_KERNEL_MEMORY;
    case TF_HTA_COMPUTE:
        return TF_KERNEL_COMPUTE;
    default:
        return TF_KERNEL_OTHER;
    }
}

bool tf_kernel_is_comm(const char *name)
{
    /* tf_hta_kernel_type(name) == TF_HTA_COMM, without its other tests:
     * one of the prefixes, or "ncclKernel" on the first line (its first
     * occurrence, and no newline before it). */
    if (!name)
        return false;
    if (comm_prefix(name))
        return true;
    const char *at = strstr(name, "ncclKernel");
    return at && !memchr(name, '\n', (size_t)(at - name));
}
