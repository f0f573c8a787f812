/* load_chrome.c - legacy PyTorch Chrome traces (traceEvents). */
#include "load_internal.h"

bool tf_load_chrome(FILE *f, const char *path, const struct tf_load_opts *opts,
                    struct tf_pytorch *out, struct tf_diag *d)
{
    (void)f;
    (void)opts;
    (void)out;
    return tf_diag_error(d, TF_EBADINPUT, "%s: PyTorch Chrome traces are not supported yet",
                         tf_diag_name(path));
}
