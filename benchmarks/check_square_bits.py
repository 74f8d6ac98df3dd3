"""The runtime's x ** 2 (scalar.hpp: tr::libm_square, which calls pow only
where the square's rounding error leaves pow's answer open) against the C
library's pow(x, 2.0), bit for bit, on many inputs: random bit patterns,
uniform and log-uniform x, consecutive doubles, the ODE benchmark's own
squares, and x built so that the exact square lies near the midpoint between
two doubles (where pow and x*x part).  Each input class is run with the FMA
instruction (as this CPU has it), with Dekker's product (-DTR_SQUARE_NO_FMA),
and built with -march=native.

Printed per class: how many x, how many differ from pow (must be 0), the share
that calls pow, and among the x where pow(x, 2) != x*x (glibc's misrounded
squares) the closest one to x*x, in ULP, beside the threshold the table gives
(the closest miss must lie above it, with room).

    python benchmarks/check_square_bits.py [--millions M]   (default 20 per class)
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from transpile.build import toolchain  # noqa: E402
from transpile.resources import runtime_dir  # noqa: E402

DRIVER = r"""
#include "transpile_rt/scalar.hpp"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <initializer_list>

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next() {  // splitmix64
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double uniform() { return double(next() >> 11) * 0x1p-53; }
static double bits(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t bits_of(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

// A 53-bit odd m whose square's bits below the rounding point are those of
// 2^(t-1) + delta (t = 52 or 53 of them): m^2 == c (mod 2^t), c = 1 (mod 8),
// a square root lifted bit by bit.  0 if no root lies in [2^52, 2^53) with
// a square of the right length.
static uint64_t root_near_midpoint(int64_t delta, int t) {
    uint64_t mask = (t == 64) ? ~0ull : ((1ull << t) - 1);
    uint64_t c = ((1ull << (t - 1)) + uint64_t(delta)) & mask;
    if ((c & 7) != 1) return 0;
    uint64_t r = 1;
    for (int i = 3; i < t; i++)
        if (((r * r - c) >> i) & 1) r += 1ull << (i - 1);
    uint64_t half = 1ull << (t - 1);
    uint64_t roots[4] = {r & mask, (0 - r) & mask, (r + half) & mask, (0 - r + half) & mask};
    for (uint64_t m : roots) {
        if (t == 52) m += 1ull << 52;
        if (m < (1ull << 52) || m >= (1ull << 53)) continue;
        unsigned __int128 sq = (unsigned __int128)m * m;
        int tail = (sq >> 105) ? 53 : 52;
        if (tail == t) return m;
    }
    return 0;
}

struct Stats {
    long n = 0, differ = 0, calls = 0, misses = 0;
    double closest_miss = 1, threshold_there = 0;  // in ULP of x*x
    double first_bad = 0;
};

static volatile double two = 2.0;  // not a constant: GCC would make pow(x, 2.0) x*x

static void check(Stats &s, double x) {
    double got = tr::libm_square(x), want = pow(x, two);
    s.n++;
    if (bits_of(got) != bits_of(want) && !(got != got && want != want)) {
        if (!s.differ) s.first_bad = x;
        s.differ++;
    }
    double p = x * x;
    uint64_t b = bits_of(p);
    int biased = int(b >> 52) & 0x7ff;
    bool fast = (b & 0x000fffffffffffffull) &&
                fabs(tr::detail::square_error(x, p)) < tr::detail::square_threshold.at[(int64_t(b) >> 52) + 1];
    if (!fast) s.calls++;
    if (want == want && bits_of(want) != b && biased > 0 && biased < 2047) {
        double ulp = bits(uint64_t(biased - 52 > 0 ? biased - 52 : 0) << 52);
        double dist = fabs(fma(x, x, -p)) / ulp;
        s.misses++;
        if (dist < s.closest_miss) {
            s.closest_miss = dist;
            s.threshold_there = tr::detail::square_threshold.at[biased + 1] / ulp;
        }
    }
}

static int report(const char *name, const Stats &s) {
    printf("  %-34s %11ld x  %ld differ  %5.2f%% call pow", name, s.n, s.differ, 100.0 * s.calls / s.n);
    if (s.misses)
        printf("  %ld pow != x*x, closest %.4f ULP from x*x (threshold %.4f)", s.misses, s.closest_miss,
               s.threshold_there);
    if (s.differ) printf("  FIRST DIFFERENCE x = %a", s.first_bad);
    printf("\n");
    return s.differ != 0;
}

int main(int argc, char **argv) {
    long n = atol(argv[1]);
    int bad = 0;
    {
        Stats s;
        for (long i = 0; i < n; i++) check(s, bits(next()));
        bad |= report("random bit patterns", s);
    }
    {
        Stats s;
        for (long i = 0; i < n; i++) check(s, uniform() * 4.0 - 2.0);
        bad |= report("uniform in [-2, 2)", s);
    }
    {
        Stats s;  // every binade whose square is finite, and those past it (overflow to inf)
        for (long i = 0; i < n; i++) check(s, ldexp(1.0 + uniform(), int(next() % 1100) - 560));
        bad |= report("log-uniform 2^-560 .. 2^540", s);
    }
    {
        Stats s;  // consecutive doubles from a few starts, and a decimal grid
        const double starts[] = {1.0, 1.4142135623730951, 0.1, 3e-150, 7e150, 2.0 - 0x1p-40};
        long per = n / 12;
        for (double x0 : starts) {
            uint64_t b = bits_of(x0);
            for (long i = 0; i < per; i++) check(s, bits(b + i));
        }
        for (long i = 0; i < n / 2; i++) check(s, (i - n / 4) * 1e-3);
        bad |= report("consecutive doubles, grid k/1000", s);
    }
    {
        Stats s;  // bench_ode.py's humps squares: (t - c)^2 + d, then squared, t on rk4's stage grid
        double dt = 2.0 / 1000000;
        for (int c = 0; c < 2; c++)
            for (long i = 0; i < 1000000 && i < n; i++) {
                double t = i * dt, tm = t + 0.5 * dt;
                for (double tt : {t, tm}) {
                    double a = tt - (c ? 0.9 : 0.3);
                    check(s, a * a + (c ? 0.04 : 0.01));
                }
            }
        bad |= report("the ODE benchmark's squares", s);
    }
    {
        Stats s;  // exact square within 2^-20 ULP of the midpoint, in many binades
        long made = 0;
        for (int64_t j = 0; made < n / 4 && j < 4 * n; j++) {
            int64_t delta = 8 * ((j & 1) ? -(j >> 1) : (j >> 1)) + 1;
            for (int t : {52, 53}) {
                uint64_t m = root_near_midpoint(delta, t);
                if (!m) continue;
                double x = ldexp(double(m), -52 + int(next() % 900) - 450);
                check(s, x);
                check(s, -x);
                made += 2;
            }
        }
        bad |= report("squares nearest the midpoint", s);
    }
    {
        Stats s;  // exact square 0.480 .. 0.500 ULP from x*x: where glibc's pow misrounds
        long made = 0;
        while (made < n / 2) {
            int t = (next() & 1) ? 52 : 53;
            double d = 0.480 + 0.020 * uniform();  // the distance from x*x, in ULP
            int64_t off = int64_t((0.5 - d) * double(1ull << t));
            int64_t delta = ((next() & 1) ? off : -off);
            delta = delta - ((delta - 1) & 7);  // = 1 (mod 8)
            uint64_t m = root_near_midpoint(delta, t);
            if (!m) continue;
            check(s, ldexp(double(m), -52 + int(next() % 400) - 200));
            made++;
        }
        bad |= report("squares 0.480-0.500 ULP from x*x", s);
    }
    {
        Stats s;  // special values, powers of two and their neighbours, subnormals, overflow
        for (int k = -1074; k <= 1023; k++) {
            double x = ldexp(1.0, k);
            for (double y : {x, -x, nextafter(x, 0.0), nextafter(x, INFINITY), -nextafter(x, INFINITY)}) check(s, y);
        }
        const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 5e-324, 1e-310, 1.4916681462400413e-154,
                                  1.3407807929942596e154, 1.3407807929942597e154, 1e200};
        for (double x : special) check(s, x);
        bad |= report("powers of two, specials", s);
    }
    return bad;
}
"""


def main() -> int:
    millions = float(sys.argv[sys.argv.index("--millions") + 1]) if "--millions" in sys.argv else 20.0
    n = int(millions * 1e6)
    compiler = toolchain.find_compiler().path
    base = [compiler, "-std=c++20", "-O2", "-fwrapv", "-fno-math-errno", "-ffp-contract=off",
            "-I", str(runtime_dir())]
    builds = {"FMA at run time (default build)": [], "Dekker's product (-DTR_SQUARE_NO_FMA)": ["-DTR_SQUARE_NO_FMA"],
              "-march=native": ["-march=native"]}
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "check.cpp")
        with open(src, "w") as f:
            f.write(DRIVER)
        for name, extra in builds.items():
            exe = os.path.join(tmp, "check")
            subprocess.run([*base, *extra, src, "-o", exe, "-lm"], check=True)
            print(f"{name}, {n} per class:", flush=True)
            failed |= subprocess.run([exe, str(n)]).returncode
    print("FAILED: results differ from pow" if failed else "all equal to pow bit for bit")
    return failed


if __name__ == "__main__":
    sys.exit(main())
