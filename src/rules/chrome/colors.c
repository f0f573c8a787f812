/* colors.c - the generic Chrome mode's colours: Chrome's reserved colour
 * names (cname), the palette of the categories profilers use (the older
 * Kineto names too) and spare colours for the others, colours by name
 * (--color-by), the figure category (and its legend label) of each bar,
 * NCCL kernels apart from other kernels, --color rules, the legend, and a
 * text colour that reads on each fill.  It does not decide which bars
 * exist or what they say (rows.c, names.c).
 *
 * By name.  With --color-by name, or by default when the slices drawn
 * carry one category or none (clang -ftime-trace, TensorFlow's "Op"), a
 * slice's colour comes from its colour class: its name as the bar shows it
 * (the short name), numbers that no letter precedes written "*"
 * ("ProfilerStep#*").  The classes that take the most time (drawn area)
 * get the palette's colours in order of time, at most LEGEND_NAMES, each
 * its own and listed in the legend; the others are drawn grey as "other".
 * Without a legend (below), a class's colour comes from an FNV-1a hash of
 * it into NAME_COLORS colours.  When the names listed would
 * cover less than half of the time, no legend can explain the colours:
 * every name keeps its own colour and a note says the legend is left out.
 *
 * Classes.  A figure category is one class (what the legend, a dense
 * bar's "busy" and a palette file call it: tf_category_class) of one
 * trace category: by category, the category (NCCL kernels a class of
 * their own); by name, a listed name or "other", and without a legend
 * each name, so that no two names that share a hash colour are one class.
 * The JSON model lists each class once (render/json.c).
 */
#include "rules/chrome/chrome_int.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/sat.h"

/* --- palettes ---------------------------------------------------------------------- */

/* Chrome's reserved colour names, as trace-viewer draws them (FACTS 1.6);
 * any other cname is ignored. */
uint32_t tf_chrome_cname_color(const char *cname)
{
    static const struct {
        const char *name;
        uint32_t rgb;
    } table[] = {
        {"thread_state_uninterruptible", 0xB67D8F}, {"thread_state_iowait", 0xFF8C00},
        {"thread_state_running", 0x7EC894},        {"thread_state_runnable", 0x85A0D2},
        {"thread_state_sleeping", 0xF0F0F0},       {"thread_state_unknown", 0xC79B7D},
        {"background_memory_dump", 0x00B4B4},      {"light_memory_dump", 0x0000B4},
        {"detailed_memory_dump", 0xB400B4},        {"vsync_highlight_color", 0x0000FF},
        {"generic_work", 0x7D7D7D},                {"good", 0x007D00},
        {"bad", 0xB47D00},                         {"terrible", 0xB40000},
        {"black", 0x000000},                       {"grey", 0xDDDDDD},
        {"white", 0xFFFFFF},                       {"yellow", 0xFFFF00},
        {"olive", 0x646400},                       {"rail_response", 0x4387FD},
        {"rail_animation", 0xF44A3F},              {"rail_idle", 0xEE8E00},
        {"rail_load", 0x0DA861},                   {"startup", 0xE6E600},
        {"heap_dump_stack_frame", 0x808080},       {"heap_dump_object_type", 0x0000FF},
        {"heap_dump_child_node_arrow", 0xCC6600},  {"cq_build_running", 0xFFFF77},
        {"cq_build_passed", 0x99EE66},             {"cq_build_failed", 0xEE8888},
        {"cq_build_abandoned", 0xBBBBBB},          {"cq_build_attempt_runnig", 0xDEDE4B},
        {"cq_build_attempt_passed", 0x67DA23},     {"cq_build_attempt_failed", 0xC55151},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(cname, table[i].name) == 0)
            return table[i].rgb;
    return TF_CHROME_NO_COLOR;
}

/* Paul Tol's colour-blind-safe "muted" scheme for the categories profilers
 * use (FACTS: Tol, SRON/EPS/TN/09-002, 2021). */
