"""Functions where a statement that runs as Python ends with a break,
continue or return that compiled code carries out (passes/exits.py).
Line numbers matter to the tests: add new functions at the end."""
import contextlib
import itertools

import numpy as np


def loop_return(a, k):
    s = 0.0
    for j in itertools.repeat(1, 4):   # runs as Python, and may return an int
        s += a[j] * k
        if s > 3:
            return j
    return s


def for_break_continue(a, k):
    s = 0.0
    n = 0
    for i in range(len(a)):
        try:                           # runs as Python: leaves by break or continue, after `finally`
            if a[i] > k:
                break
            if a[i] == 1.0:
                continue
        finally:
            n += 1
        s += a[i]
    else:
        s = -s                         # skipped after a break
    return s, n, i


def while_exits(a, k):
    i = 0
    t = 0.0
    while i < len(a):
        i += 1
        try:
            if i % k == 0:
                continue
            if i > 4:
                break
        except ZeroDivisionError:
            return -1                  # an int beside the tuple below
        t += a[i - 1]
    else:
        t = t * 2
    return t, i


def nested_loops(a, k):
    total = 0
    for i in range(3):
        for j in itertools.repeat(i, 3):   # runs as Python: its break leaves it only
            if j == k:
                break
            if j > 5:
                return -1.5
            total += j
        else:
            if total > 4 * k:
                break                      # in the inner loop's else: leaves the compiled loop
        total += 10
    else:
        total = -total
    return total


def path_typed(a, k):
    v = 0.5
    for i in range(len(a)):
        v = i
        try:
            if a[i] >= k:
                break                      # v is the int i here
        finally:
            pass
        v = 2.5
    return v


def bare_return(a, k):
    while True:
        for i in range(len(a)):
            with contextlib.suppress(ZeroDivisionError):
                a[i] = 1.0 / (i - k)
                if i > k + 1:
                    return
        else:
            a[0] = -7.0
            if k >= 0:
                break                      # the function then ends: None


def raises_inside(a, k):
    s = 0
    for i in range(len(a)):
        try:
            s += 10 // (i - k)             # ZeroDivisionError leaves through the region
            if i == 4:
                return s * 1.5
        finally:
            s += 1
    return s


def returns_array(a, k):
    out = np.zeros(2)
    for i in range(len(a)):
        out[0] += a[i]
        if sum(itertools.repeat(
                a[i], 2)) > k:            # a test over two lines that does not compile: the `if` runs as Python
            return out * 2
    return a[:2]


def none_beside_tuples(a, k):
    s = 0.0
    for i in range(len(a)):
        try:
            if a[i] > k:
                return None            # beside tuples whose first item is a float or an np.float64
        finally:
            pass
        s += a[i]
    return s, i
