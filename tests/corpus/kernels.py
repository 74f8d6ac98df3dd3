"""A corpus of ordinary numeric Python (issue 7): kernels of the kind found in
numeric libraries and benchmarks, written as people write them, not shaped
for the compiler.  Every function here is plain (undecorated); the tests
compile each with `transpile.jit(fn)` and compare it with CPython.

Helpers are plain functions beside their callers.  Random inputs are made
by the input builders with a fixed seed (the kernels take arrays; none
calls np.random).  At the end, CORPUS lists (function, input builder, bad
inputs with the exception CPython raises).
"""
from __future__ import annotations

import math

import numpy as np


def _rng(seed=0):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------
# Stencils, convolution, image filters
# ---------------------------------------------------------------------------

def box_blur(img):
    """3x3 mean filter; the border keeps its values."""
    h, w = img.shape
    out = img.copy()
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            s = 0.0
            for di in range(-1, 2):
                for dj in range(-1, 2):
                    s += img[i + di, j + dj]
            out[i, j] = s / 9.0
    return out


def sobel_magnitude(img):
    """Gradient magnitude with the Sobel operator (zero border)."""
    h, w = img.shape
    gx = np.zeros((h, w))
    gy = np.zeros((h, w))
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            gx[i, j] = (img[i - 1, j + 1] + 2 * img[i, j + 1] + img[i + 1, j + 1]
                        - img[i - 1, j - 1] - 2 * img[i, j - 1] - img[i + 1, j - 1])
            gy[i, j] = (img[i + 1, j - 1] + 2 * img[i + 1, j] + img[i + 1, j + 1]
                        - img[i - 1, j - 1] - 2 * img[i - 1, j] - img[i - 1, j + 1])
    return np.sqrt(gx ** 2 + gy ** 2)


def median_filter3x3(img):
    """3x3 median filter: sort the window, take the middle."""
    h, w = img.shape
    out = img.copy()
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            window = []
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    window.append(img[i + di, j + dj])
            window.sort()
            out[i, j] = window[4]
    return out


def binary_erosion(mask):
    """A pixel stays set only if its whole 3x3 neighbourhood is set."""
    h, w = mask.shape
    out = np.zeros((h, w), dtype=bool)
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            out[i, j] = mask[i - 1:i + 2, j - 1:j + 2].all()
    return out


def convolve2d_valid(img, kernel):
    """2-D convolution, 'valid' mode (kernel flipped, as in scipy.signal)."""
    kh, kw = kernel.shape
    h = img.shape[0] - kh + 1
    w = img.shape[1] - kw + 1
    if h <= 0 or w <= 0:
        raise ValueError("kernel larger than image")
    flipped = kernel[::-1, ::-1]
    out = np.empty((h, w), dtype=np.result_type(img, kernel))
    for i in range(h):
        for j in range(w):
            out[i, j] = np.sum(img[i:i + kh, j:j + kw] * flipped)
    return out


# ---------------------------------------------------------------------------
# Distances
# ---------------------------------------------------------------------------

def _sq_dist(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        d = a[k] - b[k]
        s += d * d
    return s


def pairwise_euclidean(X):
    n = X.shape[0]
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            d = math.sqrt(_sq_dist(X[i], X[j]))
            D[i, j] = d
            D[j, i] = d
    return D


EARTH_RADIUS_KM = 6371.0


def _haversine_one(lat1, lon1, lat2, lon2):
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    dphi = phi2 - phi1
    dlam = math.radians(lon2 - lon1)
    a = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(a))


def haversine_path_length(lats, lons):
    """Length in km of a path through (lat, lon) points in degrees."""
    total = 0.0
    for i in range(1, len(lats)):
        total += _haversine_one(lats[i - 1], lons[i - 1], lats[i], lons[i])
    return total


def nearest_manhattan(points, query):
    """Index of the nearest point in L1 distance, and the distance."""
    best = -1
    best_d = math.inf
    for i in range(points.shape[0]):
        d = np.abs(points[i] - query).sum()
        if d < best_d:
            best_d = d
            best = i
    return best, best_d


