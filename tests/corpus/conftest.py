"""Prints the corpus count after the test run (issue 7's target: every
function correct, >= 90% compiled with no fallback; reported, not asserted)."""
from __future__ import annotations

from ._record import RESULTS


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not RESULTS:
        return
    write = terminalreporter.write_line
    total = len(RESULTS)
    clean = [n for n, r in RESULTS.items() if r["status"] == "ok" and not r["fallbacks"]]
    wrong = [n for n, r in RESULTS.items() if r["status"] != "ok"]
    terminalreporter.section("transpile corpus")
    write(f"corpus: {len(clean)}/{total} functions compiled with no fallback ({100 * len(clean) // total}%), "
          f"{total - len(wrong)}/{total} correct")
    for name, r in RESULTS.items():
        if r["fallbacks"]:
            write(f"  fallback  {name}: {r['fallbacks'][0]}"
                  + (f" (+{len(r['fallbacks']) - 1} more)" if len(r["fallbacks"]) > 1 else ""))
    for name in wrong:
        known = RESULTS[name].get("known")
        write(f"  WRONG     {name}: {RESULTS[name].get('error', '')}" + (f" [known: {known}]" if known else ""))
