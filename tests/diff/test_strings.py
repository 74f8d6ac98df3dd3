"""Strings compiled natively (issue 7): literals, ==/!=, in, +, len,
f-strings and str() of numbers with CPython's exact text, str arguments
and results; against CPython."""
from __future__ import annotations

import math
import random
import struct
import warnings

import numpy as np
import pytest

from ._support import jit


@jit
def basics(mode, n, x):
    a = "linear"
    b = a + "-" + mode
    eq = (mode == "linear", mode != "cubic", "lin" in mode, "xyz" not in b, mode in ("cubic", "linear"),
          mode in ("a", "b"), mode == 3)
    s = ""
    for i in range(n):
        s += str(i)
    f1 = f"n={n} x={x} ok={n > 2} mode={mode!r} {{braces}}"
    f2 = f"{x:.3f}|{n:5d}|{n:05}|{x:10}|{x:e}|{-x:09.2f}|{n:.2f}"
    u = "héllo"
    return b, eq, s, f1, f2, len(b), len(u), u, str(True), str(n), str(x), str(-0.0), str(1e16), str(1e-5), \
        mode.startswith("lin"), mode.upper(), "" == str(""), not "", bool(mode)


@pytest.mark.parametrize("mode,n,x", [("linear", 4, 0.1), ("cubic", 12, -2.5e-7), ("", 0, 1e22)])
def test_basics(check, mode, n, x):
    check(basics, mode, n, x)


@jit
def text_of(x):
    return str(x), f"{x}"


def test_float_text_is_cpython_repr():
    random.seed(7)
    values = [0.1, 0.2 + 0.1, 1 / 3, 2.0 ** 70, 5e-324, 1.7976931348623157e308, math.pi * 1e15, 1e16, 123456789.0,
              float("inf"), float("-inf"), float("nan"), -0.0, 0.0001, 0.00001]
    values += [struct.unpack("<d", struct.pack("<Q", random.getrandbits(64)))[0] for _ in range(300)]
    values += [math.ldexp(1.0, e) for e in range(-1074, 1024, 37)]
    for v in values:
        assert text_of(v) == (str(v), f"{v}"), v
    for v in (0, -5, 2**63 - 1, -2**63, True, False):
        assert text_of(v) == (str(v), f"{v}")
    assert text_of(np.float64(0.1)) == ("0.1", "0.1")
    assert text_of(np.int32(-7)) == ("-7", "-7")


@jit
def pick(mode, a):
    if mode == "sum":
        return float(a.sum())
    elif mode == "max":
        return float(a.max())
    return -1.0


def test_str_argument_dispatch(check):
    a = np.arange(5.0)
    for mode in ("sum", "max", "other"):
        check(pick, mode, a)


@jit
def label(i):
    return "even" if i % 2 == 0 else "odd", {"n": i}


def test_str_results_and_keys(check):
    assert label(3) == ("odd", {"n": 3})
    assert type(label(4)[0]) is str


def _next(counter):
    counter[0] += 1
    return counter[0]


@jit
def formatted(n, x, label):
    a = "{} items, {:.3f} each".format(n, x)
    b = "{1}/{0} {0!r}".format(label, n)  # names used twice and out of order
    c = "{name}: {value:10.2e}|{:5d}".format(n, name=label, value=x)
    d = "{{literal}} {}".format(x * 2.0)
    return a, b, c, d, len("{:08.3f}".format(-x))


@pytest.mark.parametrize("n,x,label", [(3, 0.1, "ab"), (-12, -1e300, "é"), (0, float("nan"), "")])
def test_str_format_is_cpythons(check, n, x, label):
    check(formatted, n, x, label)


def test_str_format_keeps_pythons_evaluation():
    from transpile.frontend.str_format import as_fstring
    from transpile.hir import nodes as h

    call = h.Call(None, h.Name(None, "f"), (), ())
    other = h.Call(None, h.Name(None, "g"), (), ())
    assert as_fstring(None, "{} {}", (call, other), ()) is not None  # each once, in order
    assert as_fstring(None, "{1} {0}", (call, other), ()) is None  # out of order: calls would swap
    assert as_fstring(None, "{0} {0}", (call,), ()) is None  # twice: the call would run twice
    assert as_fstring(None, "{}", (call, other), ()) is None  # g() unused but still called by Python
    assert as_fstring(None, "{0.real} {}", (call,), ()) is None  # attribute fields stay str.format
    assert as_fstring(None, "{} {0}", (call,), ()) is None  # mixed numbering: str.format's ValueError


