/* pytorch.h - the legacy PyTorch mode (the reference's plot_pytorch_trace):
 * its entry is tf_mode_pytorch in mode.h. */
#ifndef TF_RULES_PYTORCH_H
#define TF_RULES_PYTORCH_H

#include "rules/mode.h"

#endif
