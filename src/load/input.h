/* input.h - opening the files tracefig reads. */
#ifndef TF_INPUT_H
#define TF_INPUT_H

#include <stdio.h>

#include "base/diag.h"

/* Opens `path` ("-": stdin) for reading; reports a missing file, a
 * directory or an unreadable file.  NULL on failure. */
FILE *tf_open_input(const char *path, struct tf_diag *d);
void tf_close_input(FILE *f);

#endif