@jit
def percent_formats(n, x, label, k):
    a = "%d items, %.3f each" % (n, x)
    b = "%s=%r (%5.1f%%) %05d|%e|%i" % (label, label, x, k, x, x)  # %d/%i of a float: int(x), as CPython
    c = "%s" % label
    d = "%d" % k
    e = "%s and %s" % (n, x)
    return a, b, c, d, e


@pytest.mark.parametrize("n,x,label,k", [(3, 0.1, "ab", np.int32(7)), (-12, -2.5e10, "é'", np.int32(-42)),
                                         (0, 1e300, "", np.int32(0)), (1, float("nan"), "n", np.int32(1))])
def test_percent_formatting_is_cpythons(check, n, x, label, k):
    check(percent_formats, n, x, label, k)  # the nan case: CPython's ValueError from %d of nan


def repr_of_numpy_scalar(x):
    return f"{x!r}"


def test_repr_of_a_numpy_scalar_runs_as_python():
    from transpile import jit as plain_jit
    from transpile.diagnostics import UnsupportedSyntaxError

    with pytest.raises(UnsupportedSyntaxError, match="repr.. of a NumPy scalar"):
        plain_jit(repr_of_numpy_scalar, fullgraph=True)(np.float64(1.5))
    with pytest.warns(Warning, match="JIT Fallback"):
        assert plain_jit(repr_of_numpy_scalar)(np.float64(1.5)) == repr(np.float64(1.5))


@jit
def strs_or_raise(x):
    s = "a" + "b"
    if x < 0:
        raise ValueError("negative")
    return s, "c" + s, x


def test_a_failed_call_returning_strs_releases_nothing_it_did_not_get():
    # the bridge once released the unwritten buffers of str results when the call raised (a crash)
    for _ in range(50):
        with pytest.raises(ValueError, match="negative"):
            strs_or_raise(-1)
    assert strs_or_raise(2) == ("ab", "cab", 2)


@jit
def nan_text(x):
    return f"{x:.3f}|{x:8.2e}|{x}|{-x:E}", "%f %e" % (x, -x)


def test_a_nan_with_its_sign_bit_set_is_written_nan(check):
    # printf writes "-nan" for a NaN whose sign bit is set; CPython writes "nan" for every NaN
    check(nan_text, math.copysign(float("nan"), -1.0))
    check(nan_text, float("nan"))


@jit
def signed_aligned_general(x, n):
    return (f"{x:+.3f}|{x: .2e}|{x:<12.4g}|{x:>12.4G}|{x:g}|{x:.0g}|{x:.17g}|{x:+g}|{x:012.3e}|{x:-.2f}",
            f"{n:<8d}|{n:+d}|{n: 5d}|{n:>10}|{n:<10}|{n:g}",
            "%+.3f|% .2e|%-12.4g|%12.4G|%g|%-8d|%+d|% 5d|%012.3e|%-08.2f" % (x, x, x, x, x, n, n, n, x, x))


@pytest.mark.parametrize("x", [0.0, -0.0, 1e-5, 1e-4, 123456.789, 1e16, 9.999995, 0.000123456, 1e300, 5e-324,
                               float("inf"), -float("inf"), float("nan"), -2.5, 1234567.0, 100.0])
def test_signs_alignment_and_general_formats(check, x):
    # printf gives CPython's text for these specs; infinities and NaNs are written as CPython writes them
    # (a 0 flag pads with zeros after the sign, where printf pads with spaces)
    check(signed_aligned_general, x, int(x) if abs(x) < 1e15 else -42)