static const struct {
    const char *cat;
    uint32_t rgb;
} known_cats[] = {
    {"kernel", 0x332288},          {"mtia_ccp_events", 0x332288},
    {"collective_comm", 0xCC6677}, {"gpu_memcpy", 0x88CCEE},
    {"gpu_memset", 0x44AA99},      {"cuda_runtime", 0xDDCC77},
    {"cuda_driver", 0xDDCC77},     {"xpu_runtime", 0xDDCC77},
    {"xpu_driver", 0xDDCC77},      {"mtia_runtime", 0xDDCC77},
    {"privateuse1_runtime", 0xDDCC77}, {"privateuse1_driver", 0xDDCC77},
    {"cpu_op", 0x117733},          {"user_annotation", 0xAA4499},
    {"gpu_user_annotation", 0x882255}, {"python_function", 0x999933},
    {"cuda_sync", 0xDDDDDD},       {"Trace", 0xDDDDDD},
    {"overhead", 0xDDDDDD},
    /* Nsight Systems exports (load/nsys_rows.h): NVTX ranges as the
     * annotations they are, OS runtime calls as the waits they mostly are */
    {"nvtx", 0xAA4499},            {"osrt", 0xDDDDDD},
    /* rocpd databases (load/rocpd.h): the API regions' categories, HIP's
     * runtime as CUDA's, the calls compilers insert around each launch as
     * background, HSA's (the runtime under HIP) apart, RCCL's calls in the
     * light red of collectives (not the NCCL kernels' own), a GPU's
     * allocations in pink */
    {"HIP_RUNTIME_API", 0xDDCC77}, {"HIP_RUNTIME_API_EXT", 0xDDCC77},
    {"HIP_COMPILER_API", 0xDDDDDD}, {"HIP_COMPILER_API_EXT", 0xDDDDDD},
    {"HSA_CORE_API", 0x999933},    {"HSA_AMD_EXT_API", 0x999933},
    {"HSA_IMAGE_EXT_API", 0x999933}, {"HSA_FINALIZE_EXT_API", 0x999933},
    {"HSA_API", 0x999933},         {"RCCL_API", 0xEE8866},
    {"gpu_memory", 0xFFAABB},
    /* OTF2 archives (load/otf2_conv.h): the paradigms, MPI in one family
     * of reds as HPC readers know it from Vampir (point-to-point darker,
     * collectives lighter), the others in Tol's muted and light schemes */
    {"MPI", 0xCC3311},             {"MPI collective", 0xEE8866},
    {"OpenMP", 0x117733},          {"CUDA", 0x332288},
    {"HIP", 0xAA4499},             {"I/O", 0xDDCC77},
    {"user", 0x88CCEE},            {"compiler", 0x77AADD},
    {"measurement", 0xDDDDDD},     {"pthread", 0x999933},
};

/* Any other category: Tol's "light" scheme, by an FNV-1a hash of its name,
 * probing to the next free colour within one figure. */
const uint32_t tf_chrome_spare_colors[8] = {
    0x77AADD, 0xEE8866, 0xEEDD88, 0xFFAABB, 0x99DDFF, 0x44BB99, 0xBBCC33, 0xAAAA00,
};


/* The older Kineto format (PyTorch 1.8-1.10) names the categories of
 * today's Kineto differently: the same palette and GPU classes apply. */
static const struct {
    const char *old, *now;
} cat_aliases[] = {
    {"Kernel", "kernel"},   {"Memcpy", "gpu_memcpy"},    {"Memset", "gpu_memset"},
    {"Operator", "cpu_op"}, {"Runtime", "cuda_runtime"},
};

const char *tf_chrome_canon_cat(const char *cat)
{
    if (!cat)
        return cat;
    for (size_t i = 0; i < sizeof cat_aliases / sizeof cat_aliases[0]; i++)
        if (strcmp(cat, cat_aliases[i].old) == 0)
            return cat_aliases[i].now;
    return cat;
}

/* Colours by name: Paul Tol's "muted" scheme without its pale grey, then
 * the "bright" blue and the three "light" colours unlike those (FACTS:
 * Tol, SRON/EPS/TN/09-002, 2021). */
#define NAME_COLORS 12
static const uint32_t name_colors[NAME_COLORS] = {
    0xCC6677, 0x332288, 0xDDCC77, 0x117733, 0x88CCEE, 0x882255,
    0x44AA99, 0x999933, 0xAA4499, 0x4477AA, 0xEE8866, 0xBBCC33,
};
#define OTHER_COLOR 0xDDDDDDu

const uint32_t *tf_chrome_name_palette(size_t *n)
{
    *n = NAME_COLORS;
    return name_colors;
}
/* Names a legend lists at most; the share of the time they must cover. */
#define LEGEND_NAMES 8
#define LEGEND_COVER 0.5

bool tf_chrome_known_color(const char *cat, uint32_t *rgb)
{
    cat = tf_chrome_canon_cat(cat);
    for (size_t i = 0; i < sizeof known_cats / sizeof known_cats[0]; i++)
        if (strcmp(cat, known_cats[i].cat) == 0) {
            *rgb = known_cats[i].rgb;
            return true;
        }
    return false;
}

/* --color rules: the first whose glob matches the name, or the category. */
static bool rule_color(const struct tf_opts *o, const char *name, const char *cat,
                       uint32_t *rgb)
{
    for (size_t i = 0; i < o->n_colors; i++)
        if (fnmatch(o->colors[i].pattern, name, 0) == 0 ||
            fnmatch(o->colors[i].pattern, cat, 0) == 0) {
            *rgb = o->colors[i].rgb;
            return true;
        }
    return false;
}


/* --- categories -------------------------------------------------------------------- */

/* A category to order by name (qsort has no context argument, and a
 * static one would not let two traces be built at once). */
struct cat_key {
    const char *name;
    struct cat_color cc;
};

static int by_cat_name(const void *x, const void *y)
{
    const struct cat_key *a = x, *b = y;
    return strcmp(a->name, b->name);
}