def cosine_similarity(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    if na == 0 or nb == 0:
        return 0.0
    return dot / (na * nb)


def edit_distance(a, b):
    """Levenshtein distance between two integer sequences."""
    n, m = len(a), len(b)
    dp = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(n + 1):
        dp[i, 0] = i
    for j in range(m + 1):
        dp[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            dp[i, j] = min(dp[i - 1, j] + 1, dp[i, j - 1] + 1, dp[i - 1, j - 1] + cost)
    return int(dp[n, m])


# ---------------------------------------------------------------------------
# Sorting and searching
# ---------------------------------------------------------------------------

def insertion_sort(a):
    out = a.copy()
    for i in range(1, len(out)):
        key = out[i]
        j = i - 1
        while j >= 0 and out[j] > key:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = key
    return out


def _partition(arr, lo, hi):
    pivot = arr[hi]
    i = lo - 1
    for j in range(lo, hi):
        if arr[j] <= pivot:
            i += 1
            arr[i], arr[j] = arr[j], arr[i]
    arr[i + 1], arr[hi] = arr[hi], arr[i + 1]
    return i + 1


def _quicksort(arr, lo, hi):
    if lo < hi:
        p = _partition(arr, lo, hi)
        _quicksort(arr, lo, p - 1)
        _quicksort(arr, p + 1, hi)


def quicksort(a):
    arr = a.copy()
    _quicksort(arr, 0, len(arr) - 1)
    return arr


def binary_search(a, x):
    """Index of x in sorted a, or -1."""
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == x:
            return mid
        elif a[mid] < x:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def merge_sorted(a, b):
    out = np.empty(len(a) + len(b), dtype=a.dtype)
    i = j = k = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out[k] = a[i]
            i += 1
        else:
            out[k] = b[j]
            j += 1
        k += 1
    while i < len(a):
        out[k] = a[i]
        i += 1
        k += 1
    while j < len(b):
        out[k] = b[j]
        j += 1
        k += 1
    return out


def top_k(a, k):
    """Indices of the k largest values, largest first (ties: lower index first)."""
    order = sorted(range(len(a)), key=lambda i: -a[i])
    return order[:k]


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------

def welford(a):
    """Mean and sample variance in one pass."""
    if len(a) < 2:
        raise ValueError("need at least two values")
    n = 0
    mean = 0.0
    m2 = 0.0
    for x in a:
        n += 1
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
    return mean, m2 / (n - 1)


def histogram_counts(a, lo, hi, nbins):
    counts = np.zeros(nbins, dtype=np.int64)
    width = (hi - lo) / nbins
    for x in a:
        if x < lo or x >= hi:
            continue
        counts[int((x - lo) / width)] += 1
    return counts


def percentile(a, q):
    """Linear-interpolation percentile (NumPy's default method)."""
    s = np.sort(a)
    pos = (len(s) - 1) * q / 100.0
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    frac = pos - lo
    return s[lo] + (s[hi] - s[lo]) * frac


def moving_average(a, w):
    if w <= 0:
        raise ValueError("window must be positive")
    c = np.cumsum(a)
    out = np.empty(len(a) - w + 1)
    out[0] = c[w - 1] / w
    for i in range(1, len(out)):
        out[i] = (c[i + w - 1] - c[i - 1]) / w
    return out


def pearson(x, y):
    mx = np.mean(x)
    my = np.mean(y)
    sxy = sxx = syy = 0.0
    for i in range(len(x)):
        dx = x[i] - mx
        dy = y[i] - my
        sxy += dx * dy
        sxx += dx * dx
        syy += dy * dy
    return sxy / math.sqrt(sxx * syy)


def zscore(a):
    return (a - a.mean()) / a.std()


def mode_int(a):
    """Most common value (smallest among ties) and its count."""
    counts = {}
    for v in a:
        counts[v] = counts.get(v, 0) + 1
    best, best_count = None, 0
    for v, c in counts.items():
        if c > best_count or (c == best_count and v < best):
            best, best_count = v, c
    return best, best_count


def describe(a):
    """Summary statistics as a tuple."""
    n = len(a)
    lo = min(a)
    hi = max(a)
    mean = sum(a) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in a) / (n - 1))
    return n, lo, hi, mean, sd


