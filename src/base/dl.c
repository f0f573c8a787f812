/* dl.c - see dl.h. */
#include "base/dl.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

bool tf_dl_outcome(const struct tf_diag *once, struct tf_diag *d)
{
    if (!tf_diag_failed(once))
        return true;
    return tf_diag_error(d, once->code, "%s", once->msg);
}

bool tf_dl_load(const char *what, const struct tf_dl_lib *libs, int n_libs,
                const struct tf_dl_sym *syms, size_t n_syms, void *api, size_t api_size,
                struct tf_diag *d)
{
    void **handle = calloc((size_t)n_libs, sizeof *handle);
    unsigned char *tmp = calloc(1, api_size);
    if (!handle || !tmp) {
        free(handle);
        free(tmp);
        return tf_diag_oom(d, NULL);
    }
    bool ok = true;
    for (int lib = 0; ok && lib < n_libs; lib++) {
        handle[lib] = dlopen(libs[lib].soname, RTLD_LAZY | RTLD_LOCAL);
        if (!handle[lib]) {
            const char *why = dlerror();
            ok = tf_diag_error(d, TF_EIO,
                               "%s needs %s, which cannot be loaded: %.300s (install Debian's %s)",
                               what, libs[lib].soname, why ? why : "unknown error",
                               libs[lib].package);
        }
        for (size_t i = 0; ok && i < n_syms; i++) {
            if (syms[i].lib != lib)
                continue;
            void *p = dlsym(handle[lib], syms[i].name);
            if (p)
                memcpy(tmp + syms[i].offset, &p, sizeof p);
            else
                ok = tf_diag_error(d, TF_EIO,
                                   "%s: %s has no function %s (too old or broken; install "
                                   "Debian's %s)",
                                   what, libs[lib].soname, syms[i].name, libs[lib].package);
        }
    }
    if (ok) {
        memcpy(api, tmp, api_size);
    } else {
        for (int i = 0; i < n_libs; i++)
            if (handle[i])
                dlclose(handle[i]);
    }
    free(handle);
    free(tmp);
    return ok;
}
