// itertools.product / combinations in compiled code: one loop over an
// odometer of indices (break/continue behave as in Python), the elements
// read from the iterables by index.
#pragma once
#include <stdint.h>

namespace tr {
namespace iter {

// product: idx[k] runs over [0, len[k]), the last fastest.
template <int W> struct Product {
    int64_t len[W];
    int64_t idx[W];
    bool begin() {
        for (int k = 0; k < W; ++k) {
            if (len[k] <= 0) return false;
            idx[k] = 0;
        }
        return true;
    }
    bool next() {
        for (int k = W - 1; k >= 0; --k) {
            if (++idx[k] < len[k]) return true;
            idx[k] = 0;
        }
        return false;
    }
};

// combinations(range(n), R): increasing index tuples in lexicographic order.
template <int R> struct Combinations {
    int64_t n;
    int64_t idx[R];
    bool begin() {
        if (R > n) return false;
        for (int k = 0; k < R; ++k) idx[k] = k;
        return true;
    }
    bool next() {
        int k = R - 1;
        while (k >= 0 && idx[k] == k + n - R) --k;
        if (k < 0) return false;
        ++idx[k];
        for (int j = k + 1; j < R; ++j) idx[j] = idx[j - 1] + 1;
        return true;
    }
};

}  // namespace iter
}  // namespace tr