# ---------------------------------------------------------------------------
# Linear algebra
# ---------------------------------------------------------------------------

def matmul_loops(A, B):
    n, k = A.shape
    k2, m = B.shape
    if k != k2:
        raise ValueError("shapes do not align")
    C = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for p in range(k):
                s += A[i, p] * B[p, j]
            C[i, j] = s
    return C


def lu_doolittle(A):
    """LU decomposition without pivoting: A = L @ U."""
    n = A.shape[0]
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            U[i, k] = A[i, k] - sum(L[i, j] * U[j, k] for j in range(i))
        for k in range(i + 1, n):
            L[k, i] = (A[k, i] - sum(L[k, j] * U[j, i] for j in range(i))) / U[i, i]
    return L, U


def cholesky(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = A[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            if i == j:
                if s <= 0:
                    raise ValueError("matrix is not positive definite")
                L[i, i] = math.sqrt(s)
            else:
                L[i, j] = s / L[j, j]
    return L


def power_iteration(A, iters):
    v = np.ones(A.shape[0])
    lam = 0.0
    for _ in range(iters):
        w = A @ v
        lam = np.linalg.norm(w)
        v = w / lam
    return lam, v


def jacobi_solve(A, b, iters):
    n = len(b)
    x = np.zeros(n)
    for _ in range(iters):
        x_new = np.empty(n)
        for i in range(n):
            s = b[i]
            for j in range(n):
                if j != i:
                    s -= A[i, j] * x[j]
            x_new[i] = s / A[i, i]
        x = x_new
    return x


def gauss_seidel(A, b, tol=1e-10, max_iter=500):
    n = len(b)
    x = np.zeros(n)
    for it in range(max_iter):
        change = 0.0
        for i in range(n):
            s = b[i] - np.dot(A[i, :i], x[:i]) - np.dot(A[i, i + 1:], x[i + 1:])
            new = s / A[i, i]
            change = max(change, abs(new - x[i]))
            x[i] = new
        if change < tol:
            return x, it + 1
    return x, max_iter


def back_substitution(U, b):
    n = len(b)
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        if U[i, i] == 0:
            raise ZeroDivisionError("singular matrix")
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


# ---------------------------------------------------------------------------
# Simulations
# ---------------------------------------------------------------------------

def _accelerations(pos, mass, softening):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            d = pos[j] - pos[i]
            r2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2 + softening ** 2
            acc[i] += mass[j] * d / r2 ** 1.5
    return acc


def nbody_steps(pos, vel, mass, dt, steps):
    """Leapfrog integration in place; returns the kinetic energy."""
    acc = _accelerations(pos, mass, 0.01)
    for _ in range(steps):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = _accelerations(pos, mass, 0.01)
        vel += 0.5 * dt * acc
    return 0.5 * np.sum(mass * np.sum(vel ** 2, axis=1))


def _live_neighbours(grid, i, j):
    h, w = grid.shape
    count = 0
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            if di == 0 and dj == 0:
                continue
            count += grid[(i + di) % h, (j + dj) % w]
    return count


def life_step(grid):
    """One Game of Life generation on a torus."""
    h, w = grid.shape
    new = np.zeros_like(grid)
    for i in range(h):
        for j in range(w):
            n = _live_neighbours(grid, i, j)
            if grid[i, j] and (n == 2 or n == 3):
                new[i, j] = 1
            elif not grid[i, j] and n == 3:
                new[i, j] = 1
    return new


def random_walk_stats(steps):
    """Positions of a walk of +-1 steps, the farthest distance, the returns to 0."""
    pos = np.zeros(len(steps) + 1, dtype=np.int64)
    returns = 0
    farthest = 0
    for i, s in enumerate(steps):
        pos[i + 1] = pos[i] + s
        if pos[i + 1] == 0:
            returns += 1
        farthest = max(farthest, abs(pos[i + 1]))
    return pos, farthest, returns


def lotka_volterra(x0, y0, alpha, beta, delta, gamma, dt, n):
    """Forward Euler for the predator-prey equations."""
    xs = np.empty(n + 1)
    ys = np.empty(n + 1)
    xs[0], ys[0] = x0, y0
    for k in range(n):
        x, y = xs[k], ys[k]
        xs[k + 1] = x + dt * (alpha * x - beta * x * y)
        ys[k + 1] = y + dt * (delta * x * y - gamma * y)
    return xs, ys


def heat_1d(u0, alpha, steps):
    """Explicit finite differences, fixed ends."""
    u = u0.copy()
    for _ in range(steps):
        u[1:-1] = u[1:-1] + alpha * (u[:-2] - 2 * u[1:-1] + u[2:])
    return u


def sir_model(s0, i0, r0, beta, gamma, days):
    n = s0 + i0 + r0
    S, I, R = [s0], [i0], [r0]
    for _ in range(days):
        s, i, r = S[-1], I[-1], R[-1]
        new_inf = beta * s * i / n
        new_rec = gamma * i
        S.append(s - new_inf)
        I.append(i + new_inf - new_rec)
        R.append(r + new_rec)
    return np.array(S), np.array(I), np.array(R)


def logistic_map(rs, x0, transient, keep):
    """Bifurcation diagram samples: one row of `keep` iterates per r."""
    out = np.empty((len(rs), keep))
    for k in range(len(rs)):
        r = rs[k]
        x = x0
        for _ in range(transient):
            x = r * x * (1 - x)
        for t in range(keep):
            x = r * x * (1 - x)
            out[k, t] = x
    return out


# ---------------------------------------------------------------------------
# Number theory and misc
# ---------------------------------------------------------------------------

def sieve_primes(n):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for p in range(2, int(n ** 0.5) + 1):
        if is_prime[p]:
            is_prime[p * p::p] = False
    return [i for i in range(n + 1) if is_prime[i]]


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def gcd_pairs(a, b):
    out = np.empty(len(a), dtype=np.int64)
    for i in range(len(a)):
        out[i] = _gcd(a[i], b[i])
    return out


def _collatz_len(n):
    steps = 1
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def collatz_longest(limit):
    """The start below limit with the longest Collatz sequence, and its length."""
    best, best_len = 1, 1
    for start in range(1, limit):
        length = _collatz_len(start)
        if length > best_len:
            best, best_len = start, length
    return best, best_len


def fib_mod(n, m):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) % m
    return a


def prefix_sums(a):
    out = np.empty_like(a)
    total = 0
    for i in range(len(a)):
        total += a[i]
        out[i] = total
    return out


def run_length_encode(a):
    values = []
    counts = []
    if len(a) == 0:
        return values, counts
    current = a[0]
    run = 1
    for x in a[1:]:
        if x == current:
            run += 1
        else:
            values.append(current)
            counts.append(run)
            current = x
            run = 1
    values.append(current)
    counts.append(run)
    return values, counts


def horner(coeffs, x):
    """Polynomial with coefficients highest degree first, at each x."""
    result = np.zeros_like(x)
    for c in coeffs:
        result = result * x + c
    return result


def _integrand(x):
    return math.exp(-x * x) * math.cos(3 * x)


def trapezoid_integrate(a, b, n):
    h = (b - a) / n
    total = 0.5 * (_integrand(a) + _integrand(b))
    for k in range(1, n):
        total += _integrand(a + k * h)
    return total * h


def _poly_and_derivative(coeffs, x):
    p = 0.0
    dp = 0.0
    for c in coeffs:
        dp = dp * x + p
        p = p * x + c
    return p, dp


def newton_poly_root(coeffs, x0, tol=1e-12, max_iter=50):
    x = x0
    for _ in range(max_iter):
        p, dp = _poly_and_derivative(coeffs, x)
        if dp == 0:
            raise ZeroDivisionError("zero derivative")
        step = p / dp
        x -= step
        if abs(step) < tol:
            return x
    raise RuntimeError("Newton's method did not converge")


def _cubic(x):
    return x ** 3 - 2 * x - 5


def bisection(lo, hi, tol):
    flo = _cubic(lo)
    if flo * _cubic(hi) > 0:
        raise ValueError("root not bracketed")
    while hi - lo > tol:
        mid = (lo + hi) / 2
        fmid = _cubic(mid)
        if flo * fmid <= 0:
            hi = mid
        else:
            lo, flo = mid, fmid
    return (lo + hi) / 2


def mandelbrot_counts(xs, ys, max_iter):
    out = np.zeros((len(ys), len(xs)), dtype=np.int32)
    for i in range(len(ys)):
        for j in range(len(xs)):
            c = complex(xs[j], ys[i])
            z = 0j
            n = 0
            while abs(z) <= 2 and n < max_iter:
                z = z * z + c
                n += 1
            out[i, j] = n
    return out


# ---------------------------------------------------------------------------
# Signal processing
# ---------------------------------------------------------------------------

def fir_filter(x, h):
    """y[n] = sum_k h[k] x[n-k], zero initial state."""
    n, m = len(x), len(h)
    y = np.zeros(n)
    for i in range(n):
        acc = 0.0
        for k in range(min(m, i + 1)):
            acc += h[k] * x[i - k]
        y[i] = acc
    return y


def cumulative_max(a):
    out = np.empty_like(a)
    best = a[0]
    for i, v in enumerate(a):
        if v > best:
            best = v
        out[i] = best
    return out


def find_peaks(a, threshold):
    """Indices of local maxima above threshold."""
    peaks = []
    for i in range(1, len(a) - 1):
        if a[i] > threshold and a[i] > a[i - 1] and a[i] >= a[i + 1]:
            peaks.append(i)
    return peaks


def dft_naive(x):
    n = len(x)
    out = np.zeros(n, dtype=np.complex128)
    for k in range(n):
        s = 0j
        for t in range(n):
            s += x[t] * np.exp(-2j * np.pi * k * t / n)
        out[k] = s
    return out


def zero_crossings(x):
    """Number of sign changes, and where they happen (linear interpolation)."""
    where = [i + x[i] / (x[i] - x[i + 1]) for i in range(len(x) - 1) if x[i] * x[i + 1] < 0]
    return len(where), where


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

def _image(seed=1, h=12, w=10, dtype=np.float64):
    return _rng(seed).random((h, w)).astype(dtype)


def _spd(n, seed=2):
    m = _rng(seed).random((n, n))
    return m @ m.T + n * np.eye(n)


def _diag_dominant(n, seed=3):
    m = _rng(seed).random((n, n))
    return m + n * np.eye(n)


def inputs_box_blur():
    return [(_image(),), (_image(4, 6, 5, np.float32),)]


def inputs_sobel():
    return [(_image(),)]


def inputs_median():
    return [(_image(5),)]


def inputs_erosion():
    m = _rng(6).random((10, 12)) < 0.8
    return [(m,)]


def inputs_convolve():
    k = np.array([[1.0, 2.0, 1.0], [0.0, 0.0, 0.0], [-1.0, -2.0, -1.0]])
    return [(_image(7), k)]


def inputs_pairwise():
    return [(_rng(8).random((7, 3)),)]


def inputs_haversine():
    r = _rng(9)
    return [(r.uniform(-60, 60, 8), r.uniform(-180, 180, 8))]


def inputs_manhattan():
    r = _rng(10)
    return [(r.random((20, 4)), r.random(4))]


def inputs_cosine():
    r = _rng(11)
    return [(r.random(16), r.random(16)), (np.zeros(3), np.ones(3))]


def inputs_edit():
    return [(np.array([1, 2, 3, 4, 5, 6]), np.array([1, 3, 4, 7, 5, 6, 8])),
            (np.array([], dtype=np.int64), np.array([2, 2, 2]))]


def inputs_sort():
    r = _rng(12)
    return [(r.random(30),), (r.integers(-50, 50, 25),)]


def inputs_quicksort():
    r = _rng(13)
    return [(r.integers(0, 20, 40),)]


def inputs_binary_search():
    a = np.arange(0, 60, 3)
    return [(a, 27), (a, 28), (a, 0)]


def inputs_merge():
    r = _rng(14)
    return [(np.sort(r.random(9)), np.sort(r.random(13)))]


def inputs_topk():
    return [(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0]), 4)]


