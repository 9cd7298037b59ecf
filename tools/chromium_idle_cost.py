"""What Chromium's processes cost, by kind, to load a page and then to sit idle on it (issue 28).

    flock /tmp/safari-heavy.lock .venv/bin/python tools/chromium_idle_cost.py --verbose   # lab, voila, site
    flock /tmp/safari-heavy.lock .venv/bin/python tools/chromium_idle_cost.py --only lab --idle 4 --rounds 2 \
        --variant= --variant=--disable-gpu-compositing          # the tests' flags, and one more, in turn

A benchmark, not a test: it prints figures and asserts nothing. It starts the tests' servers (tests/browser/
conftest.py's ``jupyter lab`` and ``make app``'s Voila on a copy of the kit; the static site built by the tests,
.site-build/test-site, served with ``python -m http.server``) and Debian's chromium with the tests' flags
(``CHROMIUM_ARGS``, and each ``--variant``'s flags more: a browser each time), each page in a new context
(1366x768, ``QUIET_MOTION``). For each page it counts the CPU seconds of Chromium's processes by kind (browser,
renderer, gpu-process, utility, zygote) and of Playwright's driver: while it loads (until it is ready), then
over ``--idle`` seconds of nothing in two halves (after 3 s to settle), then a screenshot (to
/tmp/chromium-cost-<page>.png: look at it when trying a flag).

* ``lab``: JupyterLab with lesson 02 open and every cell run (the kit's widgets drawn).
* ``voila``: the app on Voila with the Knockout lab open.
* ``site``: the static site's app page (Voici: Pyodide in the page), its chooser shown.
* ``lesson``: lesson 02 in the static site's JupyterLite, until its kernel (Pyodide in a web worker) is idle.

Figures on the shared 2-core host vary by 10-20 %: run twice, in turn with what you compare.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shlex
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import (CHROMIUM_ARGS, QUIET_MOTION, _start, _start_voila,  # noqa: E402
                                    find_chromium, serve_copy)

VIEWPORT = {"width": 1366, "height": 768}
CHOOSER = ".safari-app .safari-lab-list select"
TICKS = os.sysconf("SC_CLK_TCK")


def _kind(cmd: str) -> str | None:
    """The kind of a process of the browser (or Playwright's driver), None for any other."""
    argv0 = cmd.split("\0", 1)[0]
    if "chrom" in argv0:
        m = re.search(r"--type=([\w-]+)", cmd)
        return m.group(1) if m else "browser"
    if "node" in argv0 and "playwright" in cmd:
        return "playwright-driver"
    return None


def by_kind() -> collections.Counter:
    """CPU seconds so far of the live browser processes below this one, by kind."""
    parent, ticks, kinds = {}, {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry.name}/stat").read()
            cmd = open(f"/proc/{entry.name}/cmdline").read()
        except OSError:
            continue
        f = stat[stat.rfind(")") + 2:].split()
        pid = int(entry.name)
        parent[pid], ticks[pid], kinds[pid] = int(f[1]), int(f[11]) + int(f[12]), _kind(cmd)
    out = collections.Counter()
    me = os.getpid()
    for pid, kind in kinds.items():
        if kind is None:
            continue
        up = pid
        while up in parent and up != me and up > 1:
            up = parent[up]
        if up == me:
            out[kind] += ticks[pid] / TICKS
    return out


def spent(before: collections.Counter) -> dict[str, float]:
    now = by_kind()
    d = {k: round(now[k] - before.get(k, 0), 2) for k in sorted(set(now) | set(before))}
    d["total"] = round(sum(d.values()), 2)
    return d


def measure(browser, name: str, load, idle: float) -> dict:
    context = browser.new_context(viewport=VIEWPORT, reduced_motion=QUIET_MOTION)
    page = context.new_page()
    page.set_default_timeout(120_000)
    out = {}
    before = by_kind()
    t0 = time.perf_counter()
    load(page)
    out["load"] = spent(before)
    out["load"]["wall"] = round(time.perf_counter() - t0, 1)
    page.wait_for_timeout(3000)
    for half in ("idle-a", "idle-b"):
        before = by_kind()
        time.sleep(idle / 2)
        out[half] = spent(before)
    before = by_kind()
    page.screenshot(path=f"/tmp/chromium-cost-{name}.png")
    out["shot"] = spent(before)
    before = by_kind()
    context.close()
    out["close"] = spent(before)
    return out


def run(pw, flags: list[str], name: str, load, idle: float) -> dict:
    before = by_kind()
    browser = pw.chromium.launch(executable_path=find_chromium(), headless=True, args=flags)
    launch = spent(before)
    out = measure(browser, name, load, idle)
    before = by_kind()
    browser.close()
    out["launch"], out["quit"] = launch, spent(before)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", action="append", choices=("lab", "voila", "site", "lesson"))
    parser.add_argument("--idle", type=float, default=10)
    parser.add_argument("--variant", action="append", default=None,
                        help="Chromium flags more (one string; repeat to compare variants in turn)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="every step's figures by process kind")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    only = args.only or ["lab", "voila", "site"]
    variants = args.variant or [""]
    from playwright.sync_api import sync_playwright

    from tests.browser.helpers import open_notebook, run_all_cells, settle
    from tests.browser.site_fixtures import APP, KERNEL_IDLE, LESSON, SITE_DIR, _stop_server, serve
    from tests.browser.test_app_voila import open_lab

    results: list = []

    def compare(pw, name, load):
        for rnd in range(args.rounds):
            for variant in variants:
                flags = [*CHROMIUM_ARGS, *shlex.split(variant)]
                name_v = f"{name}{re.sub(r'[^a-z0-9]+', '-', variant.lower())}"
                out = run(pw, flags, name_v, load, args.idle)
                results.append({"page": name, "variant": variant, "round": rnd, **out})
                for step, fig in out.items() if args.verbose else ():
                    print(f"{name:5} {variant or '(tests flags)':40.40} {step:7} total {fig['total']:5.2f}  "
                          + " ".join(f"{k}={v}" for k, v in fig.items() if k != "total" and v), flush=True)

    with sync_playwright() as pw:
        if "lab" in only:
            with serve_copy("idle-cost-lab-", "jupyter lab", _start) as lab:
                def load_lab(page):
                    open_notebook(page, lab, "notebooks/02-identification.ipynb")
                    run_all_cells(page)
                    settle(page)
                compare(pw, "lab", load_lab)
        if "voila" in only:
            with serve_copy("idle-cost-voila-", "voila", _start_voila) as voila:
                def load_voila(page):
                    page.goto(voila.url, wait_until="domcontentloaded")
                    page.locator(CHOOSER).wait_for()
                    open_lab(page, "Safari Knockout", "Knockout", ".safari-knockout-lab")
                compare(pw, "voila", load_voila)
        if {"site", "lesson"} & set(only) and (SITE_DIR / APP).exists():
            url, proc = serve(SITE_DIR)
            try:
                def load_site(page):
                    page.goto(url + APP, wait_until="domcontentloaded")
                    page.locator(CHOOSER).wait_for()
                if "site" in only:
                    compare(pw, "site", load_site)

                def load_lesson(page):
                    page.goto(f"{url}lab/index.html?path={LESSON}", wait_until="domcontentloaded")
                    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=120_000, polling=200)
                if "lesson" in only:
                    compare(pw, "lesson", load_lesson)
            finally:
                _stop_server(proc)
    print("means (CPU-s of the browser's processes and Playwright's driver; load+idle+shot+launch):")
    for name in only:
        for variant in variants:
            rows = [r for r in results if r["page"] == name and r["variant"] == variant]
            if not rows:
                continue
            steps = ("load", "idle-a", "idle-b", "shot", "launch")
            mean = {s: statistics.mean(r[s]["total"] for r in rows) for s in steps}
            whole = [sum(r[s]["total"] for s in steps) for r in rows]
            print(f"{name:5} {variant or '(tests flags)':40.40} " + " ".join(f"{s} {v:.2f}" for s, v in mean.items())
                  + f"  all {statistics.mean(whole):.2f} ({', '.join(f'{w:.2f}' for w in whole)})", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