@jit
def str_specs(label):
    a = f"{label:>10}|{label:<6}|{label:^9}|{label:*^9}|{label:.2}|{label:05}|{label:0>5}|{label:010.3}"
    b = f"[{label:─^12}] [{label!r:>12}] [{label:s}] [{label:>3s}] [{label:.0}] [{label:^0}]"
    c = "{:>8}|{:<4.1}|{name:^7}".format(label, label, name=label)
    return a, b, c


@pytest.mark.parametrize("label", ["abc", "", "héllo wörld", "日本", "x" * 20, "a'b"])
def test_str_format_specs_are_cpythons(check, label):
    """Fill, alignment, width and precision count code points, as CPython does
    (a non-ASCII fill too); a 0 flag without a fill of its own fills with zeros."""
    check(str_specs, label)


@jit
def str_spec_python_refuses(label):
    return f"{label:+5}"


def test_a_str_spec_python_refuses_runs_as_python():
    """A sign in a str's spec: CPython's ValueError, from CPython (fullgraph names the spec)."""
    from transpile import jit as plain_jit

    with pytest.raises(Exception, match="format spec '\\+5' of a str is not supported"):
        str_spec_python_refuses("ab")
    fallback = plain_jit(str_spec_python_refuses.py_func)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fallback warning (given where it compiles, not from a warm cache)
        with pytest.raises(ValueError, match="Sign not allowed in string format specifier"):
            fallback("ab")
    assert [r["source"] for r in fallback.fallbacks()] == ['return f"{label:+5}"']


@jit
def justified(label, width, fill):
    return (label.ljust(width), label.rjust(width, fill), label.center(width), label.center(width, fill),
            label.zfill(width), "%-8s|%5.2s|%-6r|%4s" % (label, label, label, width))


@pytest.mark.parametrize("label", ["ab", "", "héllo", "-42", "+7", "-", "日本語x"])
@pytest.mark.parametrize("width", [-3, 0, 2, 3, 8, 9])
def test_justify_zfill_and_padded_percent_s(check, label, width):
    """center's odd pad goes where CPython puts it (left when the width is odd)."""
    check(justified, label, width, "·")


def test_a_fill_that_is_not_one_character_raises_typeerror(check):
    check(justified, "ab", 6, "xy")
    check(justified, "ab", 6, "")


SPEC = ">9.3f"


@jit
def format_builtin(x, n, label):
    return format(x, ".2e"), format(n, "05d"), format(label, "*^9"), format(x), format(label), format(x, SPEC)


@pytest.mark.parametrize("x,n,label", [(3.14159, 42, "ab"), (-1e300, -7, "héllo"), (float("inf"), 0, "")])
def test_format_builtin_with_a_spec_known_while_compiling(check, x, n, label):
    check(format_builtin, x, n, label)


@jit
def str_indexing(s, i, a, b, c):
    return (s[i], s[-1], s[a:b], s[::-1], s[a:b:c], s[:-1], s[1:], s[::2], s[b:a:-1], s[100:], s[-100:2],
            s[True], s[i:][:1])


@pytest.mark.parametrize("s,i,a,b,c", [("héllo wörld", 1, 2, 8, 2), ("日本語テキスト", -2, -5, -1, 1), ("ab", 0, 0, 5, 3),
                                       ("x", 0, 3, 1, -1), ("abc", 5, 0, 1, 1), ("abc", 0, 0, 1, 0), ("", 0, 0, 0, 1)])
def test_str_items_and_slices_count_code_points(check, s, i, a, b, c):
    """CPython's items and slices of text that is not ASCII, and its IndexError
    and ValueError (a zero step)."""
    check(str_indexing, s, i, a, b, c)


@jit
def join_fields(n):
    s = ""
    for i in range(n):
        s += str(i) + ","
    return s[:-1]


def test_the_trailing_separator_idiom(check):
    check(join_fields, 5)
    check(join_fields, 0)


@jit
def str_methods(s, sub):
    return (s.find(sub), s.rfind(sub), s.count(sub), s.replace(sub, "Ω"), s.replace("", "-"), s.count(""),
            s.split(","), s.split(), s.strip(), s.lstrip(), s.rstrip(), s.strip("xé "), s.rstrip(sub or "x"),
            s.isspace(), s.isalpha(), s.isdigit(), s.isalnum(), s.isupper(), s.islower(), s.isdecimal(),
            s.isnumeric())


