/* ctf_lib.c - what every part of the CTF loader takes from below it:
 * libbabeltrace2, loaded when first needed (its function table tf_ctf_bt
 * and its ctf plugin, found once), and the string table of a read.
 * ctf.c (the graph), ctf_msg.c (a stream's messages) and ctf_conv.c (the
 * records) call down to it, and it calls none of them.
 */
#include "load/ctf_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t tf_ctf_str(struct ctf *x, const char *s)
{
    uint32_t id = 0;
    if (s && *s && !tf_strtab_id(&x->strs, s, &id))
        return 0;
    return id;
}

#ifdef TF_HAVE_BT2

#include <pthread.h>

#include "load/ctf_bt.h"

/* --- the library ----------------------------------------------------------------- */

TF_BT_FUNCS(TF_DL_CHECK)
struct tf_ctf_bt_api tf_ctf_bt;

static pthread_once_t bt_once = PTHREAD_ONCE_INIT;
static struct tf_diag bt_outcome;

#define TF_DL_API struct tf_ctf_bt_api
static const struct tf_dl_sym bt_syms[] = {TF_BT_FUNCS(TF_DL_SYM)};
#undef TF_DL_API
static const struct tf_dl_lib bt_lib = {"libbabeltrace2.so.0", "libbabeltrace2-0"};

/* The ctf plugin, found once and kept (as the libraries are): its code
 * stays mapped for the process's life. */
static const bt_plugin *bt_plugin_ctf;

static void bt_load_once(void)
{
    tf_diag_init(&bt_outcome);
    /* the metadata parser's errors name the line (ctf.c, metadata_line):
     * its log level is read when the plugin loads */
    setenv("BABELTRACE_PLUGIN_CTF_METADATA_LOG_LEVEL", "E", 0);
    if (!tf_dl_load("Reading a CTF trace (LTTng, perf)", &bt_lib, 1, bt_syms,
                    sizeof bt_syms / sizeof bt_syms[0], &tf_ctf_bt, sizeof tf_ctf_bt,
                    &bt_outcome))
        return;
    if (tf_ctf_bt.bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
                                 &bt_plugin_ctf) != BT_PLUGIN_FIND_STATUS_OK ||
        !bt_plugin_ctf) {
        tf_ctf_bt.bt_current_thread_clear_error();
        bt_plugin_ctf = NULL;
        tf_diag_error(&bt_outcome, TF_EIO,
                      "reading a CTF trace needs babeltrace2's ctf plugin, which cannot be "
                      "found (install Debian's libbabeltrace2-0)");
    }
}

const bt_plugin *tf_ctf_lib_load(struct tf_diag *d)
{
    pthread_once(&bt_once, bt_load_once);
    return tf_dl_outcome(&bt_outcome, d) ? bt_plugin_ctf : NULL;
}

#endif
