// Hand-written C++ baselines of benchmarks/kernels.py: the same algorithms,
// written the way one would by hand (raw pointers into C-contiguous arrays,
// plain loops, no bounds or overflow checks), for bench_hand_cpp.py.
//
// Built by hand_cpp.py with g++ -O3 -march=native -ffp-contract=off: no
// fused multiply-adds and no reassociation, so every float result is the
// IEEE result of the Python kernel's own order of operations, bit for bit.
// The integer kernels use int64_t; on the benchmark's inputs no value comes
// near overflow (Python's ints would not overflow at all).
// Output arrays are allocated (and zeroed where the Python kernel uses
// np.zeros) by the Python wrappers in hand_cpp.py.
#include <cmath>
#include <cstdint>
#include <vector>

extern "C" {

double dot(const double *a, const double *b, int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

void prefix_sum(const double *a, double *out, int64_t n) {
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        s += a[i];
        out[i] = s;
    }
}

void histogram(const double *x, int64_t n, int64_t *counts, int64_t nbins, double lo, double hi) {
    const double scale = nbins / (hi - lo);
    for (int64_t i = 0; i < n; ++i) {
        const int64_t b = static_cast<int64_t>((x[i] - lo) * scale);
        if (b >= 0 && b < nbins) ++counts[b];
    }
}

void stencil2d(const double *u, double *out, int64_t n, int64_t m) {
    for (int64_t i = 1; i < n - 1; ++i)
        for (int64_t j = 1; j < m - 1; ++j)
            out[i * m + j] = 0.25 * (u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1] + u[i * m + j + 1]);
}

// c: n x m, zeroed by the caller.
void matmul(const double *a, const double *b, double *c, int64_t n, int64_t k, int64_t m) {
    for (int64_t i = 0; i < n; ++i)
        for (int64_t p = 0; p < k; ++p) {
            const double aip = a[i * k + p];
            for (int64_t j = 0; j < m; ++j) c[i * m + j] += aip * b[p * m + j];
        }
}

void pairwise(const double *x, double *out, int64_t n, int64_t d) {
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double s = 0.0;
            for (int64_t k = 0; k < d; ++k) {
                const double t = x[i * d + k] - x[j * d + k];
                s += t * t;
            }
            out[i * n + j] = std::sqrt(s);
        }
}

void mandelbrot(int64_t *out, int64_t width, int64_t height, int64_t maxiter) {
    for (int64_t py = 0; py < height; ++py) {
        const double ci = -1.5 + 3.0 * py / height;
        for (int64_t px = 0; px < width; ++px) {
            const double cr = -2.0 + 3.0 * px / width;
            double zr = 0.0, zi = 0.0;
            int64_t it = 0;
            while (it < maxiter && zr * zr + zi * zi <= 4.0) {
                const double next_zr = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = next_zr;
                ++it;
            }
            out[py * width + px] = it;
        }
    }
}

// pos, vel: n x 3, updated in place.
void nbody_step(double *pos, double *vel, const double *mass, int64_t n, double dt) {
    std::vector<double> acc(3 * n, 0.0);
    for (int64_t i = 0; i < n; ++i) {
        double ax = 0.0, ay = 0.0, az = 0.0;
        for (int64_t j = 0; j < n; ++j) {
            if (i == j) continue;
            const double dx = pos[3 * j] - pos[3 * i];
            const double dy = pos[3 * j + 1] - pos[3 * i + 1];
            const double dz = pos[3 * j + 2] - pos[3 * i + 2];
            const double r2 = dx * dx + dy * dy + dz * dz + 0.01;
            const double inv = mass[j] / (r2 * std::sqrt(r2));
            ax += dx * inv;
            ay += dy * inv;
            az += dz * inv;
        }
        acc[3 * i] = ax;
        acc[3 * i + 1] = ay;
        acc[3 * i + 2] = az;
    }
    for (int64_t i = 0; i < 3 * n; ++i) {
        vel[i] += dt * acc[i];
        pos[i] += dt * vel[i];
    }
}

int64_t collatz(int64_t n) {
    int64_t total = 0;
    for (int64_t start = 1; start <= n; ++start) {
        int64_t x = start, steps = 0;
        while (x != 1) {
            x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
            ++steps;
        }
        total += steps;
    }
    return total;
}

int64_t fib_mod(int64_t n, int64_t m) {
    int64_t a = 0, b = 1;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t next = (a + b) % m;
        a = b;
        b = next;
    }
    return a;
}

}  // extern "C"
