"""Lists of str in compiled code (issue 13: peer code keeps names and labels
in lists): displays, append/pop/insert, indexing and assignment, `in`,
count/index, sorted/min/max, sep.join, iteration, comprehensions, printing, lists of
str passed from Python (mutations written back) and returned; and
str.upper()/lower() of text that is not ASCII, which compiled code hands to
Python's own full Unicode case mapping.  Differential tests against CPython;
a display of str literals given to a library call (np.nditer's op_flags) is
still read while compiling."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from transpile import jit as plain_jit
from transpile import prange

from ._support import jit


@jit
def label_ops(names, k):
    out = 0
    if "bb" in names:
        out += 1
    names.append("zz")
    names[0] = "first"
    ordered = sorted(names)
    last = names.pop()
    where = names.index("bb")
    both = names + ["x"]
    for i, s in enumerate(names):
        if s == "bb":
            out += i * k
    shouted = [s.upper() for s in names]
    return out, ordered, last, where, both, shouted, names.count("bb"), max(names), min(names), len(names)


@jit
def made_here(n):
    seen = ["start"]
    for i in range(n):
        seen.append(f"step {i}")
    seen.insert(1, "second")
    print(seen)
    print(seen[1:], len(seen[1:]))
    return seen, seen[-1]


@jit
def index_of_label(labels, wanted):
    for i in range(len(labels)):
        if labels[i] == wanted:
            return i
    return -1


@jit
def case_of(s):
    return s.upper(), s.lower(), s.startswith("É"), len(s.upper())


def run_both(fn, *args):
    py_args, jit_args = copy.deepcopy(args), copy.deepcopy(args)
    expected = fn.py_func(*py_args)
    got = fn(*jit_args)
    assert type(got) is type(expected) and got == expected, (got, expected)
    assert jit_args == py_args, "the arguments after the call"
    return got


def test_lists_of_str_from_python_and_back():
    run_both(label_ops, ["a", "bb", "c"], 3)
    run_both(label_ops, ["x", "bb", "straße", "ΣΑΣ", "é"], 2)  # UTF-8 text: sorted, compared, counted as Python does
    run_both(index_of_label, ["x", "yy", "z"], "z")
    run_both(index_of_label, [], "z")


def test_lists_of_str_made_in_compiled_code_print_as_python_does(capsys):
    expected = made_here.py_func(3)
    expected_text = capsys.readouterr().out
    got = made_here(3)
    assert got == expected and capsys.readouterr().out == expected_text


@jit
def joined(names, a, b):
    t = (a, b)
    return "-".join(names), ", ".join(t), "".join([]), "x".join(["only"]), " ".join([s.upper() for s in names])


def test_join_of_lists_and_tuples_of_str():
    run_both(joined, ["a", "bb"], "p", "q")
    run_both(joined, [], "é", "ß")


@jit
def pick(names, i):
    return names[i]


def test_errors_are_cpythons():
    for fn, args, error in ((label_ops, (["a", "c"], 1), ValueError), (pick, (["a", "b"], 5), IndexError),
                            (pick, (["a", "b"], -3), IndexError)):
        with pytest.raises(error) as python:
            fn.py_func(*args)
        with pytest.raises(error) as compiled:
            fn(*args)
        assert str(compiled.value) == str(python.value)
    assert pick(["a", "b"], -1) == "b"


@pytest.mark.parametrize("text", ["abc", "é straße İ", "ΣΑΣ", "ǅ ﬁ", ""])
def test_case_mapping_of_any_text_is_pythons(text):
    run_both(case_of, text)


def test_a_display_of_str_literals_given_to_a_library_call_is_read_while_compiling():
    @jit
    def double_in_place(a):
        for x in np.nditer(a, op_flags=[["readwrite"]]):
            x[...] = 2 * x
        return a

    a = np.arange(4.0)
    np.testing.assert_array_equal(double_in_place(a.copy()), double_in_place.py_func(a.copy()))


@jit
def reprs(s, names):
    print((s, 1))
    return f"{s!r}", "%r" % s, f"{names[0]!r}", f"[{s!r}]"


@pytest.mark.parametrize("text", ["it's", 'a"b', "both'\"", "\t\x00\u200b", "e\u0301", "\x7f\x80", "\U0001F600",
                                  "\u2028", "\xa0\xad"])
def test_repr_of_any_text_is_pythons(text, capsys):
    # which code points repr() escapes comes from Python's Unicode tables: compiled code asks Python
    # for text that is not ASCII
    expected = reprs.py_func(text, [text])
    expected_text = capsys.readouterr().out
    assert reprs(text, [text]) == expected
    assert capsys.readouterr().out == expected_text


@jit
def repeated(n, s):
    return "-" * n, n * "ab", s * 2, s * -1, "x" * True


def test_str_repetition():
    for n in (0, 3, -2):
        run_both(repeated, n, "é")
    for n, text, error in ((2 ** 62, "ab", OverflowError), (2 ** 62, "a", MemoryError)):
        with pytest.raises(error):
            times.py_func(n, text)
        with pytest.raises(error):
            times(n, text)


@jit
def times(n, s):
    return s * n


def _repr_lengths(s, n):
    out = np.zeros(n, dtype=np.int64)
    for i in prange(n):
        out[i] = len(f"{s!r}") + i
    return out


def test_a_prange_loop_writing_text_through_python_runs_in_order():
    # repr() of text that is not ASCII calls into Python, which worker threads may not do
    f = plain_jit(_repr_lengths, jit_level="O1")
    np.testing.assert_array_equal(f("a\u200bé", 8), _repr_lengths("a\u200bé", 8))
    assert "prange loop run in order: line" in f.inspect_cxx()


@jit
def word_frequencies(text):
    counts = {}
    for w in text.lower().split():
        w = w.strip(".,!?")
        if w:
            counts[w] = counts.get(w, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    by_name = sorted(counts, key=lambda k: k[::-1], reverse=True)
    return ranked, by_name, min(counts, key=lambda k: (len(k), k)), max(counts.keys(), key=lambda k: k)


@pytest.mark.parametrize("text", ["The cat. The dog! a cat?", "Ünïcode über alles, über Zürich! zebra Ä", "one"])
def test_keys_that_are_strs_order_by_code_points(check, text):
    check(word_frequencies, text)
