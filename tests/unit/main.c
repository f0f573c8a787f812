/* main.c - runs every registered unit test; see harness.h.
 *
 *   unit-tests [SUBSTRING]   run the tests whose name contains SUBSTRING
 */
#include <stdarg.h>
#include <stdlib.h>

#include "harness.h"

enum { MAX_TESTS = 1024 };

static struct {
    const char *name, *file;
    tf_test_fn fn;
} tests[MAX_TESTS];
static int n_tests;
static int current_failed;

void tf_test_register(const char *name, tf_test_fn fn, const char *file)
{
    if (n_tests < MAX_TESTS) {
        tests[n_tests].name = name;
        tests[n_tests].fn = fn;
        tests[n_tests].file = file;
        n_tests++;
    }
}

void tf_test_fail(const char *file, int line, const char *what)
{
    tf_test_failf(file, line, "%s", what);
}

void tf_test_failf(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "  %s:%d: ", file, line);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    current_failed = 1;
}

static int by_file_then_name(const void *a, const void *b)
{
    const int *x = a, *y = b;
    int c = strcmp(tests[*x].file, tests[*y].file);
    return c ? c : strcmp(tests[*x].name, tests[*y].name);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int order[MAX_TESTS];
    for (int i = 0; i < n_tests; i++)
        order[i] = i;
    qsort(order, (size_t)n_tests, sizeof order[0], by_file_then_name);
    int passed = 0, failed = 0;
    for (int k = 0; k < n_tests; k++) {
        int i = order[k];
        if (filter && !strstr(tests[i].name, filter))
            continue;
        current_failed = 0;
        tests[i].fn();
        if (current_failed) {
            printf("FAIL %s (%s)\n", tests[i].name, tests[i].file);
            failed++;
        } else {
            passed++;
        }
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
