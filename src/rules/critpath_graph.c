/* critpath_graph.c - the critical path's graph and its longest path, with
 * the choices networkx makes (rules/critpath.h): nodes are ordered by
 * their first edge, a node's predecessors and successors by the order
 * their edges were added; the topological order is Kahn's, one generation
 * of nodes without predecessors after another; each node takes the first
 * predecessor of greatest distance, and a negative distance restarts the
 * path at the node; the path ends at the first node of greatest distance.
 */
#include "rules/critpath.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

#define NONE UINT32_MAX

bool tf_cpg_init(struct tf_cpg *g, size_t n)
{
    memset(g, 0, sizeof *g);
    g->n_nodes = n;
    size_t k = n ? n : 1;
    g->first_in = malloc(k * sizeof *g->first_in);
    g->last_in = malloc(k * sizeof *g->last_in);
    g->first_out = malloc(k * sizeof *g->first_out);
    g->last_out = malloc(k * sizeof *g->last_out);
    g->order = malloc(k * sizeof *g->order);
    g->inserted = calloc(k, sizeof *g->inserted);
    if (!g->first_in || !g->last_in || !g->first_out || !g->last_out || !g->order ||
        !g->inserted)
        return false;
    memset(g->first_in, 0xff, k * sizeof *g->first_in);
    memset(g->last_in, 0xff, k * sizeof *g->last_in);
    memset(g->first_out, 0xff, k * sizeof *g->first_out);
    memset(g->last_out, 0xff, k * sizeof *g->last_out);
    return true;
}

void tf_cpg_fini(struct tf_cpg *g)
{
    free(g->first_in);
    free(g->last_in);
    free(g->first_out);
    free(g->last_out);
    free(g->order);
    free(g->inserted);
    free(g->e);
    free(g->path);
    memset(g, 0, sizeof *g);
}

uint32_t tf_cpg_find(const struct tf_cpg *g, uint32_t u, uint32_t v)
{
    for (uint32_t i = g->first_in[v]; i != NONE; i = g->e[i].next_in)
        if (g->e[i].from == u)
            return i;
    return NONE;
}

static void insert_node(struct tf_cpg *g, uint32_t u)
{
    if (!g->inserted[u]) {
        g->inserted[u] = true;
        g->order[g->n_order++] = u;
    }
}

uint32_t tf_cpg_add(struct tf_cpg *g, uint32_t u, uint32_t v, unsigned char type, int64_t weight)
{
    uint32_t i = tf_cpg_find(g, u, v);
    if (i == NONE) {
        if (g->n_e >= NONE - 1 || !TF_GROW(g->e, g->n_e, g->cap_e))
            return NONE;
        i = (uint32_t)g->n_e++;
        g->e[i] = (struct tf_cpg_edge){.from = u, .to = v, .attr = -1,
                                       .next_in = NONE, .next_out = NONE};
        insert_node(g, u);
        insert_node(g, v);
        if (g->last_in[v] == NONE)
            g->first_in[v] = i;
        else
            g->e[g->last_in[v]].next_in = i;
        g->last_in[v] = i;
        if (g->last_out[u] == NONE)
            g->first_out[u] = i;
        else
            g->e[g->last_out[u]].next_out = i;
        g->last_out[u] = i;
    }
    g->e[i].type = type;
    g->e[i].weight = weight;
    g->e[i].w = weight <= -1 ? 0 : weight; /* HTA's lenient negative-weight check */
    return i;
}

bool tf_cpg_longest(struct tf_cpg *g)
{
    size_t n = g->n_order;
    uint32_t *deg = calloc(g->n_nodes ? g->n_nodes : 1, sizeof *deg);
    uint32_t *topo = malloc((n ? n : 1) * sizeof *topo);
    int64_t *dist = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *dist);
    uint32_t *from = malloc((g->n_nodes ? g->n_nodes : 1) * sizeof *from);
    bool ok = deg && topo && dist && from;
    size_t nt = 0;
    if (ok) {
        for (size_t i = 0; i < g->n_e; i++)
            deg[g->e[i].to]++;
        for (size_t i = 0; i < n; i++)
            if (!deg[g->order[i]])
                topo[nt++] = g->order[i];
        /* generations: topo[lo, hi) is one, its children the next */
        for (size_t lo = 0; lo < nt;) {
            size_t hi = nt;
            for (size_t k = lo; k < hi; k++)
                for (uint32_t i = g->first_out[topo[k]]; i != NONE; i = g->e[i].next_out)
                    if (--deg[g->e[i].to] == 0)
                        topo[nt++] = g->e[i].to;
            lo = hi;
        }
        ok = nt == n; /* else a cycle */
    }
    if (ok) {
        size_t best = 0;
        for (size_t k = 0; k < nt; k++) {
            uint32_t v = topo[k];
            int64_t d = 0;
            uint32_t u = v;
            bool any = false;
            for (uint32_t i = g->first_in[v]; i != NONE; i = g->e[i].next_in) {
                int64_t c = dist[g->e[i].from] + g->e[i].w;
                if (!any || c > d) {
                    d = c;
                    u = g->e[i].from;
                    any = true;
                }
            }
            if (d < 0) {
                d = 0;
                u = v;
            }
            dist[v] = d;
            from[v] = u;
            if (dist[v] > dist[topo[best]])
                best = k;
        }
        size_t len = 0;
        if (nt) {
            for (uint32_t v = topo[best];; v = from[v]) {
                len++;
                if (from[v] == v)
                    break;
            }
        }
        free(g->path);
        g->path = malloc((len ? len : 1) * sizeof *g->path);
        ok = g->path != NULL;
        if (ok) {
            g->n_path = len;
            size_t k = len;
            if (nt)
                for (uint32_t v = topo[best];; v = from[v]) {
                    g->path[--k] = v;
                    if (from[v] == v)
                        break;
                }
        }
    }
    free(deg);
    free(topo);
    free(dist);
    free(from);
    return ok;
}