def inputs_welford():
    return [(_rng(15).normal(3.0, 2.0, 50),)]


def inputs_histogram():
    return [(_rng(16).normal(0.0, 1.0, 200), -2.0, 2.0, 8)]


def inputs_percentile():
    a = _rng(17).random(21)
    return [(a, 50.0), (a, 90.0)]


def inputs_moving_average():
    return [(_rng(18).random(20), 4)]


def inputs_pearson():
    r = _rng(19)
    x = r.random(30)
    return [(x, 2 * x + r.normal(0, 0.1, 30))]


def inputs_zscore():
    return [(_rng(20).random((4, 5)),)]


def inputs_mode():
    return [(np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 1]),)]


def inputs_describe():
    return [(_rng(21).random(12),)]


def inputs_matmul():
    r = _rng(22)
    return [(r.random((4, 3)), r.random((3, 5)))]


def inputs_lu():
    return [(_diag_dominant(5),)]


def inputs_cholesky():
    return [(_spd(5),)]


def inputs_power():
    return [(_spd(6), 50)]


def inputs_jacobi():
    A = _diag_dominant(5)
    return [(A, _rng(23).random(5), 30)]


def inputs_gauss_seidel():
    A = _diag_dominant(6)
    return [(A, _rng(24).random(6))]


def inputs_back_substitution():
    U = np.triu(_diag_dominant(5))
    return [(U, _rng(25).random(5))]


