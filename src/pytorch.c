/* pytorch.c - placeholder until the legacy-trace rules land. */
#include "figure.h"

bool tf_pytorch_figure(const struct tf_pytorch *p, const struct tf_rules_opts *o,
                       struct tf_figure *out, struct tf_diag *d)
{
    (void)p, (void)o, (void)out;
    return tf_diag_error(d, TF_EBADINPUT, "PyTorch traces are not supported yet");
}
