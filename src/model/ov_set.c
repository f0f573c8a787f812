/* ov_set.c - freeing what a figure holds of a job's overview before its
 * rows are made; see ov_set.h.
 */
#include "model/ov_set.h"

#include <stdlib.h>
#include <string.h>

void tf_ov_strip_fini(struct tf_ov_strip *s)
{
    free(s->q);
    memset(s, 0, sizeof *s);
}

void tf_ov_set_free(struct tf_ov_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        tf_ov_strip_fini(&s->strips[i]);
    free(s->strips);
    free(s->m);
    free(s);
}