def inputs_nbody():
    r = _rng(26)
    return [(r.random((5, 3)), r.normal(0, 0.1, (5, 3)), r.random(5) + 0.5, 0.01, 10)]


def inputs_life():
    g = (_rng(27).random((8, 9)) < 0.35).astype(np.int64)
    return [(g,)]


def inputs_random_walk():
    return [(_rng(28).choice(np.array([-1, 1]), 40),)]


def inputs_lotka():
    return [(10.0, 5.0, 1.1, 0.4, 0.1, 0.4, 0.01, 200)]


def inputs_heat():
    u = np.zeros(21)
    u[10] = 1.0
    return [(u, 0.25, 40)]


def inputs_sir():
    return [(990.0, 10.0, 0.0, 0.3, 0.1, 60)]


def inputs_logistic():
    return [(np.linspace(2.8, 3.9, 6), 0.5, 100, 8)]


def inputs_sieve():
    return [(100,), (2,)]


def inputs_gcd():
    r = _rng(29)
    return [(r.integers(1, 1000, 15), r.integers(1, 1000, 15))]


def inputs_collatz():
    return [(300,)]


def inputs_fib():
    return [(90, 1_000_000_007), (0, 7)]


def inputs_prefix():
    return [(_rng(30).integers(-10, 10, 15),), (_rng(31).random(15),)]