/* Sorts the categories by name; false when out of memory. */
static bool sort_by_name(const struct chrome *c, struct cat_color *v, size_t n)
{
    if (n < 2)
        return true;
    struct cat_key *k = malloc(n * sizeof *k);
    if (!k)
        return false;
    for (size_t i = 0; i < n; i++)
        k[i] = (struct cat_key){tf_strtab_str(&c->strs, v[i].cat), v[i]};
    qsort(k, n, sizeof *k, by_cat_name);
    for (size_t i = 0; i < n; i++)
        v[i] = k[i].cc;
    free(k);
    return true;
}

/* --- one colour, one class ------------------------------------------------------- */

/* The greys of the classes that gather the rest: categories past the
 * palette, and the CPU lanes' processes past the legend's.  Neither is a
 * category's colour (those greys are 0xDDDDDD). */
#define OTHER_CATS_COLOR 0x999999u
#define OTHER_PROCS_COLOR 0xBBBBBBu

/* Whether two colours are too alike to tell two classes apart: their
 * channels differ by 0x20 at most in all (Tol's muted 0x44AA99 and light
 * 0x44BB99; not sand 0xDDCC77 and light yellow 0xEEDD88, 0x33 apart). */
bool tf_chrome_alike(uint32_t a, uint32_t b)
{
    int sum = 0;
    for (int s = 0; s < 24; s += 8) {
        int d = (int)((a >> s) & 0xFF) - (int)((b >> s) & 0xFF);
        sum += d < 0 ? -d : d;
    }
    return sum <= 0x20;
}

static bool taken(const uint32_t *held, size_t n_held, uint32_t rgb)
{
    for (size_t k = 0; k < n_held; k++)
        if (tf_chrome_alike(held[k], rgb))
            return true;
    return false;
}

struct cc_order {
    size_t i;
    int64_t ns;
    size_t rank; /* a process's place by CPU time */
    const char *name;
};

/* Most drawn time first (processes: most CPU time), then by name. */
static int by_drawn(const void *x, const void *y)
{
    const struct cc_order *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Gives each class of the plan its own colour, or sends it to a grey
 * class (color_categories says how); false when out of memory. */
static bool unique_colors(const struct chrome *c, struct color_plan *plan)
{
    size_t n = plan->n_cc;
    struct cc_order *ord = malloc((n ? n : 1) * sizeof *ord);
    uint32_t *held = malloc((n ? n : 1) * sizeof *held);
    if (!ord || !held) {
        free(ord);
        free(held);
        return false;
    }
    size_t n_held = 0;
    for (int cpu = 0; cpu < 2; cpu++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            struct cat_color *cc = &plan->cc[i];
            if ((cc->sub == CC_CPU) != (cpu == 1))
                continue;
            int64_t ns = cc->ns;
            size_t rank = cpu ? tf_chrome_cpu_rank(c, cc->cat, &ns) : 0;
            ord[m++] = (struct cc_order){i, cpu ? ns : cc->ns, rank,
                                         tf_strtab_str(&c->strs, cc->cat)};
        }
        if (m > 1)
            qsort(ord, m, sizeof *ord, by_drawn);
        size_t n_procs = 0;
        for (size_t k = 0; k < m; k++) {
            struct cat_color *cc = &plan->cc[ord[k].i];
            const uint32_t *fallback = cpu ? name_colors : tf_chrome_spare_colors;
            size_t n_fallback = cpu ? NAME_COLORS : 8;
            if (cpu && (n_procs >= TF_CHROME_LEGEND_PROCS || ord[k].rank == SIZE_MAX))
                cc->rgb = TF_CHROME_NO_COLOR; /* (SIZE_MAX: no CPU time in the window) */
            else if (cc->rgb != TF_CHROME_NO_COLOR && taken(held, n_held, cc->rgb))
                cc->rgb = TF_CHROME_NO_COLOR;
            for (size_t q = 0; cc->rgb == TF_CHROME_NO_COLOR && q < n_fallback; q++)
                if (!taken(held, n_held, fallback[q]) &&
                    !(cpu && (n_procs >= TF_CHROME_LEGEND_PROCS || ord[k].rank == SIZE_MAX)))
                    cc->rgb = fallback[q];
            if (cc->rgb == TF_CHROME_NO_COLOR) {
                cc->rgb = cpu ? OTHER_PROCS_COLOR : OTHER_CATS_COLOR;
                cc->kind = cpu ? CC_OTHER_PROCS : CC_OTHER;
                plan->n_other += !cpu;
                continue;
            }
            held[n_held++] = cc->rgb;
            n_procs += cpu;
        }
    }
    free(ord);
    free(held);
    return true;
}

/* Whether a part (name, category) is an NCCL kernel: communication as
 * the GPU breakdown counts it (rules/kernels.h), a class of its own. */
static bool is_nccl(const struct chrome *c, uint32_t name, uint32_t cat)
{
    return strcmp(tf_chrome_canon_cat(tf_strtab_str(&c->strs, cat)), "kernel") == 0 &&
           tf_kernel_is_comm(tf_strtab_str(&c->strs, name));
}