# ASCII, text that is not ASCII (its tests go to Python), every Unicode whitespace str.isspace() knows
WHITESPACE = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())


@pytest.mark.parametrize("s,sub", [("a,b a", "b"), ("  héllo wörld\u3000", "ö"), ("ABC", ""), ("x\u00a0yé é", "é"),
                                   ("", ""), ("١٢٣", "٢"), ("ÀB", "b"), (WHITESPACE + "a" + WHITESPACE, "\u2028"),
                                   ("a,,b,", ","), ("ΣΑΣ", "Σ")])
def test_str_methods_count_code_points_and_unicode_whitespace(check, s, sub):
    check(str_methods, s, sub)


@jit
def str_index_of(s, sub):
    return s.index(sub)


def test_str_index_raises_value_error(check):
    check(str_index_of, "héllo", "l")
    check(str_index_of, "héllo", "z")


@jit
def over_code_points(s, a):
    n = 0
    upper = []
    for ch in s:
        n += 1
        upper.append(ch.upper())
    for i, ch in enumerate(s):
        if ch == "l":
            n += i
    t = 0.0
    for ch, x in zip(s, a):
        t += ord(ch) * x
    return n, "".join(upper), t, [chr(ord(c) + 1) for c in s], list(s), sorted(s)


@pytest.mark.parametrize("s", ["héllo", "", "日本語", "a\U0001F600b"])
def test_iterating_a_str_yields_code_points(check, s):
    check(over_code_points, s, np.arange(4.0))


@jit
def chr_ord(i, s):
    return chr(i), ord(s)


@pytest.mark.parametrize("i,s", [(0, "a"), (0x7ff, "é"), (0xd800, "\U0010ffff"), (0x10ffff, "日"), (-1, "a"),
                                 (0x110000, "a"), (65, "ab"), (65, "")])
def test_chr_and_ord_with_cpythons_errors(check, i, s):
    check(chr_ord, i, s)


@jit
def defaults(name, other):
    return name or "anonymous", name and other, name or other or "none"


@pytest.mark.parametrize("name,other", [("", ""), ("ab", ""), ("", "cd"), ("ab", "cd")])
def test_or_and_of_strs_give_one_of_them(check, name, other):
    check(defaults, name, other)


@jit
def parsed(s):
    return int(s), float(s)


@jit
def parsed_float(s):
    return float(s)


@pytest.mark.parametrize("s", ["42", " -1_000 ", "٣", "007", "12345678901234567", "abc", "1__0", "", "1.5"])
def test_int_and_float_of_a_str_are_pythons_parsers(check, s):
    """Underscores, Unicode digits and whitespace, CPython's ValueError text."""
    check(parsed, s)


@pytest.mark.parametrize("s", ["1e3", "inf", "-NaN", " 1_0.5 ", "abc", "-0", "1e400", "0x10"])
def test_float_of_a_str(check, s):
    check(parsed_float, s)


@jit
def csv_total(line):
    total = 0.0
    parts = line.split(",")
    for p in parts:
        total += float(p)
    return total, len(parts)


def test_a_csv_line(check):
    check(csv_total, "1.5,2,3e2")
    assert csv_total.fallbacks() == []


@jit
def str_order(s, k):
    """A Caesar shift with range tests on characters ("a" <= ch <= "z"), as
    published string kernels write it: strs order by code points."""
    out = ""
    for ch in s:
        if "a" <= ch <= "z":
            out += chr((ord(ch) - 97 + k) % 26 + 97)
        elif "A" <= ch <= "Z":
            out += chr((ord(ch) - 65 + k) % 26 + 65)
        else:
            out += ch
    return out, s < "m", s > "Hello", "é" > "z", "" < s, s >= s, max(s, "pear", "apple"), min("b", s)


def test_strs_order_by_code_points(check):
    check(str_order, "Hello, Wörld!", 3)
    check(str_order, "", 1)
    check(str_order, "zebra ünd ZEBRA", 25)
