"""`transpile annotate`: the HTML report, opened in headless Chromium (Debian's
chromium package, installed by .ci/run).  A script appended to a copy of the
page clicks lines the way a user does and records what the browser shows:
the marks (classes and their computed colours), the inferred types, and the
C++ that a click expands and a second click folds away."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from html import unescape
from pathlib import Path

import pytest

from transpile import cli

SOURCE = textwrap.dedent('''\
    from __future__ import annotations
    import numpy as np
    from transpile import jit

    N = 3


    @jit
    def good(a: float, x: float64[:]):
        y = a * x
        # a comment
        t = 0.0
        for i in range(x.shape[0]):
            t += y[i] * N
        return t


    @jit(fullgraph=True)
    def bad(x: float64[:]):
        z = np.zeros(3)
        z = 1.0
        return z


    @jit
    def mixed(x: float64[:]):
        z = np.zeros(3)
        z = x.sum()
        return x


    @jit
    def gen(x: float64[:]):
        yield x


    @jit
    def nosig(x):
        y = x
        return y


    def plain(v):
        return v + 1


    alias = good


    @jit
    def gen_nosig(x):
        yield x


    print("top-level code ran")
    raise SystemExit(3)
''')

PROBE = '''
<script>
(function () {
  function state(n) {
    var l = document.getElementById('L' + n), x = document.getElementById('X' + n);
    return {cls: l.className, bg: getComputedStyle(l).backgroundColor,
            types: l.querySelector('.ty').textContent, title: l.title,
            reason: l.querySelector('.reason') ? l.querySelector('.reason').textContent : '', mark: l.querySelector('.mark').textContent,
            cxx_visible: !!(x && x.offsetHeight > 0), cxx: x ? x.textContent : null};
  }
  function box(e) { var b = e.getBoundingClientRect(); return {l: b.left, r: b.right, t: b.top, b: b.bottom}; }
  function layout(n) {
    var l = document.getElementById('L' + n);
    return {line: box(l), code: box(l.querySelector('.code')), ty: box(l.querySelector('.ty')),
            reason: box(l.querySelector('.reason')), scroll: l.scrollWidth, client: l.clientWidth};
  }
  var r = {before: {}, after: {}, folded: null, others_hidden: true, layout: {}};
  [21, 28].forEach(function (n) { r.layout[n] = layout(n); });
  [5, 10, 11, 14, 21, 28, 34, 39, 40, 44].forEach(function (n) { r.before[n] = state(n); });
  document.getElementById('L14').click();
  [10, 14].forEach(function (n) { r.after[n] = state(n); });
  document.querySelectorAll('.cxx').forEach(function (x) {
    if (x.id !== 'X14' && x.offsetHeight > 0) r.others_hidden = false; });
  document.querySelector('#L14 .code').click();
  r.folded = state(14).cxx_visible;
  var out = document.createElement('pre');
  out.id = 'probe-result';
  out.textContent = JSON.stringify(r);
  document.body.appendChild(out);
})();
</script>
'''


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    assert exe, "chromium is not installed (.ci/run installs Debian's chromium package)"
    return exe


@pytest.fixture
def report(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "annkern.py"
    src.write_text(SOURCE)
    out = tmp_path / "report.html"
    try:
        assert cli.main(["annotate", str(src), "-o", str(out)]) == 0
    finally:
        sys.modules.pop("annkern", None)
        while str(tmp_path) in sys.path:
            sys.path.remove(str(tmp_path))
    return out


def test_annotate_does_not_run_the_files_code(report, capsys):
    """The report was written although the file prints and raises SystemExit at
    top level: annotate reads definitions only (--run imports it normally)."""
    assert report.is_file()
    assert "top-level code ran" not in capsys.readouterr().out


def test_annotate_run_executes_the_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "annrun.py"
    src.write_text("from transpile import jit\n\n\n@jit\ndef one(x: float):\n    return x + 1.0\n\n\n"
                   "print('top-level code ran')\n")
    try:
        assert cli.main(["annotate", "--run", str(src), "-o", str(tmp_path / "r.html")]) == 0
    finally:
        sys.modules.pop("annrun", None)
        while str(tmp_path) in sys.path:
            sys.path.remove(str(tmp_path))
    assert "top-level code ran" in capsys.readouterr().out


def test_report_is_self_contained(report):
    page = report.read_text()
    assert not re.search(r"""(src|href)=['"](https?:|//)""", page)  # nothing fetched from elsewhere
    assert "<style>" in page and "<script>" in page
    summary = json.loads(unescape(re.search(r"<script type='application/json' id='summary'>(.*?)</script>", page,
                                             re.S).group(1)))
    names = [f["name"] for f in summary["functions"]]
    assert len(names) == len(set(names))  # one row per function (alias = good is not a second one)
    status = {f["name"]: f["status"] for f in summary["functions"]}
    assert status == {"good": "compiled", "bad": "failed", "mixed": "compiled", "gen": "runs in CPython",
                      "nosig": "no signature", "gen_nosig": "runs in CPython"}
    errors = {f["name"]: f["errors"] for f in summary["functions"]}
    assert errors["gen_nosig"] == ["the whole function runs in CPython (JIT Fallback): generators and coroutines "
                                   "run in CPython"]
    assert len(errors["gen"]) == len(set(errors["gen"]))


def test_report_in_headless_chromium(report, tmp_path):
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
           f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=900,700", "--dump-dom",
           probe.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    m = re.search(r'<pre id="probe-result">(.*?)</pre>', proc.stdout, re.S)
    assert m, proc.stdout[-2000:]
    r = json.loads(unescape(m.group(1)))
    before, after = r["before"], r["after"]

    # marks: classes, symbols and the colours the browser paints
    green, red, grey, amber = "rgb(232, 247, 232)", "rgb(253, 228, 228)", "rgb(243, 243, 243)", "rgb(255, 244, 214)"
    assert "compiled" in before["10"]["cls"] and before["10"]["mark"] == "✓" and before["10"]["bg"] == green
    assert "compiled" in before["14"]["cls"] and before["14"]["bg"] == green
    assert before["11"]["cls"].split() == ["line"] and before["11"]["mark"] == ""  # a comment: no mark
    assert "error" in before["21"]["cls"] and before["21"]["mark"] == "✗" and before["21"]["bg"] == red
    assert "variable 'z' holds values of two incompatible types" in before["21"]["reason"]
    assert "no signature known" in before["39"]["reason"]
    assert "error" in before["39"]["cls"] and before["39"]["bg"] == red  # nosig: no signature known
    assert "call it once" in before["39"]["reason"]  # the remedies on its first line, its others point there
    assert before["40"]["reason"] == "not compiled: no signature known (see line 39)"
    assert "python" in before["5"]["cls"] and before["44"]["bg"] == grey  # plain Python
    # JIT Fallback: one statement of a compiled function, and a whole generator
    assert "fallback" in before["28"]["cls"] and before["28"]["mark"] == "↯" and before["28"]["bg"] == amber
    assert "runs as Python (JIT Fallback): variable 'z' holds values of two incompatible" in before["28"]["reason"]
    assert "runs as Python" in before["28"]["cxx"]  # its C++: the call into the Python region
    assert "fallback" in before["34"]["cls"] and "the whole function runs in CPython" in before["34"]["reason"]

    # long reasons: on their own row under the code and the types, wrapped inside the line (nothing spills
    # over the types column or past the page)
    for n in ("21", "28"):
        box = r["layout"][n]
        assert box["reason"]["t"] >= max(box["code"]["b"], box["ty"]["b"]) - 0.5, box
        assert box["reason"]["r"] <= box["line"]["r"] + 0.5 and box["reason"]["l"] >= box["code"]["l"] - 0.5, box
        assert box["scroll"] <= box["client"] + 1, box
    assert r["layout"]["28"]["reason"]["b"] - r["layout"]["28"]["reason"]["t"] > 20  # it wrapped

    # inferred types beside the lines
    assert before["10"]["types"] == "a: float, x: float64[:], y: float64[::1]"
    assert "i: int" in before["14"]["types"] and "t: float64" in before["14"]["types"]

    # nothing expanded at first; a click shows line 14's C++, a second click folds it
    assert not before["14"]["cxx_visible"]
    assert after["14"]["cxx_visible"] and not after["10"]["cxx_visible"] and r["others_hidden"]
    assert "annkern.py:14  t += y[i] * N" in after["14"]["cxx"]
    assert "tr_line = 14;" in after["14"]["cxx"]
    assert r["folded"] is False


def test_reasons_in_the_page(report):
    page = unescape(report.read_text())
    assert "variable 'z' holds values of two incompatible types" in page
    assert "not compiled: no signature known" in page
    assert "not compiled: plain Python (not in a @jit function)" in page
