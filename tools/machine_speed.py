"""How fast this machine is today: one fixed piece of work in Python and in Chromium's JavaScript (issue 31).

    .venv/bin/python tools/machine_speed.py            # both, median of 5 each
    .venv/bin/python tools/machine_speed.py --no-browser

A reference, not a test. This project's machine is a new virtual machine at each session, and its speed moves
a lot: the same app page took 3.7 CPU-s on one and 5.0 on another, a few hours apart (session 16); the same
suite 1005 and 1590 CPU-s. A quarter of a fast core is a faster "slow laptop" than a quarter of a slow one, so a
time target met on one machine may be missed on the next with the same code. tools/measure_site.py prints these
figures beside its own, so two sessions' figures can be compared: divide by the reference, or say which machine.

* **Python**: a loop of integer sums, string joins and dict lookups in this interpreter, in CPU seconds
  (``time.process_time``: another process on the machine does not count, a slower core does).
* **Chromium's JavaScript**: a similar loop in a blank page of Debian's headless chromium, timed inside the page
  with ``performance.now()`` (wall time: run it on an idle machine; 4 runs of 5 a minute apart moved by a few
  per cent).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import time

#: the work of one measurement; about 1 CPU-s on this project's machine in session 16
PY_ROUNDS = 12_000_000
JS_ROUNDS = 240_000_000

JS_LOOP = """(rounds) => {
  const t0 = performance.now();
  let total = 0; const table = new Map();
  for (let i = 0; i < rounds; i++) {
    total = (total + i * 7) % 1000003;
    if ((i & 1023) === 0) table.set('k' + (i % 997), total);
  }
  return [(performance.now() - t0) / 1000, total + table.size];
}"""


def python_loop(rounds: int = PY_ROUNDS) -> float:
    """CPU seconds of the reference loop in this interpreter."""
    t0 = time.process_time()
    total, table, words = 0, {}, []
    for i in range(rounds):
        total = (total + i * 7) % 1_000_003
        if i % 64 == 0:
            words.append(str(total))
            table[i % 997] = "".join(words[-3:])
    if not table:  # the loop's result is used, so nothing may skip it
        raise AssertionError(total)
    return time.process_time() - t0


def js_loops(runs: int, chromium: str) -> list[float]:
    """Seconds of the reference loop in a blank page of ``chromium``, ``runs`` times (one browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page()
            page.evaluate(JS_LOOP, JS_ROUNDS // 10)  # warm: the first run also compiles
            return [page.evaluate(JS_LOOP, JS_ROUNDS)[0] for _ in range(runs)]
        finally:
            browser.close()


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"


def reference(runs: int = 5, browser: bool = True) -> str:
    """One line: the two references, medians and ranges of ``runs`` each."""
    line = f"Python {spread([python_loop() for _ in range(runs)])} CPU"
    chromium = shutil.which("chromium")
    if browser and chromium:
        line += f"; Chromium's JavaScript {spread(js_loops(runs, chromium))}"
    return f"this machine's reference loops (tools/machine_speed.py, median of {runs}): {line}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="measurements of each loop (median and range)")
    ap.add_argument("--no-browser", dest="browser", action="store_false", help="the Python loop only")
    args = ap.parse_args(argv)
    if args.runs < 1:
        print(f"--runs {args.runs}: give at least 1")
        return 1
    print(reference(args.runs, args.browser))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
