"""What one lesson visit of the static site costs the browser: CPU seconds and seconds to an idle kernel (issue 31).

    flock /tmp/safari-heavy.lock .venv/bin/python tools/measure_lesson_start.py --site .site-build/test-site
    flock /tmp/safari-heavy.lock .venv/bin/python tools/measure_lesson_start.py --site /tmp/a --site /tmp/b --runs 3

A benchmark, not a test: it prints figures and asserts nothing. Each run launches Debian's headless chromium
anew (an empty cache: a first visit), opens lesson 02 in JupyterLite (``lab/index.html?path=...``) and waits for
its kernel to be idle; then the same page again in the same browser profile (a second visit). The site is
served by the site's own ``serve.py`` handler (site-src/serve_site.py: cache headers, the snapshots' gzip
copies). CPU seconds are every process of the browser (renderer, the kernel's web worker, GPU and network
processes), counted by a cgroup (tools/cpu_cap.py; needs root), capped at ``--cpu-quota`` of a core (default:
no cap, 64 cores). Several ``--site`` are measured in turn, run by run, so a busy moment of a shared machine
falls on all of them alike; the median and range of the runs are printed. tools/measure_site.py measures the
app page the same way.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from cpu_cap import capped_chromium  # noqa: E402
from measure_site import Counter, serve  # noqa: E402
from tests.browser.site_fixtures import KERNEL_IDLE, LESSON  # noqa: E402

STATE = ("() => self.safariSnapshot ? [self.safariSnapshot.restored, self.safariSnapshot.reason] : null")


def _snapshot_state(page) -> str:
    for worker in page.workers:
        try:
            state = worker.evaluate(STATE)
        except Exception:  # noqa: BLE001 - a worker that went away
            continue
        if state is not None:
            return "restored" if state[0] else f"cold ({state[1]})"
    return "no loader"


def visit(page, url: str, cpu) -> tuple[float, float, str]:
    """(seconds to the lesson's idle kernel, the browser's CPU seconds meanwhile, what the loader said)."""
    c0, t0 = cpu(), time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=300_000, polling=200)
    seconds = time.perf_counter() - t0
    return seconds, cpu() - c0, _snapshot_state(page)


def run(pw, exe: str, url: str, cpu) -> dict[str, tuple[float, float, str]]:
    browser = pw.chromium.launch(executable_path=exe, headless=True, args=["--no-sandbox", "--disable-gpu"])
    try:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        first = visit(page, url, cpu)
        page.goto("about:blank")
        second = visit(page, url, cpu)
    finally:
        browser.close()
    return {"first visit": first, "second visit": second}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, action="append", required=True, help="a built site (repeat to compare)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cpu-quota", type=float, default=64.0, metavar="CORES", help="cap the browser (0.25: a "
                    "quarter of a core); default 64: no cap, only counted")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    figures: dict[str, dict[str, list[tuple[float, float, str]]]] = {str(s): {} for s in args.site}
    servers = {}
    for site in args.site:
        if not (site / "jupyter-lite.json").is_file():
            sys.exit(f"{site}: no built site there (no jupyter-lite.json): make site OFFLINE=1 first")
        servers[str(site)] = serve(site.resolve(), Counter())
    try:
        with sync_playwright() as pw, capped_chromium("/usr/bin/chromium", args.cpu_quota) as (exe, cpu):
            for n in range(args.runs):
                for site, (_server, url) in servers.items():
                    result = run(pw, exe, f"{url}lab/index.html?path={LESSON}", cpu)
                    for key, value in result.items():
                        figures[site].setdefault(key, []).append(value)
                    print(f"run {n + 1} {site}: " + "; ".join(f"{k} {s:.1f} s, {c:.1f} CPU-s, {how}"
                                                             for k, (s, c, how) in result.items()), flush=True)
    finally:
        for server, _url in servers.values():
            server.shutdown()
    print(f"\nlesson 02 to an idle kernel, median (range) of {args.runs} runs, cpu quota {args.cpu_quota}")
    for site, kinds in figures.items():
        for key, values in kinds.items():
            secs, cpus = [v[0] for v in values], [v[1] for v in values]
            print(f"{site} {key}: {statistics.median(secs):.1f} s ({min(secs):.1f}-{max(secs):.1f}), "
                  f"{statistics.median(cpus):.1f} CPU-s ({min(cpus):.1f}-{max(cpus):.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
