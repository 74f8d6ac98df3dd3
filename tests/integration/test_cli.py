"""The `transpile` command through `cli.main(argv)` and the real executable:
help and version, a build that reports a broken function (file:line, exit
code 1) while building the rest, the cache commands, `show`, and how
signatures are read."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from transpile import aot, cli
from transpile import cache as transpile_cache
from transpile.build import toolchain
from transpile.hir import types as T
from transpile.options import Options
from transpile.resources import fingerprint

EXE = Path(sys.executable).parent / "transpile"

MODULE = '''\
from __future__ import annotations
import numpy as np
from transpile import jit


@jit
def good(a: float, x: float64[:]):
    y = a * x
    return y.sum()


@jit(fullgraph=True)
def bad(x: float64[:]):
    z = np.zeros(3)
    z = 1.0
    return z


# transpile: export nowhere(float64)
# transpile: export good(float65[:])
'''


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A directory with a module of a good and a broken function and a file that
    does not parse; the cache is private; imported modules are forgotten after."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "clikern.py").write_text(MODULE)
    (src / "cli_syntax.py").write_text("from transpile import jit\n\ndef broken(:\n    pass\n")
    (src / "unrelated.py").write_text("raise SystemExit('never imported: it does not mention the compiler')\n")
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(tmp_path / "cache"))
    fingerprint.cache_clear()  # this long-lived process keys builds as a new process would now
    before = set(sys.modules)
    yield src
    for name in set(sys.modules) - before:
        if name.startswith(("clikern", "cli_syntax", "goodonly")):
            del sys.modules[name]
    while str(src) in sys.path:
        sys.path.remove(str(src))


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_help_and_version_from_the_executable():
    assert EXE.exists(), f"console script missing at {EXE}"
    out = subprocess.run([str(EXE), "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and re.fullmatch(r"transpile \d+\.\d+\.\d+\n", out.stdout)
    out = subprocess.run([sys.executable, "-m", "transpile", "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    for cmd in ("build", "run", "show", "annotate", "cache"):
        assert cmd in out.stdout
        sub = subprocess.run([str(EXE), cmd, "--help"], capture_output=True, text=True, timeout=60)
        assert sub.returncode == 0 and f"usage: transpile {cmd}" in sub.stdout
    assert "--inplace" in subprocess.run([str(EXE), "build", "--help"], capture_output=True, text=True).stdout
    for action in ("list", "info", "clear"):
        sub = subprocess.run([str(EXE), "cache", action, "--help"], capture_output=True, text=True, timeout=60)
        assert sub.returncode == 0 and f"usage: transpile cache {action}" in sub.stdout


def test_an_unbuilt_source_tree_in_the_current_directory_names_the_install_it_hides(tmp_path):
    """`pip install .` then `python -m transpile` in the checkout imports the
    checkout's copy (no C bridge built there): the error says so and names the
    installed package rather than only asking to build the bridge."""
    import shutil

    import transpile

    installed = Path(transpile.__file__).resolve().parent
    shutil.copytree(installed, tmp_path / "transpile", ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(installed.parent)}
    out = subprocess.run([sys.executable, "-m", "transpile", "--help"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert str(tmp_path / "transpile") in last and f"installed transpile at {installed}" in last


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path):
    """`transpile cache list | head -1`: a closed pipe ends the command quietly."""
    env = {**os.environ, "TRANSPILE_CACHE_DIR": str(tmp_path)}
    proc = subprocess.Popen([str(EXE), "cache", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdout.close()  # before the command writes: its write meets a pipe with no reader
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_build_reports_broken_function_and_builds_the_rest(project, capsys):
    rc = cli.main(["build", "-j", "2", str(project)])
    out, err = capsys.readouterr()
    assert rc == 1
    kern = project / "clikern.py"
    # the broken function: its own line, the failing line and the message
    assert f"{kern}:{line_of(kern, 'def bad') - 1}: error: clikern.bad(float64[:])" in err
    assert re.search(rf"clikern.py:{line_of(kern, 'z = 1.0')}:\d+: error: variable 'z' holds values of two "
                     "incompatible types", err)
    # the export comments that name nothing / an unknown type
    assert f"{kern}:{line_of(kern, 'export nowhere')}: error: export comment names 'nowhere'" in err
    assert f"{kern}:{line_of(kern, 'float65')}: error: export comment: cannot read signature" in err
    # the file that does not parse, and the one that was never imported
    assert f"{project / 'cli_syntax.py'}:3: error: cannot import: SyntaxError" in err
    assert "unrelated" not in err + out
    assert "1 built, 0 up to date, 4 failed" in out

    # the good function is in the cache, and a new process calling it with
    # C-contiguous arrays uses it (the build was for any layout): no compile
    code = ("import json, numpy as np, clikern, transpile.dispatcher as d\n"
            "r = clikern.good(2.0, np.arange(4.0))\n"
            "print(json.dumps({'r': float(r), 'compiles': d.COMPILE_COUNT}))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"r": 12.0, "compiles": 0}

    # cache list / info / clear
    assert cli.main(["cache", "list"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"clikern\.py:good\s+\(float, float64\[:\]\)\s+\d+\.\d KiB\s+\d+ s\s+aot", out), out
    assert "1 entries" in out
    assert cli.main(["cache", "info"]) == 0
    info = capsys.readouterr().out
    assert "entries:   1 (1 built ahead of time)" in info and str(project.parent / "cache") in info
    assert cli.main(["cache", "clear", "--older-than", "1"]) == 0
    assert "removed 0 entries older than 1 days" in capsys.readouterr().out
    assert cli.main(["cache", "clear"]) == 0
    assert "removed 1 entries" in capsys.readouterr().out
    cli.main(["cache", "list"])
    assert "0 entries" in capsys.readouterr().out

    # a second build of the good function alone is now a fresh build, then up to date
    good_only = project / "goodonly.py"
    good_only.write_text(MODULE.split("@jit(fullgraph=True)")[0].replace("good", "good2"))
    assert cli.main(["build", "-q", str(good_only)]) == 0
    assert cli.main(["build", "-q", str(good_only)]) == 0
    assert "0 built, 1 up to date, 0 failed" in capsys.readouterr().out

    # --jit-level passes through: a new O1 build, which the O0-declared function
    # then uses in a new process (prebuilt code is accepted at either level)
    assert cli.main(["build", "-q", "--jit-level", "O1", str(good_only)]) == 0
    assert "1 built, 0 up to date" in capsys.readouterr().out
    levels = sorted(re.search(r"'jit_level', '(O\d)'", m["options"]).group(1) for m in transpile_cache.entries())
    assert levels == ["O0", "O1"]
    code = ("import json, numpy as np, goodonly, transpile.dispatcher as d\n"
            "r = goodonly.good2(1.0, np.ones(3))\n"
            "print(json.dumps({'r': float(r), 'compiles': d.COMPILE_COUNT}))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"r": 3.0, "compiles": 0}


def test_show_prints_python_lines_and_compiles_as_printed(project, capsys, tmp_path):
    kern = project / "clikern.py"
    assert cli.main(["show", f"{kern}:good", "--color", "never"]) == 0
    cpp = capsys.readouterr().out
    for text in ("y = a * x", "return y.sum()"):
        assert f"// clikern.py:{line_of(kern, text)}  {text}\n" in cpp
    # each Python line's comment comes before the C++ it produced
    assert cpp.index("y = a * x") < cpp.index("tr_line = 8;") < cpp.index("return y.sum()")
    src = tmp_path / "shown.cpp"
    src.write_text(cpp)
    cmd = [toolchain.find_compiler().path, *toolchain.flags(Options()), str(src), "-o", str(tmp_path / "shown.so")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr

    assert cli.main(["show", f"{kern}:good", "--signature", "float, float32[::1]"]) == 0
    assert "// good(float, float32[::1]) -> float32" in capsys.readouterr().out
    assert cli.main(["show", f"{kern}:missing"]) == 2
    assert "has no @jit function 'missing' (found: good, bad)" in capsys.readouterr().err
    assert cli.main(["show", f"{kern}:bad"]) == 2
    assert "incompatible types" in capsys.readouterr().err


def test_signatures_from_annotations(tmp_path):
    src = tmp_path / "annmod_cli.py"
    src.write_text(textwrap.dedent('''\
        import numpy as np

        def a(x: "float64[:, :]", n: int, m: "np.float32", t: "tuple[int, float]"): pass
        def b(x, n): pass
        def c(x: "float64[::1]", n): pass
        def d(x: "frozenset[int]"): pass
        def e(): pass
    '''))
    sys.path.insert(0, str(tmp_path))
    try:
        import annmod_cli as m
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("annmod_cli", None)
    assert aot.annotation_signature(m.a) == (
        (T.Array("float64", 2, "A"), T.INT, T.Scalar("float32"), T.Tuple((T.INT, T.FLOAT))), None)
    assert aot.annotation_signature(m.b)[0] is None and "no signature" in aot.annotation_signature(m.b)[1]
    assert aot.annotation_signature(m.c) == (None, "parameter(s) n have no annotation")
    assert "not a transpile type" in aot.annotation_signature(m.d)[1]
    assert aot.annotation_signature(m.e) == ((), None)


def test_usage_errors(tmp_path, capsys):
    assert cli.main([]) == 2
    assert cli.main(["build", str(tmp_path / "nope.py")]) == 1
    assert "no such file, directory or module" in capsys.readouterr().err
    assert cli.main(["build", "--jit-level", "O1", str(tmp_path)]) == 0
    assert cli.main(["annotate", str(tmp_path / "nope.py")]) == 2
    assert cli.main(["run", str(tmp_path / "nope.py")]) == 2
    with pytest.raises(SystemExit):
        cli.main(["build", "--jit-level", "O7", "x"])


USER_ERRORS = '''\
import sys
import numpy as np
from transpile import jit


@jit(fullgraph=True)
def mixed(x):
    z = np.zeros(3)
    z = 1.0
    return z


@jit(fullgraph=True)
def needs_array(x):
    return x


@jit
def pick(x, i):
    return x[i]


@jit
def first_word(words):
    return words[5]


if sys.argv[1] == "typing":
    mixed(np.ones(3))
elif sys.argv[1] == "argument":
    needs_array({"a": 1})
elif sys.argv[1] == "compiled":
    pick(np.arange(3.0), 5)
else:
    first_word([{"a list of dicts": "runs in CPython"}])
'''

USER_CALLS = {"typing": "mixed(np.ones(3))", "argument": 'needs_array({"a": 1})', "compiled": "pick(np.arange(3.0), 5)",
              "in_python": 'first_word([{"a list of dicts": "runs in CPython"}])'}


@pytest.mark.parametrize("case", list(USER_CALLS))
def test_user_errors_end_at_the_users_call(tmp_path, case):
    """The traceback of an error about the user's code (a fullgraph typing
    error, an argument fullgraph cannot compile) shows the user's call and the
    message, and no frame inside transpile; an exception of the user's code
    (raised by compiled code, or by the function run in CPython) shows the
    frames CPython would; TRANSPILE_DEBUG=1 shows them all."""
    script = tmp_path / "user_errors.py"
    script.write_text(USER_ERRORS)
    call = USER_CALLS[case]
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("TRANSPILE_DEBUG", None)
    out = subprocess.run([sys.executable, str(script), case], capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 1
    frames = re.findall(r'^  File "([^"]+)", line (\d+)', out.stderr, re.M)
    expected = [(str(script), str(line_of(script, call)))]
    if case == "in_python":
        expected.append((str(script), str(line_of(script, "return words[5]"))))
    assert frames == expected, out.stderr
    assert f"    {call}\n" in out.stderr
    if case == "typing":
        assert f"{script}:{line_of(script, 'z = 1.0')}:" in out.stderr and "error:" in out.stderr
    elif case == "argument":
        assert "UnsupportedArgumentError: needs_array(): argument 'x'" in out.stderr  # a TypeError
    elif case == "compiled":
        assert f"IndexError: index 5 is out of bounds for axis 0 with size 3\nraised in compiled code at " \
               f"{script}:{line_of(script, 'return x[i]')}" in out.stderr
    else:
        assert out.stderr.rstrip().endswith("IndexError: list index out of range")
    assert "During handling" not in out.stderr
    out = subprocess.run([sys.executable, str(script), case], capture_output=True, text=True, timeout=300,
                         env=dict(env, TRANSPILE_DEBUG="1"))
    assert out.returncode == 1 and f"{os.sep}transpile{os.sep}dispatcher.py" in out.stderr


SCRIPT_DOT = '''\
import numpy as np
from transpile import jit


@jit
def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


print(dot(np.arange(3.0), np.ones(3)))
'''


def test_a_scripts_entries_are_found_by_file_and_packages_by_dotted_name(tmp_path):
    """`python k.py` compiles dot as __main__.dot: `transpile show k.py:dot`
    (no --signature) prints that specialization and `transpile cache list`
    names it k.py:dot.  From a package's parent folder `transpile build
    mypkg.kernels` and `show mypkg.kernels:total` find it, as `python -m` does."""
    (tmp_path / "k.py").write_text(SCRIPT_DOT)
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "mypkg" / "kernels.py").write_text(
        "from transpile import jit\n\n\n@jit(signatures=['float64[:]'])\ndef total(x):\n    return x.sum()\n")
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")

    def run(*args):
        out = subprocess.run([*args], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
        assert out.returncode == 0, out.stdout + out.stderr
        return out.stdout

    assert run(sys.executable, "k.py").strip() == "3.0"
    cpp = run(str(EXE), "show", "k.py:dot", "--color", "never")
    assert "// dot(a: float64[::1], b: float64[::1]) -> float64    [k.py:6]" in cpp
    assert "// k.py:9  s += a[i] * b[i]" in cpp
    listed = run(str(EXE), "cache", "list")
    tier = "optimized" if os.environ.get("TRANSPILE_TIERED") == "0" else "quick"  # the build the run made
    assert re.search(r"^k\.py:dot\s+\(float64\[::1\], float64\[::1\]\)\s+\S+ KiB\s+\d+ s\s+" + tier + "$",
                     listed, re.M), listed
    assert "__main__" not in listed and "2 entries" not in listed  # show ran none of k.py's code
    assert "1 built" in run(str(EXE), "build", "-q", "mypkg.kernels")
    assert "// total(float64[:]) -> float64" in run(str(EXE), "show", "mypkg.kernels:total")
    assert re.search(r"^mypkg/kernels\.py:total\s+\(float64\[:\]\)", run(str(EXE), "cache", "list"), re.M)


def test_a_long_compile_shows_a_progress_line_on_a_terminal_only(tmp_path):
    """While a compile runs past TRANSPILE_PROGRESS_AFTER seconds (default 1; 0
    here) a line names the specialization on a terminal's stderr and is erased
    at the end; with stderr a pipe nothing is written."""
    import fcntl
    import pty
    import struct
    import termios

    pytest.importorskip("tqdm")
    script = tmp_path / "prog.py"
    script.write_text("from transpile import jit\n\n\n@jit\ndef g(x):\n    return x * 2.5\n\n\nprint(g(2.0))\n")
    env = dict(os.environ, TRANSPILE_CACHE="0", TRANSPILE_PROGRESS_AFTER="0", PYTHONDONTWRITEBYTECODE="1")
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    stdout, _ = proc.communicate(timeout=300)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.returncode == 0 and stdout.strip() == b"5.0"
    assert b"transpile: compiling g(float)" in seen, seen
    piped = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env)
    assert piped.returncode == 0 and piped.stderr == ""


EAGER = '''\
import json
import numpy as np
import transpile.dispatcher as d
from transpile import jit


@jit(signatures=["float64[:]"])
def total(x):
    return x.sum()


at_import = [d.COMPILE_COUNT, [[str(t) for t in s] for s in total.signatures]]
x = np.arange(5.0)
same = [repr(total(a)) == repr(total.py_func(a)) for a in (x, x[::2], np.asfortranarray(x))]
print(json.dumps({"at_import": at_import, "same": same, "compiles": d.COMPILE_COUNT,
                  "public": sorted(n for n in dir(total) if n in ("py_func", "signatures", "inspect_cxx", "compile",
                                                                  "fallbacks", "options"))}))
'''


def test_signatures_compile_at_decoration_and_serve_every_layout(tmp_path):
    """signatures=[...] compile when the function is decorated; that any-layout
    specialization serves C-contiguous, strided and Fortran calls (no compile
    more); dir(f) lists the public attributes."""
    script = tmp_path / "eager.py"
    script.write_text(EAGER)
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "-W", "error", str(script)], capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"at_import": [1, [["float64[:]"]]], "same": [True] * 3, "compiles": 1,
                                      "public": ["compile", "fallbacks", "inspect_cxx", "options", "py_func",
                                                 "signatures"]}