/* Whether a class of a CPU lane is a process (a thread's run, "sched",
 * drawn in its process's class: system.c), not a category of its own
 * there (a kernel trace's irq and syscall rows, a range of lost events),
 * which keeps its category's colour. */
static bool cpu_class(const struct chrome *c, uint32_t cat)
{
    return cat != c->lost_cat && cat < c->n_cpu_of_str && c->cpu_of_str[cat];
}

/* The categories' colours.  Each category drawn (a class) prefers its
 * colour: the palette's for known ones; the others, sorted by name, each
 * its hash's slot of the spare colours or the next free one.  Then, in
 * order of drawn time (most first), each takes its preference while no
 * bigger class holds that colour, else the first spare colour no class
 * holds, else it is drawn in the grey of "other": in one figure a colour
 * means one class.  A system trace's CPU lanes are coloured by process
 * (system.c): the processes of the most CPU time, at most
 * TF_CHROME_LEGEND_PROCS, each in a colour no other class holds, the
 * others in the grey of "other processes". */
static bool color_categories(struct chrome *c, const size_t *pick, size_t n_pick,
                             struct color_plan *plan)
{
    struct cat_color *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < n_pick; i++) {
        const struct lane *ln = &c->lanes[pick[i]];
        bool cpu_lane = tf_chrome_cpu_lane(c, pick[i]);
        for (size_t k = 0; k < ln->n_bars; k++) {
            struct part parts[TF_SHARES_MAX];
            size_t np = tf_chrome_bar_parts(ln, &ln->bars[k], parts);
            for (size_t q = 0; q < np; q++) {
                uint32_t cat = parts[q].cat;
                unsigned char sub = cpu_lane && cpu_class(c, cat)        ? CC_CPU
                                    : is_nccl(c, parts[q].name, cat)      ? CC_NCCL
                                                                           : CC_PLAIN;
                size_t j = 0;
                while (j < n && !(v[j].cat == cat && v[j].sub == sub))
                    j++;
                if (j == n) {
                    if (!TF_GROW(v, n, cap)) {
                        free(v);
                        return false;
                    }
                    v[n++] = (struct cat_color){cat, TF_CHROME_NO_COLOR, 0, sub, CC_OWN};
                }
                v[j].ns = tf_add_sat(v[j].ns, parts[q].ns);
            }
        }
    }
    for (size_t i = 0; i < c->n_marks_in; i++) {
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = v[j].cat == c->marks[i].cat && v[j].sub == CC_PLAIN;
        if (seen)
            continue;
        if (!TF_GROW(v, n, cap)) {
            free(v);
            return false;
        }
        v[n++] = (struct cat_color){c->marks[i].cat, TF_CHROME_NO_COLOR, 0, CC_PLAIN, CC_OWN};
    }
    if (!sort_by_name(c, v, n)) {
        free(v);
        return false;
    }
    /* Preferences, as a figure of few categories always had them. */
    bool used[8] = {false};
    size_t n_used = 0;
    for (size_t i = 0; i < n; i++) {
        const char *cat = tf_strtab_str(&c->strs, v[i].cat);
        if (v[i].sub == CC_NCCL)
            v[i].rgb = TF_CHROME_NCCL_COLOR;
        if (v[i].sub != CC_PLAIN || tf_chrome_known_color(cat, &v[i].rgb))
            continue;
        size_t slot = tf_fnv1a(cat, strlen(cat)) % 8;
        for (size_t k = 0; k < 8 && n_used < 8 && used[slot]; k++)
            slot = (slot + 1) % 8;
        if (used[slot])
            continue; /* every spare colour is preferred already */
        n_used++;
        used[slot] = true;
        v[i].rgb = tf_chrome_spare_colors[slot];
    }
    plan->cc = v;
    plan->n_cc = n;
    return unique_colors(c, plan);
}

/* --- colour by name ------------------------------------------------------------------ */

/* A name's colour class: its short name with each run of digits that no
 * letter precedes written "*" ("ProfilerStep#3" and "ProfilerStep#4" are
 * "ProfilerStep#*", "layer.3.mlp" is "layer.*.mlp"; "conv2d" stays), into
 * out. */
static void class_name(const char *name, char *out, size_t n)
{
    char shortn[128];
    tf_chrome_short_name(name, shortn, sizeof shortn);
    size_t k = 0;
    for (size_t i = 0; shortn[i] && k + 1 < n;) {
        unsigned char prev = i ? (unsigned char)shortn[i - 1] : ' ';
        bool letter = (prev >= 'A' && prev <= 'Z') || (prev >= 'a' && prev <= 'z');
        if (shortn[i] >= '0' && shortn[i] <= '9' && !letter) {
            while (shortn[i] >= '0' && shortn[i] <= '9')
                i++;
            out[k++] = '*';
            continue;
        }
        out[k++] = shortn[i++];
    }
    out[k] = '\0';
}