def inputs_rle():
    return [(np.array([1, 1, 2, 2, 2, 3, 1, 1]),), (np.array([], dtype=np.int64),)]


def inputs_horner():
    return [(np.array([2.0, -3.0, 0.5, 1.0]), np.linspace(-2, 2, 9))]


def inputs_trapezoid():
    return [(0.0, 2.0, 100)]


def inputs_newton():
    return [(np.array([1.0, 0.0, -2.0, -5.0]), 2.0)]


def inputs_bisection():
    return [(2.0, 3.0, 1e-10)]


def inputs_mandelbrot():
    return [(np.linspace(-2.0, 0.5, 12), np.linspace(-1.1, 1.1, 9), 50)]


def inputs_fir():
    r = _rng(32)
    return [(r.random(25), np.array([0.25, 0.5, 0.25]))]


def inputs_cummax():
    return [(_rng(33).random(15),), (_rng(34).integers(0, 100, 15),)]


def inputs_peaks():
    x = np.sin(np.linspace(0, 6 * np.pi, 60)) + 0.1 * _rng(35).random(60)
    return [(x, 0.5)]


def inputs_dft():
    return [(_rng(36).random(8),)]


def inputs_zero_crossings():
    return [(np.sin(np.linspace(0.1, 10, 30)),)]


