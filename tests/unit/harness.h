/* harness.h - a small unit-test harness.
 *
 *   TF_TEST(name) { TF_CHECK(cond); TF_CHECK_STR(a, b); TF_CHECK_NEAR(a, b, eps); }
 *
 * Tests register themselves (a constructor per test), so a new test file
 * needs no list to be edited.  The run ends with "N passed, N failed".
 */
#ifndef TF_HARNESS_H
#define TF_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef void (*tf_test_fn)(void);
void tf_test_register(const char *name, tf_test_fn fn, const char *file);
void tf_test_fail(const char *file, int line, const char *what);
void tf_test_failf(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define TF_TEST(name)                                                                          \
    static void name(void);                                                                    \
    __attribute__((constructor)) static void name##_register(void)                             \
    {                                                                                          \
        tf_test_register(#name, name, __FILE__);                                               \
    }                                                                                          \
    static void name(void)

#define TF_CHECK(cond)                                                                         \
    do {                                                                                       \
        if (!(cond))                                                                           \
            tf_test_fail(__FILE__, __LINE__, #cond);                                           \
    } while (0)

#define TF_CHECK_STR(a, b)                                                                     \
    do {                                                                                       \
        const char *tf_a_ = (a), *tf_b_ = (b);                                                 \
        if (!tf_a_ || !tf_b_ || strcmp(tf_a_, tf_b_) != 0)                                     \
            tf_test_failf(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,            \
                          tf_a_ ? tf_a_ : "(null)", tf_b_ ? tf_b_ : "(null)");                 \
    } while (0)

#define TF_CHECK_NEAR(a, b, eps)                                                               \
    do {                                                                                       \
        double tf_a_ = (a), tf_b_ = (b);                                                       \
        if (!(fabs(tf_a_ - tf_b_) <= (eps)))                                                   \
            tf_test_failf(__FILE__, __LINE__, "%s ~ %s: %.17g != %.17g", #a, #b, tf_a_,        \
                          tf_b_);                                                              \
    } while (0)

#endif
