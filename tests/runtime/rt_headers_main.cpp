// Driver for tests/runtime/test_runtime_headers.py.
//
//   rt_headers scalars < requests   one result line per request line
//   rt_headers arrays               built-in array cases, "name|result"
//
// A request line is "op type arg...", arguments as C hex floats or ints.
// Results: floats as %a (nan as "nan"), ints as %lld, bools as 0/1, complex
// as two floats, arrays as " shape d0 d1 ... : v0 v1 ...", errors as
// "ERR code message".
#include "transpile_rt/numpy/ufunc.hpp"
#include "transpile_rt/numpy/creation.hpp"
#include "transpile_rt/numpy/reduce.hpp"
#include "transpile_rt/numpy/linalg.hpp"
#include "transpile_rt/numpy/shape.hpp"
#include "transpile_rt/math/math.hpp"
#include "transpile_rt/builtins/builtins.hpp"
#include "transpile_rt/expr.hpp"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

using namespace tr;

// ------------------------------------------------------------ printing

static void pv(double v) {
    if (v != v) printf(" nan");
    else printf(" %a", v);
}
static void pv(float v) { pv(double(v)); }
static void pv(bool v) { printf(" %d", int(v)); }
template <class T>
    requires(is_int<T>::value)
static void pv(T v) {
    if constexpr (is_signed_int<T>::value) printf(" %lld", (long long)v);
    else printf(" %llu", (unsigned long long)v);
}
template <class T> static void pv(complex_t<T> v) {
    pv(v.re);
    pv(v.im);
}
template <class T, int N, int L> static void pa(const Array<T, N, L> &a) {
    printf(" shape");
    for (int k = 0; k < N; ++k) printf(" %lld", (long long)a.shape[k]);
    printf(" :");
    for_each(a, [](T &v) { pv(v); });
}

#define CASE(name, ...)                                                  \
    do {                                                                 \
        printf("%s|", name);                                             \
        try {                                                            \
            __VA_ARGS__;                                                 \
        } catch (const tr::Error &e) {                                   \
            printf("ERR %d %s", e.code, e.message);                      \
        }                                                                \
        printf("\n");                                                    \
    } while (0)

// ------------------------------------------------------------ test data
// The same formulas are in the Python test (gvals / ivals).

static double gval(int64_t i) {
    static const double sc[7] = {1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1000.0};
    return double((i * 7919 + 13) % 1000 - 500) / 37.0 * sc[i % 7];
}
static int64_t ival(int64_t i) { return (i * 7919 + 13) % 1000 - 500; }

template <class T, int N> static Array<T, N, C> mk(const int64_t (&shape)[N], bool ints = false, int64_t off = 0) {
    Array<T, N, C> a = np::empty<T, N>(shape);
    const int64_t n = a.size();
    for (int64_t k = 0; k < n; ++k) {
        if constexpr (is_complex<T>::value) {
            using F = typename real_of<T>::type;
            a.data[k] = T(F(gval(2 * k + off)), F(gval(2 * k + 1 + off)));
        } else {
            a.data[k] = ints ? T(ival(k + off)) : T(gval(k + off));
        }
    }
    return a;
}

// A strided view into `base` (strides in elements).
template <class T, int N, int M, int L>
static Array<T, N, A> view(const Array<T, M, L> &base, int64_t offset, const int64_t (&shape)[N],
                           const int64_t (&strides)[N]) {
    Array<T, N, A> v;
    v.data = base.data + offset;
    v.owner = base.owner;
    for (int k = 0; k < N; ++k) v.shape[k] = shape[k], v.strides[k] = strides[k];
    return v;
}

// ------------------------------------------------------------ scalars

static double arg_f(const char *s) { return strtod(s, nullptr); }
static long long arg_i(const char *s) { return strtoll(s, nullptr, 0); }

template <class F, class T> static void call1(char **a) {
    if constexpr (is_complex<T>::value) {
        using R = typename real_of<T>::type;
        pv(F::apply(T(R(arg_f(a[0])), R(arg_f(a[1])))));
    } else if constexpr (is_float<T>::value) {
        pv(F::apply(T(arg_f(a[0]))));
    } else {
        pv(F::apply(T(arg_i(a[0]))));
    }
}
template <class F, class T> static void call2(char **a) {
    if constexpr (is_complex<T>::value) {
        using R = typename real_of<T>::type;
        pv(F::apply(T(R(arg_f(a[0])), R(arg_f(a[1]))), T(R(arg_f(a[2])), R(arg_f(a[3])))));
    } else if constexpr (is_float<T>::value) {
        pv(F::apply(T(arg_f(a[0])), T(arg_f(a[1]))));
    } else {
        pv(F::apply(T(arg_i(a[0])), T(arg_i(a[1]))));
    }
}

