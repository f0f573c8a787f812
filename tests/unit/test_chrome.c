/* The generic Chrome mode's pure helpers: times with units, and the names
 * shown inside slices. */
#include "harness.h"
#include "support.h"

#include "rules/chrome.h"

static void check_short(const char *name, const char *want)
{
    char out[128];
    tf_chrome_short_name(name, out, sizeof out);
    TF_CHECK_STR(out, want);
}

TF_TEST(chrome_short_names_of_cxx_signatures)
{
    check_short("void ns::fill_kernel<4, ns::Op<float>, ns::Arr<char*, 3> >(int, ns::Op<float>)",
                "fill_kernel");
    check_short("reduce_sum_kernel(Params*, unsigned long)", "reduce_sum_kernel");
    check_short("void a::(anonymous namespace)::CopyBatch<float, 4>(float*, int)", "CopyBatch");
    check_short("void lib::Kernel<lib_tensorop_gemm_64x64_align1>(lib_tensorop_gemm_64x64_align1::P)",
                "lib_tensorop_gemm_64x64_align1");
    check_short("void blas::gemv::kernel<int, float, 7>(Params<int>)", "gemv::kernel");
    check_short("outer::run()::{lambda(int)#1}::operator()(int) const", "run");
    check_short("bool operator<(Foo const&, Foo const&)", "operator<");
    check_short("std::enable_if<!(false), void>::type ns::apply<T>(T)", "apply");
}

TF_TEST(chrome_short_names_leave_other_names)
{
    check_short("aten::addmm", "aten::addmm");
    check_short("cudaLaunchKernel", "cudaLaunchKernel");
    check_short("Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pageable -> Device)");
    check_short("<forward op>", "<forward op>");
    check_short("Pass<Function>", "Pass<Function>");
    check_short("## wait() ##", "## wait() ##");
    check_short("Profiler (0)", "Profiler (0)");
    check_short("", "");
}

TF_TEST(chrome_short_names_of_python_frames)
{
    check_short("pkg/mod/layer.py(120): forward", "forward");
    check_short("nn.Module: Linear_3", "Linear_3");
    check_short("<built-in method mul of Tensor object at 0x1234>", "mul");
    check_short("<built-in function relu>", "relu");
    check_short("<class 'pkg.mod.Embedding'>", "Embedding");
}

TF_TEST(chrome_short_names_fit_their_buffer)
{
    char out[8];
    tf_chrome_short_name("a_very_long_kernel_name(int)", out, sizeof out);
    TF_CHECK_STR(out, "a_very_");
    /* Unbalanced brackets never read past the name. */
    char big[64];
    tf_chrome_short_name("f<<<(((", big, sizeof big);
    tf_chrome_short_name(")))>>>g(", big, sizeof big);
    tf_chrome_short_name("operator", big, sizeof big);
    tf_chrome_short_name("x::operator()", big, sizeof big);
}

TF_TEST(chrome_times_with_units)
{
    int64_t ns;
    TF_CHECK(tf_chrome_parse_time("12.5ms", &ns) && ns == 12500000);
    TF_CHECK(tf_chrome_parse_time("300us", &ns) && ns == 300000);
    TF_CHECK(tf_chrome_parse_time("1.2s", &ns) && ns == 1200000000);
    TF_CHECK(tf_chrome_parse_time("450000ns", &ns) && ns == 450000);
    TF_CHECK(tf_chrome_parse_time("7", &ns) && ns == 7000000); /* bare: ms */
    TF_CHECK(!tf_chrome_parse_time("7 ms", &ns));
    TF_CHECK(!tf_chrome_parse_time("ms", &ns));
    TF_CHECK(!tf_chrome_parse_time("1e3ms", &ns));
    TF_CHECK(!tf_chrome_parse_time("12.5min", &ns));
    TF_CHECK(!tf_chrome_parse_time("", &ns));
}
