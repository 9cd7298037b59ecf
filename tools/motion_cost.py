"""What the cards' glow costs Chromium while a page just sits there, with and without reduced motion (issue 28).

    flock /tmp/safari-heavy.lock .venv/bin/python tools/motion_cost.py            # 12 cards, 15 s, twice each
    flock /tmp/safari-heavy.lock .venv/bin/python tools/motion_cost.py --cards 5 --seconds 10 --runs 3

A benchmark, not a test: it prints figures and asserts nothing. table.css makes every selectable card glow
(``st-glow``, a box-shadow animation that never ends); Chromium draws a page holding one 60 times a second, for as
long as the page is open, the test's waits and sleeps included. This page holds only table.css and ``--cards``
selectable cards (no server, no kernel: a local file); each run opens it in a fresh context at 1366x768 asking for
``prefers-reduced-motion: no-preference`` or ``reduce`` (the kit's own rule stops the glow then), waits a second,
and counts the CPU seconds of the browser's processes (and Playwright's driver) over ``--seconds``. The browser
tests that check layout, words or axe ask for ``reduce`` (tests/browser/conftest.py, ``QUIET_MOTION``).

It counts with a cpuacct cgroup of its own where it can (Linux, cgroup v1, root: every process it starts, also
those that ended), else the utime+stime of its live child processes. Figures on the shared 2-core host vary by
10-20 % from run to run: the two preferences are run in turn.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import CHROMIUM_ARGS, find_chromium  # noqa: E402
from tests.cpu_times import _own_cgroup, _spent, _tree_ticks, TICKS  # noqa: E402


def page_html(cards: int) -> str:
    css = (REPO / "safari_kit" / "widgets" / "static" / "table.css").read_text(encoding="utf-8")
    cells = "".join(f'<div class="st-card st-selectable" style="height:100px;display:inline-block;margin:8px">{i}'
                    "</div>" for i in range(cards))
    return (f"<html><head><style>{css}</style></head><body><div class='safari-lab'><div class='safari-table'>"
            f"{cells}</div></div></body></html>")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=12, help="glowing cards on the page (default 12)")
    ap.add_argument("--seconds", type=float, default=15, help="how long the page sits, each run (default 15)")
    ap.add_argument("--runs", type=int, default=2, help="runs of each preference, in turn (default 2)")
    args = ap.parse_args(argv)
    chromium = find_chromium(os.environ.get("SAFARI_TEST_BROWSER") or None)
    if not chromium:
        raise SystemExit("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    group = _own_cgroup()

    def now():
        return int((group / "cpuacct.usage").read_text()) if group else _tree_ticks(os.getpid())

    def seconds(before, after) -> float:
        return (after - before) / 1e9 if group else _spent(before, after) / TICKS

    page_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"safari-motion-cost-{os.getpid()}.html"
    page_file.write_text(page_html(args.cards), encoding="utf-8")
    print(f"{args.cards} glowing cards, {args.seconds:g} s a run, CPU seconds of the browser "
          f"({'cgroup' if group else 'live processes only'}):")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                for motion in ("no-preference", "reduce"):
                    context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=motion)
                    page = context.new_page()
                    page.goto(page_file.as_uri())
                    page.wait_for_timeout(1000)
                    before, t0 = now(), time.monotonic()
                    page.wait_for_timeout(args.seconds * 1000)
                    spent = seconds(before, now())
                    print(f"  {motion:14s} {spent:6.2f} CPU-s in {time.monotonic() - t0:.1f} s "
                          f"({spent / args.seconds:.3f} CPU-s a second)", flush=True)
                    context.close()
            browser.close()
    finally:
        page_file.unlink(missing_ok=True)
        if group:  # leave the cgroup, then remove it (empty once the browser has ended)
            with contextlib.suppress(OSError):
                (group.parent / "cgroup.procs").write_text(str(os.getpid()))
                group.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