#define TYPES_F(CALL, F)                                          \
    if (!strcmp(ty, "f64")) return CALL<F, double>(a), true;      \
    if (!strcmp(ty, "f32")) return CALL<F, float>(a), true;
#define TYPES_I(CALL, F)                                          \
    if (!strcmp(ty, "i64")) return CALL<F, int64_t>(a), true;     \
    if (!strcmp(ty, "i32")) return CALL<F, int32_t>(a), true;     \
    if (!strcmp(ty, "i8")) return CALL<F, int8_t>(a), true;       \
    if (!strcmp(ty, "u8")) return CALL<F, uint8_t>(a), true;      \
    if (!strcmp(ty, "u64")) return CALL<F, uint64_t>(a), true;
#define TYPES_C(CALL, F)                                          \
    if (!strcmp(ty, "c128")) return CALL<F, complex128>(a), true; \
    if (!strcmp(ty, "c64")) return CALL<F, complex64>(a), true;

#define U_F(NAME, CALL)                     \
    if (!strcmp(op, "u." #NAME)) {          \
        TYPES_F(CALL, uf::NAME)             \
        return false;                       \
    }
#define U_FI(NAME, CALL)                    \
    if (!strcmp(op, "u." #NAME)) {          \
        TYPES_F(CALL, uf::NAME)             \
        TYPES_I(CALL, uf::NAME)             \
        return false;                       \
    }
#define U_FC(NAME, CALL)                    \
    if (!strcmp(op, "u." #NAME)) {          \
        TYPES_F(CALL, uf::NAME)             \
        TYPES_C(CALL, uf::NAME)             \
        return false;                       \
    }
#define U_ALL(NAME, CALL)                   \
    if (!strcmp(op, "u." #NAME)) {          \
        TYPES_F(CALL, uf::NAME)             \
        TYPES_I(CALL, uf::NAME)             \
        TYPES_C(CALL, uf::NAME)             \
        return false;                       \
    }

static bool ufunc_op(const char *op, const char *ty, char **a) {
    U_F(cbrt, call1) U_F(exp2, call1) U_F(expm1, call1) U_F(log2, call1) U_F(log10, call1) U_F(log1p, call1)
    U_F(sin, call1) U_F(cos, call1) U_F(tan, call1) U_F(arcsin, call1) U_F(arccos, call1) U_F(arctan, call1)
    U_F(sinh, call1) U_F(cosh, call1) U_F(tanh, call1) U_F(arcsinh, call1) U_F(arccosh, call1)
    U_F(arctanh, call1) U_F(fabs, call1) U_F(rint, call1) U_F(deg2rad, call1) U_F(rad2deg, call1)
    U_F(radians, call1) U_F(degrees, call1)
    U_FC(sqrt, call1) U_FC(exp, call1) U_FC(log, call1)
    U_FI(floor, call1) U_FI(ceil, call1) U_FI(trunc, call1) U_FI(signbit, call1)
    U_ALL(absolute, call1) U_ALL(sign, call1) U_ALL(square, call1) U_ALL(reciprocal, call1)
    U_ALL(negative, call1) U_ALL(positive, call1) U_ALL(isnan, call1) U_ALL(isinf, call1) U_ALL(isfinite, call1)
    U_ALL(conjugate, call1) U_ALL(logical_not, call1)
    U_F(arctan2, call2) U_F(hypot, call2) U_F(copysign, call2) U_F(logaddexp, call2) U_F(logaddexp2, call2)
    U_ALL(power, call2) U_FI(maximum, call2) U_FI(minimum, call2) U_FI(fmax, call2) U_FI(fmin, call2)
    U_FI(fmod, call2) U_ALL(logical_and, call2) U_ALL(logical_or, call2) U_ALL(logical_xor, call2)
    return false;
}

#define M1(NAME)                                             \
    if (!strcmp(op, "m." #NAME)) return pv(math::NAME(arg_f(a[0]))), true;
#define M2(NAME)                                             \
    if (!strcmp(op, "m." #NAME)) return pv(math::NAME(arg_f(a[0]), arg_f(a[1]))), true;

static bool math_op(const char *op, char **a) {
    M1(sqrt) M1(cbrt) M1(exp) M1(exp2) M1(expm1) M1(log) M1(log2) M1(log10) M1(log1p) M1(sin) M1(cos) M1(tan)
    M1(asin) M1(acos) M1(atan) M1(sinh) M1(cosh) M1(tanh) M1(asinh) M1(acosh) M1(atanh) M1(fabs) M1(erf) M1(erfc)
    M1(gamma) M1(lgamma) M1(degrees) M1(radians) M1(isnan) M1(isinf) M1(isfinite) M1(floor) M1(ceil) M1(trunc)
    M2(atan2) M2(hypot) M2(copysign) M2(fmod) M2(remainder) M2(pow)
    if (!strcmp(op, "m.logb")) return pv(math::log(arg_f(a[0]), arg_f(a[1]))), true;
    if (!strcmp(op, "m.floori")) return pv(math::floor(int64_t(arg_i(a[0])))), true;
    if (!strcmp(op, "m.factorial")) return pv(math::factorial(arg_i(a[0]))), true;
    if (!strcmp(op, "m.gcd")) return pv(math::gcd(arg_i(a[0]), arg_i(a[1]))), true;
    if (!strcmp(op, "m.lcm")) return pv(math::lcm(arg_i(a[0]), arg_i(a[1]))), true;
    return false;
}

static bool builtin_op(const char *op, char **a) {
    using namespace builtins;
    if (!strcmp(op, "b.round")) return pv(round_half_even(arg_f(a[0]))), true;
    if (!strcmp(op, "b.roundn")) return pv(round_ndigits(arg_f(a[0]), int64_t(arg_i(a[1])))), true;
    if (!strcmp(op, "b.roundi")) return pv(round_ndigits(int64_t(arg_i(a[0])), int64_t(arg_i(a[1])))), true;
    if (!strcmp(op, "b.int")) return pv(to_int(arg_f(a[0]))), true;
    if (!strcmp(op, "b.absf")) return pv(py_abs(arg_f(a[0]))), true;
    if (!strcmp(op, "b.absi")) return pv(py_abs(int64_t(arg_i(a[0])))), true;
    if (!strcmp(op, "b.absc")) return pv(py_abs(complex128(arg_f(a[0]), arg_f(a[1])))), true;
    if (!strcmp(op, "b.minf")) return pv(py_min(arg_f(a[0]), arg_f(a[1]))), true;
    if (!strcmp(op, "b.maxf")) return pv(py_max(arg_f(a[0]), arg_f(a[1]))), true;
    if (!strcmp(op, "b.min3")) return pv(py_min(arg_f(a[0]), arg_f(a[1]), arg_f(a[2]))), true;
    if (!strcmp(op, "b.max3")) return pv(py_max(arg_f(a[0]), arg_f(a[1]), arg_f(a[2]))), true;
    if (!strcmp(op, "b.mini")) return pv(py_min(int64_t(arg_i(a[0])), int64_t(arg_i(a[1])))), true;
    if (!strcmp(op, "b.maxi")) return pv(py_max(int64_t(arg_i(a[0])), int64_t(arg_i(a[1])))), true;
    return false;
}

static int run_scalars() {
    static char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char *tok[16];
        int n = 0;
        for (char *t = strtok(line, " \n"); t && n < 16; t = strtok(nullptr, " \n")) tok[n++] = t;
        if (n < 2) continue;
        try {
            bool ok = tok[0][0] == 'u' ? ufunc_op(tok[0], tok[1], tok + 2)
                      : tok[0][0] == 'm' ? math_op(tok[0], tok + 2)
                                         : builtin_op(tok[0], tok + 2);
            if (!ok) printf("UNKNOWN %s %s", tok[0], tok[1]);
        } catch (const tr::Error &e) {
            printf("ERR %d %s", e.code, e.message);
        }
        printf("\n");
    }
    return 0;
}

// ------------------------------------------------------------ arrays

static void creation_cases() {
    CASE("zeros", pa(np::zeros<double>({2, 3})));
    CASE("zeros_i", pa(np::zeros<int32_t>({4})));
    CASE("ones", pa(np::ones<float>({3, 1, 2})));
    CASE("full", pa(np::full<int64_t>({2, 2}, 7)));
    CASE("full_c", pa(np::full<complex128>({2}, complex128(1.5, -2))));
    CASE("zeros_0d", pa(np::zeros<double, 0>(np::zeros<double>({3}).shape)));
    CASE("full_0d", pa(np::full<int64_t, 0>(np::empty<double, 0>(nullptr).shape, 5)));
    CASE("zeros_like_0d", pa(np::zeros_like<float>(np::ones<double, 0>(nullptr))));
    CASE("empty_shape", {
        auto e = np::empty<double>({3, 0, 2});
        pv(e.size());
    });
    CASE("zeros_neg", pa(np::zeros<double>({2, -1})));
    CASE("ones_like", pa(np::ones_like<int64_t>(mk<double>({2, 2}))));
    CASE("eye", pa(np::eye<double>(3, 4, 1)));
    CASE("arange_i", pa(np::arange<int64_t>(0, 10, 1)));
    CASE("arange_i_neg", pa(np::arange<int64_t>(10, 0, -3)));
    CASE("arange_i_empty", pa(np::arange<int64_t>(5, 1, 1)));
    CASE("arange_i_zero", pa(np::arange<int64_t>(0, 5, 0)));
    CASE("arange_f", pa(np::arange<double>(0.1, 10, 0.3)));
    CASE("arange_f2", pa(np::arange<double>(-3.5, 7.25, 0.75)));
    CASE("arange_f3", pa(np::arange<double>(1, 2, 0.1)));
    CASE("arange_f32", pa(np::arange<float, float>(0.1f, 10.0f, 0.3f)));
    CASE("arange_f32_py", pa(np::arange<float>(0.1, 10.0, 0.3)));
    CASE("arange_i_f", pa(np::arange<int64_t, double>(0.5, 5, 1)));
    CASE("arange_f_i", pa(np::arange<double, int64_t>(2, 9, 2)));
    CASE("arange_f_zero", pa(np::arange<double>(0.0, 5.0, 0.0)));
    CASE("arange_f_infstep", pa(np::arange<double>(0.0, 1.0, math::inf)));
    CASE("arange_f_infstep_neg", pa(np::arange<double>(0.0, -1.0, math::inf)));
    CASE("arange_f_inf", pa(np::arange<double>(0.0, math::inf, 1.0)));
    CASE("arange_f_nan", pa(np::arange<double>(0.0, math::nan, 1.0)));
    CASE("linspace", pa(np::linspace<double>(0, 1, 50, true)));
    CASE("linspace_noend", pa(np::linspace<double>(0, 1, 7, false)));
    CASE("linspace_big", pa(np::linspace<double>(-2.5, 13.3, 1001, true)));
    CASE("linspace_rev", pa(np::linspace<double>(1, 0, 10, true)));
    CASE("linspace_one", pa(np::linspace<double>(0.25, 1, 1, true)));
    CASE("linspace_zero", pa(np::linspace<double>(0, 1, 0, true)));
    CASE("linspace_neg", pa(np::linspace<double>(0, 1, -1, true)));
    CASE("linspace_int", pa(np::linspace<int64_t>(0, 10, 7, true)));
    CASE("linspace_f32", pa(np::linspace<float>(0, 1, 11, true)));
    CASE("linspace_denorm", pa(np::linspace<double>(0, 1e-323, 10, true)));
    CASE("linspace_third", pa(np::linspace<double>(1.0 / 3, 2.0 / 3, 33, true)));
}

static void reduce_cases() {
    static const int64_t sizes[] = {0, 1, 7, 8, 9, 17, 100, 128, 129, 255, 1000, 12345, 100000};
    char name[64];
    for (int64_t n : sizes) {
        auto a = mk<double>({n});
        auto f = mk<float>({n});
        snprintf(name, sizeof name, "sum_f64_%lld", (long long)n);
        CASE(name, pv(np::sum<double>(a)));
        snprintf(name, sizeof name, "sum_f32_%lld", (long long)n);
        CASE(name, pv(np::sum<float>(f)));
        snprintf(name, sizeof name, "mean_f64_%lld", (long long)n);
        CASE(name, pv(np::mean<double>(a)));
        snprintf(name, sizeof name, "mean_f32_%lld", (long long)n);
        CASE(name, pv(np::mean<float>(f)));
    }
    {
        auto big = mk<double>({30000});
        CASE("sum_stride3", pv(np::sum<double>(view(big, 5, {9000}, {3}))));
        CASE("sum_stride_neg", pv(np::sum<double>(view(big, 29999, {20000}, {-1}))));
        auto m = mk<double>({300, 301});
        CASE("sum_2d", pv(np::sum<double>(m)));
        CASE("sum_2d_T", pv(np::sum<double>(np::transpose(m))));
        CASE("sum_2d_slice", pv(np::sum<double>(view(m, 1, {150, 100}, {602, 3}))));
        CASE("sum_2d_rows", pv(np::sum<double>(view(m, 0, {300, 200}, {301, 1}))));
        auto t = mk<double>({20, 30, 40});
        CASE("sum_3d", pv(np::sum<double>(t)));
        CASE("sum_3d_perm", pv(np::sum<double>(np::transpose(t, {1, 0, 2}))));
        CASE("sum_3d_slice", pv(np::sum<double>(view(t, 3, {20, 15, 18}, {1200, 80, 2}))));
        auto f = mk<float>({20001});
        CASE("sum_f32_as_f64", pv(np::sum<double>(f)));
        auto f2 = mk<float>({150, 101});
        CASE("sum_f32_as_f64_2d", pv(np::sum<double>(view(f2, 0, {150, 100}, {101, 1}))));
        auto iv = mk<int64_t>({20000}, true);
        for (int64_t k = 0; k < 20000; ++k) iv.data[k] = iv.data[k] * 1000000000000003LL + k;
        CASE("mean_i64_big", pv(np::mean<double>(iv)));
        CASE("sum_i64", pv(np::sum<int64_t>(iv)));
        auto i32 = mk<int32_t>({1000}, true);
        CASE("sum_i32", pv(np::sum<int64_t>(i32)));
        CASE("mean_i32", pv(np::mean<double>(i32)));
        CASE("prod_i32", pv(np::prod<int64_t>(view(i32, 0, {20}, {7}))));
        auto i8 = mk<int8_t>({300}, true);
        CASE("sum_i8", pv(np::sum<int64_t>(i8)));
        auto c = mk<complex128>({1000});
        CASE("sum_c128", pv(np::sum<complex128>(c)));
        CASE("mean_c128", pv(np::mean<complex128>(c)));
        auto c2 = mk<complex128>({37});
        CASE("sum_c128_37", pv(np::sum<complex128>(c2)));
        auto c64 = mk<complex64>({555});
        CASE("sum_c64", pv(np::sum<complex64>(c64)));
        auto a = mk<double>({5000}), b = mk<double>({5000}, false, 77);
        CASE("sum_expr_1d", pv(np::sum<double>(binary<op::mul, double>(a, b))));
        CASE("sum_expr_sqrt", pv(np::sum<double>(unary<uf::absolute, double>(a))));
        auto m2a = mk<double>({70, 90});
        auto m2b = mk<double>({90}, false, 5);
        CASE("sum_expr_2d", pv(np::sum<double>(binary<op::add, double>(m2a, m2b))));
        CASE("mean_expr_2d", pv(np::mean<double>(binary<op::mul, double>(m2a, m2b))));
        CASE("sum_scalar_expr", pv(np::sum<double>(binary<op::mul, double>(2.5, 4.0))));
        auto p = mk<double>({50});
        CASE("prod_f64", pv(np::prod<double>(p)));
        CASE("prod_empty", pv(np::prod<double>(np::zeros<double>({0}))));
        CASE("sum_neg0", pv(np::sum<double>(np::full<double>({3}, -0.0))));
        CASE("prod_neg0", pv(np::prod<double>(np::full<double>({1}, -0.0))));
    }
    {
        auto a = mk<double>({1001});
        CASE("min_f64", pv(np::min<double>(a)));
        CASE("max_f64", pv(np::max<double>(a)));
        CASE("argmin_f64", pv(np::argmin(a)));
        CASE("argmax_f64", pv(np::argmax(a)));
        auto w = np::full<double>({6}, 1.0);
        w.data[1] = 3;
        w.data[2] = math::nan;
        w.data[3] = 5;
        w.data[4] = math::nan;
        CASE("max_nan", pv(np::max<double>(w)));
        CASE("min_nan", pv(np::min<double>(w)));
        CASE("argmax_nan", pv(np::argmax(w)));
        CASE("argmin_nan", pv(np::argmin(w)));
        auto ties = np::full<int64_t>({5}, 2);
        ties.data[1] = 9;
        ties.data[3] = 9;
        ties.data[4] = -1;
        CASE("argmax_ties", pv(np::argmax(ties)));
        CASE("argmin_i", pv(np::argmin(ties)));
        CASE("max_i", pv(np::max<int64_t>(ties)));
        auto z = np::zeros<double>({0});
        CASE("min_empty", pv(np::min<double>(z)));
        CASE("max_empty", pv(np::max<double>(z)));
        CASE("argmin_empty", pv(np::argmin(z)));
        CASE("argmax_empty", pv(np::argmax(z)));
        auto m = mk<double>({13, 17});
        CASE("argmax_2d_T", pv(np::argmax(np::transpose(m))));
        CASE("argmin_expr", pv(np::argmin(binary<op::mul, double>(m, -1.0))));
        CASE("max_f32", pv(np::max<float>(mk<float>({333}))));
        auto signed0 = np::full<double>({2}, 0.0);
        signed0.data[1] = -0.0;
        CASE("max_signed0", pv(np::max<double>(signed0)));
        auto ln = mk<double>({100});
        ln.data[40] = math::nan;
        ln.data[70] = math::nan;
        CASE("argmax_long_nan", pv(np::argmax(ln)));
        CASE("max_long_nan", pv(np::max<double>(ln)));
        CASE("min_long_nan_2d", pv(np::min<double>(np::reshape(ln, {10, 10}))));
        auto li = mk<int64_t>({100}, true);
        CASE("argmin_long_int", pv(np::argmin(li)));
        CASE("argmax_long_int", pv(np::argmax(li)));
        CASE("min_long_int", pv(np::min<int64_t>(li)));
        CASE("max_long_f32", pv(np::max<float>(mk<float>({1000}, false, 3))));
        CASE("any", pv(np::any(mk<double>({10}))));
        CASE("all", pv(np::all(mk<int64_t>({10}, true))));
        CASE("any_zero", pv(np::any(np::zeros<double>({4}))));
    }
    {
        auto a = mk<double>({1000});
        auto f = mk<float>({999});
        auto i = mk<int64_t>({500}, true);
        auto c = mk<complex128>({300});
        CASE("var_f64", pv(np::var<double>(a)));
        CASE("var_f64_ddof1", pv(np::var<double>(a, 1)));
        CASE("std_f64", pv(np::std<double>(a)));
        CASE("std_f64_ddof1", pv(np::std<double>(a, 1)));
        CASE("var_f32", pv(np::var<float>(f)));
        CASE("std_f32", pv(np::std<float>(f)));
        CASE("var_i64", pv(np::var<double>(i)));
        CASE("std_i64", pv(np::std<double>(i, 1)));
        CASE("var_c128", pv(np::var<double>(c)));
        CASE("var_ddof_big", pv(np::var<double>(mk<double>({3}), 5)));
        CASE("var_2d_T", pv(np::var<double>(np::transpose(mk<double>({40, 50})))));
        CASE("var_expr", pv(np::var<double>(binary<op::add, double>(a, 1.5))));
    }
    {
        auto m = mk<double>({37, 300});
        auto t = mk<double>({6, 7, 130});
        auto mi = mk<int64_t>({9, 11}, true);
        CASE("sum_ax0", pa(np::sum_axis<double>(m, 0)));
        CASE("sum_ax1", pa(np::sum_axis<double>(m, 1)));
        CASE("sum_axm1", pa(np::sum_axis<double>(m, -1)));
        CASE("sum_axT0", pa(np::sum_axis<double>(np::transpose(m), 0)));
        CASE("sum_axT1", pa(np::sum_axis<double>(np::transpose(m), 1)));
        CASE("sum_3d_ax0", pa(np::sum_axis<double>(t, 0)));
        CASE("sum_3d_ax1", pa(np::sum_axis<double>(t, 1)));
        CASE("sum_3d_ax2", pa(np::sum_axis<double>(t, 2)));
        CASE("sum_ax2_bad", pa(np::sum_axis<double>(m, 2)));
        CASE("sum_axm3_bad", pa(np::sum_axis<double>(m, -3)));
        CASE("sum_1d_ax0", pa(np::sum_axis<double>(mk<double>({1000}), 0)));
        CASE("sum_i_ax0", pa(np::sum_axis<int64_t>(mi, 0)));
        CASE("sum_i_ax1", pa(np::sum_axis<int64_t>(mi, 1)));
        CASE("prod_ax0", pa(np::prod_axis<double>(mk<double>({5, 4}), 0)));
        CASE("prod_ax1", pa(np::prod_axis<double>(mk<double>({5, 4}), 1)));
        CASE("mean_ax0", pa(np::mean_axis<double>(m, 0)));
        CASE("mean_ax1", pa(np::mean_axis<double>(m, 1)));
        CASE("mean_i_ax1", pa(np::mean_axis<double>(mi, 1)));
        CASE("mean_f32_ax1", pa(np::mean_axis<float>(mk<float>({5, 333}), 1)));
        auto w = mk<double>({4, 5});
        w.data[6] = math::nan;
        w.data[13] = math::nan;
        CASE("max_ax0", pa(np::max_axis<double>(w, 0)));
        CASE("max_ax1", pa(np::max_axis<double>(w, 1)));
        CASE("min_ax0", pa(np::min_axis<double>(w, 0)));
        CASE("min_ax1", pa(np::min_axis<double>(w, 1)));
        CASE("argmax_ax0", pa(np::argmax_axis(w, 0)));
        CASE("argmax_ax1", pa(np::argmax_axis(w, 1)));
        CASE("argmin_ax0", pa(np::argmin_axis(w, 0)));
        CASE("argmin_ax1", pa(np::argmin_axis(w, -1)));
        CASE("argmin_3d_ax1", pa(np::argmin_axis(t, 1)));
        CASE("argmax_T_ax1", pa(np::argmax_axis(np::transpose(m), 1)));
        CASE("min_ax_empty", pa(np::min_axis<double>(np::zeros<double>({0, 3}), 0)));
        CASE("min_ax_empty_ok", pa(np::min_axis<double>(np::zeros<double>({0, 3}), 1)));
        CASE("argmin_ax_empty", pa(np::argmin_axis(np::zeros<double>({0, 3}), 0)));
        CASE("argmin_ax_empty_ok", pa(np::argmin_axis(np::zeros<double>({0, 3}), 1)));
        CASE("max_1d_ax", pa(np::max_axis<double>(mk<double>({10}), 0)));
    }
}

static void linalg_cases() {
    // Floating-point products are NumPy's own (python_calls.hpp, through the bridge: tests/diff/test_linalg_bits.py)
    auto ia = mk<int64_t>({6, 4}, true), ib = mk<int64_t>({4, 3}, true, 5);
    CASE("dot_int", pa(np::dot<int64_t>(ia, ib)));
    CASE("dot_int_11", pv(np::dot<int64_t>(mk<int64_t>({40}, true), mk<int64_t>({40}, true, 1))));
    CASE("dot_err22", pa(np::dot<int64_t>(mk<int64_t>({2, 3}, true), mk<int64_t>({2, 3}, true))));
    CASE("dot_err11", pv(np::dot<int64_t>(mk<int64_t>({3}, true), mk<int64_t>({2}, true))));
    CASE("dot_err21", pa(np::dot<int64_t>(mk<int64_t>({2, 3}, true), mk<int64_t>({2}, true))));
    CASE("dot_err12", pa(np::dot<int64_t>(mk<int64_t>({3}, true), mk<int64_t>({2, 3}, true))));
    CASE("matmul_err22", pa(np::matmul<int64_t>(mk<int64_t>({2, 3}, true), mk<int64_t>({2, 3}, true))));
    CASE("matmul_err11", pv(np::matmul<int64_t>(mk<int64_t>({3}, true), mk<int64_t>({2}, true))));
    CASE("matmul_err21", pa(np::matmul<int64_t>(mk<int64_t>({2, 3}, true), mk<int64_t>({2}, true))));
    CASE("matmul_err12", pa(np::matmul<int64_t>(mk<int64_t>({3}, true), mk<int64_t>({2, 3}, true))));
    CASE("matmul_empty", pa(np::matmul<int64_t>(mk<int64_t>({2, 0}, true), mk<int64_t>({0, 3}, true))));
}

static void shape_cases() {
    auto a = mk<double>({2, 3});
    CASE("reshape_view", {
        auto r = np::reshape(a, {3, 2});
        pa(r);
        pv(int64_t(r.data == a.data));
    });
    CASE("reshape_m1", pa(np::reshape(a, {-1})));
    CASE("reshape_m1b", pa(np::reshape(a, {3, -1})));
    CASE("reshape_err", pa(np::reshape(mk<double>({6}), {4})));
    CASE("reshape_err_m1", pa(np::reshape(mk<double>({6}), {-1, 4})));
    CASE("reshape_err_mid", pa(np::reshape(mk<double>({6}), {2, -1, 4})));
    CASE("reshape_two_unknown", pa(np::reshape(mk<double>({6}), {-1, -1})));
    CASE("reshape_err_zero", pa(np::reshape(np::zeros<double>({0}), {0, -1})));
    CASE("reshape_err_2d", pa(np::reshape(mk<double>({6}), {4, 5})));
    auto base = mk<double>({4, 6});
    auto rows = view(base, 0, {2, 6}, {12, 1});  // base[::2]
    CASE("reshape_rows_view", {
        auto r = np::reshape(rows, {2, 2, 3});
        pa(r);
        pv(int64_t(r.data == base.data));
    });
    auto cols = view(base, 0, {4, 3}, {6, 1});  // base[:, :3]
    CASE("reshape_copy", {
        auto r = np::reshape(cols, {3, 4});
        pa(r);
        pv(int64_t(r.data == base.data));
    });
    auto odd = view(base, 1, {4, 3}, {6, 2});  // base[:, 1::2]: NumPy views it with inner stride 2
    CASE("reshape_strided", {
        auto r = np::reshape(odd, {3, 4});
        pa(r);
        pv(int64_t(r.data == base.data + 1));
    });
    CASE("reshape_T", pa(np::reshape(np::transpose(a), {6})));
    CASE("reshape_write", {
        auto b = mk<double>({2, 3});
        auto r = np::reshape(b, {6});
        r.data[4] = 99.0;
        pa(b);
    });
    auto t = mk<double>({2, 3, 4});
    CASE("transpose", {
        auto tt = np::transpose(t);
        pa(tt);
        pv(tt.strides[0]);
        pv(tt.strides[2]);
    });
    CASE("transpose_axes", pa(np::transpose(t, {1, -1, 0})));
    CASE("transpose_rep", pa(np::transpose(t, {0, 0, 1})));
    CASE("transpose_oob", pa(np::transpose(t, {0, 3, 1})));
    CASE("transpose_oob_neg", pa(np::transpose(t, {0, -4, 1})));
    CASE("ravel_view", {
        auto r = np::ravel(t);
        pa(r);
        pv(int64_t(r.data == t.data));
    });
    CASE("ravel_copy", {
        auto r = np::ravel(np::transpose(t));
        pa(r);
        pv(int64_t(r.data == t.data));
    });
    CASE("flatten", {
        auto r = np::flatten(t);
        pa(r);
        pv(int64_t(r.data == t.data));
    });
}

static void ufunc_array_cases() {
    auto a = mk<double>({3, 5});
    auto f = mk<float>({7});
    CASE("uf_sqrt_expr", pa(eval(unary<uf::sqrt, double>(unary<uf::absolute, double>(a)))));
    CASE("uf_sqrt_f32_expr", pa(eval(unary<uf::sqrt, float>(unary<uf::absolute, float>(f)))));
    CASE("uf_isnan_expr", pa(eval(unary<uf::isnan, double>(unary<uf::log, double>(a)))));
    CASE("uf_maximum_expr", pa(eval(binary<uf::maximum, double>(a, 0.5))));
    CASE("uf_power_int_expr", pa(eval(binary<uf::power, int64_t>(mk<int64_t>({6}, true), 2))));
    CASE("uf_power_int_neg", pa(eval(binary<uf::power, int64_t>(mk<int64_t>({3}, true), -1))));
    CASE("uf_abs_c_expr", pa(eval(unary<uf::absolute, complex128>(mk<complex128>({4})))));
    CASE("uf_exp_c_expr", pa(eval(unary<uf::exp, complex128>(mk<complex128>({4})))));
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "scalars")) return run_scalars();
    creation_cases();
    reduce_cases();
    linalg_cases();
    shape_cases();
    ufunc_array_cases();
    return 0;
}
