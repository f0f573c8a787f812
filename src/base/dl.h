/* dl.h - libraries loaded when first needed, not at every start.
 *
 * A back-end whose library is large (cairo and FreeType for PDF/PNG,
 * libxml2 with ICU and libstdc++ for SVG) would otherwise make every run
 * pay for loading and relocating it, --version and JSON included.  Such a
 * back-end lists the functions it calls as an X-macro,
 *
 *     #define MY_FUNCS(X) X(LIB_INDEX, return type, name, (parameter types)) ...
 *
 * and expands it with the macros below into pointer types (checked against
 * the header's own prototype at compile time), a struct of pointers, and a
 * table for tf_dl_load(), which dlopen()s the libraries by soname and
 * fills the struct.  Calls then go through the struct: api.name(...).
 */
#ifndef TF_DL_H
#define TF_DL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

/* One pointer type per function: tf_dl_NAME_fn. */
#define TF_DL_TYPEDEF(LIB, RET, NAME, PARAMS) typedef RET (*tf_dl_##NAME##_fn) PARAMS;

/* The header's declaration of NAME must be compatible with tf_dl_NAME_fn
 * (neither operand is evaluated, so nothing refers to the real symbol and
 * the library need not be linked), and dlsym's void * must fit it. */
#define TF_DL_CHECK(LIB, RET, NAME, PARAMS)                                                     \
    _Static_assert(_Generic(&NAME, tf_dl_##NAME##_fn: 1, default: 0),                           \
                   #NAME ": the prototype in the function list differs from the header's");     \
    _Static_assert(sizeof(tf_dl_##NAME##_fn) == sizeof(void *), #NAME ": pointer size");

/* A member of the struct of pointers. */
#define TF_DL_MEMBER(LIB, RET, NAME, PARAMS) tf_dl_##NAME##_fn NAME;

/* An entry of the symbol table; TF_DL_API names the struct of pointers. */
#define TF_DL_SYM(LIB, RET, NAME, PARAMS) {LIB, #NAME, offsetof(TF_DL_API, NAME)},

struct tf_dl_lib {
    const char *soname;  /* "libcairo.so.2" */
    const char *package; /* the Debian package that has it, for messages */
};

struct tf_dl_sym {
    int lib;       /* index into the libraries */
    const char *name;
    size_t offset; /* of its pointer in the struct */
};

/* Opens libs[0 .. n_libs) in order and looks up every symbol into the
 * struct at api (api_size bytes); each library's symbols before the next
 * library is opened, so a missing dependency is named as itself.  On
 * failure: an error in d (exit 3, "WHAT needs LIB ... install Debian's
 * PACKAGE"), the struct untouched, the libraries closed.  Libraries that
 * loaded are never closed (their state may outlive any one render). */
bool tf_dl_load(const char *what, const struct tf_dl_lib *libs, int n_libs,
                const struct tf_dl_sym *syms, size_t n_syms, void *api, size_t api_size,
                struct tf_diag *d);

/* The outcome of a load made once per process (under pthread_once, into
 * the diag `once`) for a caller's d: true, or false with the same error. */
bool tf_dl_outcome(const struct tf_diag *once, struct tf_diag *d);

#endif