# (function, input builder, [(bad arguments, exception CPython raises)])
CORPUS = [
    (box_blur, inputs_box_blur, []),
    (sobel_magnitude, inputs_sobel, []),
    (median_filter3x3, inputs_median, []),
    (binary_erosion, inputs_erosion, []),
    (convolve2d_valid, inputs_convolve, [((np.ones((2, 2)), np.ones((3, 3))), ValueError)]),
    (pairwise_euclidean, inputs_pairwise, []),
    (haversine_path_length, inputs_haversine, []),
    (nearest_manhattan, inputs_manhattan, []),
    (cosine_similarity, inputs_cosine, []),
    (edit_distance, inputs_edit, []),
    (insertion_sort, inputs_sort, []),
    (quicksort, inputs_quicksort, []),
    (binary_search, inputs_binary_search, []),
    (merge_sorted, inputs_merge, []),
    (top_k, inputs_topk, []),
    (welford, inputs_welford, [((np.array([1.0]),), ValueError)]),
    (histogram_counts, inputs_histogram, []),
    (percentile, inputs_percentile, [((np.array([]), 50.0), IndexError)]),
    (moving_average, inputs_moving_average, [((np.ones(5), 0), ValueError)]),
    (pearson, inputs_pearson, []),
    (zscore, inputs_zscore, []),
    (mode_int, inputs_mode, []),
    (describe, inputs_describe, []),
    (matmul_loops, inputs_matmul, [((np.ones((2, 3)), np.ones((2, 3))), ValueError)]),
    (lu_doolittle, inputs_lu, []),
    (cholesky, inputs_cholesky, [((-np.eye(3),), ValueError)]),
    (power_iteration, inputs_power, []),
    (jacobi_solve, inputs_jacobi, []),
    (gauss_seidel, inputs_gauss_seidel, []),
    (back_substitution, inputs_back_substitution, [((np.zeros((3, 3)), np.ones(3)), ZeroDivisionError)]),
    (nbody_steps, inputs_nbody, []),
    (life_step, inputs_life, []),
    (random_walk_stats, inputs_random_walk, []),
    (lotka_volterra, inputs_lotka, []),
    (heat_1d, inputs_heat, []),
    (sir_model, inputs_sir, []),
    (logistic_map, inputs_logistic, []),
    (sieve_primes, inputs_sieve, []),
    (gcd_pairs, inputs_gcd, []),
    (collatz_longest, inputs_collatz, []),
    (fib_mod, inputs_fib, [((10, 0), ZeroDivisionError)]),
    (prefix_sums, inputs_prefix, []),
    (run_length_encode, inputs_rle, []),
    (horner, inputs_horner, []),
    (trapezoid_integrate, inputs_trapezoid, []),
    (newton_poly_root, inputs_newton, [((np.array([1.0, 0.0, 1.0]), 0.5), RuntimeError)]),
    (bisection, inputs_bisection, [((0.0, 1.0, 1e-6), ValueError)]),
    (mandelbrot_counts, inputs_mandelbrot, []),
    (fir_filter, inputs_fir, []),
    (cumulative_max, inputs_cummax, [((np.array([], dtype=np.float64),), IndexError)]),
    (find_peaks, inputs_peaks, []),
    (dft_naive, inputs_dft, []),
    (zero_crossings, inputs_zero_crossings, []),
]