/* The colour class of a bar's name, into out. */
static void bar_name(const struct chrome *c, const struct obar *ob, char *out, size_t n)
{
    class_name(tf_strtab_str(&c->strs, ob->name), out, n);
}

static size_t name_slot(const char *shortn)
{
    return tf_fnv1a(shortn, strlen(shortn)) % NAME_COLORS;
}

struct name_time {
    uint32_t id; /* in the plan's names */
    int64_t ns;
    const char *name; /* set before sorting (no static context for qsort) */
};

/* Most time first; ties by name, so the order never depends on the input's. */
static int by_time(const void *x, const void *y)
{
    const struct name_time *a = x, *b = y;
    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Whether the events drawn (slices, instants, marks) carry one category
 * or none (ranges of lost events, TF_LOST_CAT, aside). */
static bool one_category(const struct chrome *c, const size_t *pick, size_t n_pick)
{
    uint32_t first = UINT32_MAX;
    for (size_t i = 0; i < n_pick; i++) {
        const struct lane *ln = &c->lanes[pick[i]];
        for (size_t k = 0; k < ln->n_bars; k++) {
            struct part parts[TF_SHARES_MAX];
            size_t np = tf_chrome_bar_parts(ln, &ln->bars[k], parts);
            for (size_t q = 0; q < np; q++) {
                if (parts[q].cat == c->lost_cat)
                    continue;
                if (first != UINT32_MAX && parts[q].cat != first)
                    return false;
                first = parts[q].cat;
            }
        }
    }
    for (size_t i = 0; i < c->n_marks_in; i++) {
        if (first != UINT32_MAX && c->marks[i].cat != first)
            return false;
        first = c->marks[i].cat;
    }
    return true;
}

/* The names drawn, their time (the area they cover: the busy time of each
 * bar), which are listed in the legend, and whether there is one. */
static bool color_names(struct chrome *c, const size_t *pick, size_t n_pick,
                        struct color_plan *plan)
{
    struct name_time *v = NULL;
    size_t n = 0, cap = 0;
    int64_t total = 0;
    char shortn[128];
    bool ok = true;
    for (size_t i = 0; ok && i < n_pick; i++) {
        const struct lane *ln = &c->lanes[pick[i]];
        for (size_t k = 0; ok && k < ln->n_bars; k++) {
            struct part parts[TF_SHARES_MAX];
            size_t np = tf_chrome_bar_parts(ln, &ln->bars[k], parts);
            for (size_t q = 0; ok && q < np; q++) {
                class_name(tf_strtab_str(&c->strs, parts[q].name), shortn, sizeof shortn);
                uint32_t id;
                if (!tf_strtab_id(&plan->names, shortn, &id)) {
                    ok = false;
                    break;
                }
                while (ok && n <= id) {
                    ok = TF_GROW(v, n, cap);
                    if (ok)
                        v[n] = (struct name_time){(uint32_t)n, 0, NULL}, n++;
                }
                if (ok) {
                    v[id].ns = tf_add_sat(v[id].ns, parts[q].ns);
                    total = tf_add_sat(total, parts[q].ns);
                }
            }
        }
    }
    /* The marks' names too (no time of their own). */
    for (size_t i = 0; ok && i < c->n_marks_in; i++) {
        class_name(tf_strtab_str(&c->strs, c->marks[i].name), shortn, sizeof shortn);
        uint32_t id;
        ok = tf_strtab_id(&plan->names, shortn, &id);
        while (ok && n <= id) {
            ok = TF_GROW(v, n, cap);
            if (ok)
                v[n] = (struct name_time){(uint32_t)n, 0, NULL}, n++;
        }
    }
    if (!ok) {
        free(v);
        return false;
    }
    plan->n_names = n;
    for (size_t i = 0; i < n; i++)
        v[i].name = tf_strtab_str(&plan->names, v[i].id);
    if (n > 1)
        qsort(v, n, sizeof *v, by_time);
    /* The largest first, each in the next colour of the palette: no two
     * share one, and no big name loses its colour to a smaller one. */
    int64_t covered = 0;
    for (size_t i = 0; i < n && plan->n_listed < LEGEND_NAMES; i++) {
        plan->listed[plan->n_listed] = v[i].id;
        plan->listed_slot[plan->n_listed] = plan->n_listed;
        plan->n_listed++;
        covered = tf_add_sat(covered, v[i].ns);
    }
    plan->covered = total > 0 ? (double)covered / (double)total : 1.0;
    plan->legend = plan->covered >= LEGEND_COVER;
    free(v);
    return true;
}

struct cat_memo {
    struct tf_strtab keys; /* category keys, by id */
    size_t *ci;            /* the figure category of each */
    size_t n, cap;
};

bool tf_chrome_color_plan(struct chrome *c, const struct tf_opts *o, const size_t *pick,
                          size_t n_pick, struct color_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    tf_strtab_init(&plan->names);
    if (!(plan->memo = calloc(1, sizeof *plan->memo)))
        return false;
    tf_strtab_init(&plan->memo->keys);
    if (!color_categories(c, pick, n_pick, plan))
        return false;
    plan->by_name = o->color_by == TF_COLOR_BY_NAME ||
                    (o->color_by == TF_COLOR_BY_AUTO && one_category(c, pick, n_pick));
    return !plan->by_name || color_names(c, pick, n_pick, plan);
}

void tf_chrome_color_plan_fini(struct color_plan *plan)
{
    free(plan->cc);
    tf_strtab_fini(&plan->names);
    if (plan->memo) {
        tf_strtab_fini(&plan->memo->keys);
        free(plan->memo->ci);
        free(plan->memo);
    }
    plan->memo = NULL;
}

/* The figure category keyed key (made with colour rgb when new), found
 * through the plan's memo; (size_t)-1 when out of memory. */
static size_t memo_category(const struct color_plan *plan, struct tf_figure *f, const char *key,
                            uint32_t rgb)
{
    struct cat_memo *m = plan->memo;
    uint32_t id;
    if (!m || !tf_strtab_id(&m->keys, key, &id))
        return (size_t)-1;
    if (id < m->n)
        return m->ci[id];
    size_t ci = tf_figure_category(f, key, rgb);
    if (ci == (size_t)-1 || !TF_GROW(m->ci, m->n, m->cap))
        return (size_t)-1;
    m->ci[m->n++] = ci;
    return ci;
}

/* The listed index of a name, or SIZE_MAX. */
static size_t listed_index(const struct color_plan *plan, const char *shortn)
{
    for (size_t k = 0; k < plan->n_listed; k++)
        if (strcmp(tf_strtab_str(&plan->names, plan->listed[k]), shortn) == 0)
            return k;
    return SIZE_MAX;
}

/* A bar's figure category when colouring by name: its class for its own
 * category (which the model keeps as the category's name).  The class is
 * a listed name (in its palette slot), "other" (grey), or without a
 * legend the name itself, in its hash colour: its own class, never that
 * of the names its colour is shared with. */
static size_t name_category(const struct chrome *c, const struct color_plan *plan,
                            struct tf_figure *f, const struct obar *ob, const char **kind)
{
    char shortn[128];
    const char *cat = tf_strtab_str(&c->strs, ob->cat);
    size_t slot = SIZE_MAX, li = SIZE_MAX;
    if (!ob->mixed) {
        bar_name(c, ob, shortn, sizeof shortn);
        slot = name_slot(shortn);
        li = listed_index(plan, shortn);
        if (li != SIZE_MAX)
            slot = plan->listed_slot[li];
        else if (plan->legend)
            slot = SIZE_MAX;
    }
    bool own = slot != SIZE_MAX && li == SIZE_MAX; /* a class of its own, unlisted */
    struct tf_buf key; /* the whole category in it, as in colour by category */
    tf_buf_init(&key);
    tf_buf_puts(&key, "name/");
    if (slot == SIZE_MAX)
        tf_buf_puts(&key, "other");
    else if (own)
        tf_buf_printf(&key, "own/%zu/%s", slot, shortn);
    else
        tf_buf_uint(&key, slot);
    tf_buf_putc(&key, '/');
    tf_buf_puts(&key, *cat ? cat : "none");
    size_t ci = key.oom ? (size_t)-1
                        : memo_category(plan, f, key.data,
                                        slot == SIZE_MAX ? OTHER_COLOR : name_colors[slot]);
    tf_buf_fini(&key);
    if (ci == (size_t)-1)
        return SIZE_MAX;
    if (!f->cats[ci].name) {
        const char *label = slot == SIZE_MAX ? "other" : shortn;
        f->cats[ci].name = tf_figure_str(f, cat);
        if (!f->cats[ci].name || (label && !(f->cats[ci].label = tf_figure_str(f, label))))
            return SIZE_MAX;
    }
    /* A dense span of one name is named by it; of several, by "other". */
    *kind = f->cats[ci].label ? f->cats[ci].label : "other";
    if (slot != SIZE_MAX && !ob->mixed && !(*kind = tf_figure_str(f, shortn)))
        return SIZE_MAX;
    return ci;
}

size_t tf_chrome_bar_category(const struct chrome *c, const struct tf_opts *o,
                              struct tf_figure *f, const struct obar *ob,
                              const struct color_plan *plan, uint32_t *rgb, uint32_t *label_rgb,
                              const char **kind_out)
{
    const char *name = tf_strtab_str(&c->strs, ob->name);
    const char *cat = tf_strtab_str(&c->strs, ob->cat);
    size_t ci;
    if (plan->by_name) {
        ci = name_category(c, plan, f, ob, kind_out);
        if (ci == SIZE_MAX)
            return SIZE_MAX;
    } else {
        /* The bar's class in the plan: a CPU lane's process, an NCCL
         * kernel, or its category. */
        const struct cat_color *cc = NULL;
        bool nccl = is_nccl(c, ob->name, ob->cat);
        for (size_t i = 0; i < plan->n_cc && !cc; i++)
            if (plan->cc[i].cat == ob->cat &&
                (plan->cc[i].sub == CC_CPU || (plan->cc[i].sub == CC_NCCL) == nccl))
                cc = &plan->cc[i];
        unsigned char sub = cc ? cc->sub : nccl ? CC_NCCL : CC_PLAIN;
        unsigned char gather = cc ? cc->kind : CC_OWN; /* own colour, or a grey's */
        uint32_t cat_rgb = cc ? cc->rgb : nccl ? TF_CHROME_NCCL_COLOR : 0;
        if (ob->cat == c->lost_cat)
            cat_rgb = TF_LOST_COLOR; /* the legend as the ranges are drawn */
        struct tf_buf key, label; /* the legend's label: cut when long */
        tf_buf_init(&key);
        tf_buf_init(&label);
        /* The whole category in the key: a cut one would merge categories
         * that share a long prefix. */
        if (gather == CC_OTHER) {
            tf_buf_puts(&key, "cat-other");
            tf_buf_puts(&label, "other");
        } else if (gather == CC_OTHER_PROCS) {
            tf_buf_puts(&key, "cpu-other");
            tf_buf_puts(&label, "other processes");
        } else if (sub == CC_NCCL) {
            tf_buf_puts(&key, "cat/kernel/nccl");
            tf_buf_puts(&label, "NCCL kernel");
        } else {
            tf_buf_puts(&key, sub == CC_CPU ? "cpu/" : "cat/");
            tf_buf_puts(&key, *cat ? cat : "none");
            tf_buf_puts(&label, *cat ? cat : "(no category)");
        }
        tf_chrome_cap(&label, 0, TF_CHROME_LABEL_MAX);
        ci = key.oom ? (size_t)-1 : tf_figure_category(f, key.data, cat_rgb);
        tf_buf_fini(&key);
        if (ci != (size_t)-1 && !f->cats[ci].name) {
            f->cats[ci].name = gather == CC_OWN ? tf_figure_str(f, cat) : tf_figure_buf(f, &label);
            f->cats[ci].label = tf_figure_buf(f, &label);
            if (!f->cats[ci].name || !f->cats[ci].label)
                ci = (size_t)-1;
        }
        /* A bar of a grey class still says its own category. */
        if (ci != (size_t)-1 && gather != CC_OWN) {
            tf_buf_clear(&label);
            tf_buf_puts(&label, *cat ? cat : "(no category)");
            tf_chrome_cap(&label, 0, TF_CHROME_LABEL_MAX);
            *kind_out = tf_figure_buf(f, &label);
        } else if (ci != (size_t)-1) {
            *kind_out = f->cats[ci].label;
        }
        tf_buf_fini(&label);
        if (ci == (size_t)-1 || !*kind_out)
            return SIZE_MAX;
    }
    uint32_t bar_rgb = f->cats[ci].color, rule;
    if (rule_color(o, name, cat, &rule))
        bar_rgb = rule;
    else if (ob->color != TF_CHROME_NO_COLOR)
        bar_rgb = ob->color;
    *rgb = bar_rgb;
    *label_rgb = tf_color_text_on(bar_rgb);
    return ci;
}

/* Whether category i of f is keyed `prefix` (a prefix ending in '/', or a
 * whole key). */
static bool keyed(const struct tf_figure *f, size_t i, const char *prefix)
{
    size_t n = strlen(prefix);
    return prefix[n - 1] == '/' ? strncmp(f->cats[i].key, prefix, n) == 0
                                : strcmp(f->cats[i].key, prefix) == 0;
}

/* The classes a grey class (kind) gathers, most drawn time first, one a
 * line, into out; their count.  SIZE_MAX when out of memory. */
static size_t gathered(const struct chrome *c, const struct color_plan *plan,
                       unsigned char kind, struct tf_buf *out)
{
    struct cc_order *v = malloc((plan->n_cc ? plan->n_cc : 1) * sizeof *v);
    if (!v)
        return SIZE_MAX;
    size_t n = 0;
    for (size_t i = 0; i < plan->n_cc; i++)
        if (plan->cc[i].kind == kind)
            v[n++] = (struct cc_order){i, plan->cc[i].ns, 0,
                                       tf_strtab_str(&c->strs, plan->cc[i].cat)};
    if (n > 1)
        qsort(v, n, sizeof *v, by_drawn);
    for (size_t k = 0; k < n; k++) {
        if (k)
            tf_buf_putc(out, '\n');
        size_t at = out->len;
        tf_buf_puts(out, *v[k].name ? v[k].name : "(no category)");
        tf_chrome_cap(out, at, TF_CHROME_LABEL_MAX);
    }
    free(v);
    return out->oom ? SIZE_MAX : n;
}

/* The legend of a figure coloured by category: the categories in the
 * order first drawn, the grey "other" and what it holds, then the CPU
 * lanes' processes by CPU time with it, and "other processes"; the notes
 * that say what the greys hold.  False when out of memory. */
static bool category_legend(const struct chrome *c, const struct color_plan *plan,
                            struct tf_figure *f)
{
    char note[240];
    /* never "(no category)" alone, which would say nothing */
    if (f->n_cats == 1 && strcmp(f->cats[0].label ? f->cats[0].label : "", "(no category)") == 0)
        return tf_figure_add_note(f, "legend left out: the slices drawn carry no category "
                                     "(--color-by name colours them by name)");
    for (size_t i = 0; i < f->n_cats; i++)
        if (!keyed(f, i, "cpu/") && !keyed(f, i, "cpu-other") && !keyed(f, i, "cat-other") &&
            !tf_figure_add_legend(f, f->cats[i].label ? f->cats[i].label : f->cats[i].key, i))
            return false;
    struct tf_buf held;
    tf_buf_init(&held);
    bool ok = true;
    for (size_t i = 0; ok && i < f->n_cats; i++)
        if (keyed(f, i, "cat-other")) {
            size_t n = gathered(c, plan, CC_OTHER, &held);
            ok = n != SIZE_MAX && tf_figure_add_legend(f, f->cats[i].label, i) &&
                 (f->legend[f->n_legend - 1].holds = tf_figure_buf(f, &held)) != NULL;
            snprintf(note, sizeof note,
                     "%zu classes drawn, more than the palette's colours: the %zu with the "
                     "least drawn time are grey, \"other\" (its tooltip lists them)",
                     plan->n_cc, n);
            ok = ok && tf_figure_add_note(f, note);
        }
    /* The processes by CPU time: as --stats lists them (cpu_processes). */
    size_t n_procs = 0;
    struct cc_order *v = malloc((plan->n_cc ? plan->n_cc : 1) * sizeof *v);
    size_t nv = 0;
    ok = ok && v;
    for (size_t i = 0; ok && i < plan->n_cc; i++)
        if (plan->cc[i].sub == CC_CPU && plan->cc[i].kind == CC_OWN) {
            int64_t ns = 0;
            size_t rank = tf_chrome_cpu_rank(c, plan->cc[i].cat, &ns);
            v[nv++] = (struct cc_order){i, ns, rank, tf_strtab_str(&c->strs, plan->cc[i].cat)};
        }
    if (ok && nv > 1)
        qsort(v, nv, sizeof *v, by_drawn);
    for (size_t k = 0; ok && k < nv; k++) {
        tf_buf_clear(&held);
        tf_buf_puts(&held, "cpu/");
        tf_buf_puts(&held, *v[k].name ? v[k].name : "none");
        for (size_t i = 0; ok && i < f->n_cats; i++)
            if (!held.oom && strcmp(f->cats[i].key, held.data) == 0) {
                ok = tf_figure_add_legend(f, f->cats[i].label, i);
                if (ok) {
                    f->legend[f->n_legend - 1].has_cpu = true;
                    f->legend[f->n_legend - 1].cpu_ms = (double)v[k].ns / 1e6;
                    n_procs++;
                }
                break;
            }
        ok = ok && !held.oom;
    }
    free(v);
    for (size_t i = 0; ok && i < f->n_cats; i++)
        if (keyed(f, i, "cpu-other")) {
            tf_buf_clear(&held);
            size_t n = gathered(c, plan, CC_OTHER_PROCS, &held);
            ok = n != SIZE_MAX && tf_figure_add_legend(f, f->cats[i].label, i) &&
                 (f->legend[f->n_legend - 1].holds = tf_figure_buf(f, &held)) != NULL;
            snprintf(note, sizeof note,
                     "CPU lanes coloured by process: the %zu of the most CPU time each in its "
                     "own colour, %zu more grey, \"other processes\"",
                     n_procs, n);
            ok = ok && tf_figure_add_note(f, note);
        }
    tf_buf_fini(&held);
    return ok;
}

bool tf_chrome_color_legend(const struct chrome *c, const struct color_plan *plan,
                            struct tf_figure *f)
{
    char note[240];
    if (!plan->by_name)
        return category_legend(c, plan, f);
    if (!tf_figure_add_prop(f, "color_by", "name", false))
        return false;
    if (!plan->legend) {
        snprintf(note, sizeof note,
                 "slices coloured by name; legend left out: %zu names, the %zu largest cover "
                 "%.0f %% of the time drawn (tooltips name every slice)",
                 plan->n_names, plan->n_listed, 100.0 * plan->covered);
        return tf_figure_add_note(f, note);
    }
    /* The names listed, largest first, then "other" when drawn: one entry
     * each, whatever categories their slices have. */
    char key[32];
    for (size_t k = 0; k <= plan->n_listed; k++) {
        if (k < plan->n_listed)
            snprintf(key, sizeof key, "name/%zu/", plan->listed_slot[k]);
        else
            snprintf(key, sizeof key, "name/other/");
        for (size_t i = 0; i < f->n_cats; i++)
            if (strncmp(f->cats[i].key, key, strlen(key)) == 0 && f->cats[i].label) {
                if (!tf_figure_add_legend(f, f->cats[i].label, i))
                    return false;
                break;
            }
    }
    return true;
}
