/* mode.c - the mode table; see mode.h. */
#include "rules/mode.h"

#include <string.h>

/* For Chrome traces the legacy PyTorch mode comes first: it claims the
 * traces that hold its Candidate_Eval_N window event, the generic mode
 * takes every other. */
const struct tf_mode *const tf_modes[] = {&tf_mode_timeline, &tf_mode_pytorch, &tf_mode_chrome,
                                          NULL};

const struct tf_mode *tf_mode_by_name(const char *name)
{
    for (size_t i = 0; tf_modes[i]; i++)
        if (strcmp(tf_modes[i]->name, name) == 0)
            return tf_modes[i];
    return NULL;
}

const struct tf_mode *tf_mode_for_kind(enum tf_trace_kind kind)
{
    for (size_t i = 0; tf_modes[i]; i++)
        if (tf_modes[i]->kind == kind)
            return tf_modes[i];
    return NULL;
}
