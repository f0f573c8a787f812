/* input_memory.c - byte ranges named as paths (see input.h,
 * tf_input_memory_add): a library caller's trace in memory, which
 * tf_input_open then reads where it is.  The table is the one state the
 * input layer shares between threads, behind its lock.
 */
#include "load/input.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

struct memory_file {
    char *path;
    const unsigned char *data;
    size_t len;
};
static pthread_mutex_t memory_mu = PTHREAD_MUTEX_INITIALIZER;
static struct memory_file *memory_files;
static size_t n_memory_files, cap_memory_files;

bool tf_input_memory_add(const char *path, const void *data, size_t len)
{
    size_t n = strlen(path) + 1;
    char *p = malloc(n);
    if (!p)
        return false;
    memcpy(p, path, n);
    pthread_mutex_lock(&memory_mu);
    bool ok = TF_GROW(memory_files, n_memory_files, cap_memory_files);
    if (ok)
        memory_files[n_memory_files++] = (struct memory_file){p, data, len};
    pthread_mutex_unlock(&memory_mu);
    if (!ok)
        free(p);
    return ok;
}

void tf_input_memory_remove(const char *path)
{
    pthread_mutex_lock(&memory_mu);
    for (size_t i = 0; i < n_memory_files; i++)
        if (strcmp(memory_files[i].path, path) == 0) {
            free(memory_files[i].path);
            memory_files[i] = memory_files[--n_memory_files];
            break;
        }
    if (n_memory_files == 0) {
        free(memory_files);
        memory_files = NULL;
        cap_memory_files = 0;
    }
    pthread_mutex_unlock(&memory_mu);
}

bool tf_input_memory_find(const char *path, const void **data, size_t *len)
{
    bool found = false;
    pthread_mutex_lock(&memory_mu);
    for (size_t i = 0; i < n_memory_files && !found; i++)
        if (strcmp(memory_files[i].path, path) == 0) {
            *data = memory_files[i].data;
            *len = memory_files[i].len;
            found = true;
        }
    pthread_mutex_unlock(&memory_mu);
    return found;
}
