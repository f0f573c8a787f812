/* diag.h - located error messages; the first error wins.
 *
 * A struct tf_diag collects at most one error (the first) and any number of
 * warnings, which are printed to stderr as they come.  Messages name the file
 * and the place: "trace.json:12:5: message" or
 * "trace.json: events[12].start_ms: expected a number, got a string".
 * Nothing here exits; main.c decides the exit code from diag.code.
 * Every message is one line of valid UTF-8 whatever its arguments carry:
 * control bytes become '?', each byte of invalid UTF-8 "\xNN".
 */
#ifndef TF_DIAG_H
#define TF_DIAG_H

#include <stdarg.h>
#include <stdbool.h>

struct tf_buf;

/* Exit codes (jq-like: usage kept apart from bad input).  TF_EIO is an
 * output that could not be written; TF_ENOMEM is memory that could not be
 * had, at any stage (loading, rules, rendering). */
enum tf_exit { TF_OK = 0, TF_EBADINPUT = 1, TF_EUSAGE = 2, TF_EIO = 3, TF_ENOMEM = 4 };

struct tf_diag {
    enum tf_exit code; /* TF_OK until the first error */
    char msg[1024];    /* the first error, without "tracefig: " or newline */
    int n_warnings;
    bool quiet; /* count warnings without printing them (fuzzing, tests) */
    /* When set, warnings are appended here as "tracefig: warning: ...\n"
     * lines instead of printed (several traces read at once print theirs
     * in their order afterwards). */
    struct tf_buf *held;
};

void tf_diag_init(struct tf_diag *d);

/* Records an error if none was recorded yet.  Returns false so a caller can
 * write `return tf_diag_error(...)`. */
#if defined(__GNUC__)
#define TF_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TF_PRINTF(a, b)
#endif
bool tf_diag_error(struct tf_diag *d, enum tf_exit code, const char *fmt, ...)
    TF_PRINTF(3, 4);
bool tf_diag_verror(struct tf_diag *d, enum tf_exit code, const char *fmt,
                    va_list ap) TF_PRINTF(3, 0);
/* tf_diag_error with TF_EUSAGE: a command line or options the tool cannot
 * take (the CLI and the library's option setters). */
bool tf_diag_usage(struct tf_diag *d, const char *fmt, ...) TF_PRINTF(2, 3);
/* Records "WHERE: out of memory" (or just "out of memory" when where is
 * NULL) with TF_ENOMEM; returns false. */
bool tf_diag_oom(struct tf_diag *d, const char *where);
/* Prints "tracefig: warning: ..." to stderr at once (or holds it). */
void tf_diag_warn(struct tf_diag *d, const char *fmt, ...) TF_PRINTF(2, 3);

bool tf_diag_failed(const struct tf_diag *d);

/* Puts "NAME: " before the recorded error, for modules that do not know
 * which file their input came from (the rules). */
void tf_diag_prefix(struct tf_diag *d, const char *name);

/* The file name used in messages: "-" becomes "<stdin>". */
const char *tf_diag_name(const char *path);

#endif
