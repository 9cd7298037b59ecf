"""What a page costs the browser in a fresh context and again in one context (issue 28: warm contexts).

    .venv/bin/python tools/warm_context_cost.py            # JupyterLab and the app on Voila, 4 pairs each
    .venv/bin/python tools/warm_context_cost.py --pairs 6 --only voila

A benchmark, not a test: it prints figures and asserts nothing. Chromium keeps its HTTP cache and V8's code
cache per browser context, so the browser tests share one context per process (tests/browser/conftest.py,
``WarmContexts``). This starts the tests' servers (conftest's ``jupyter lab`` and ``make app``'s Voila on a copy of
the kit) and Debian's chromium with the tests' flags, loads each page once in a context kept open (to warm it),
then in turn: the page in a new context, the page in the kept context. It counts the CPU seconds of the browser's
processes (and Playwright's driver) from ``goto`` until the page is ready, never the servers' or kernels':
JupyterLab until its file browser and launcher are drawn, the app until its chooser is shown.
Figures on the shared 2-core host vary by 10-20 %: compare the pairs, run in turn.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser.conftest import CHROMIUM_ARGS, _start, _start_voila, find_chromium, serve_copy  # noqa: E402

LAB_READY = ("() => !!(window.jupyterapp && document.querySelector('.jp-DirListing')"
             " && document.querySelector('.jp-Launcher'))")
CHOOSER = ".safari-app .safari-lab-list select"
VIEWPORT = {"width": 1366, "height": 768}


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of the live processes below ``root``."""
    parent, ticks = {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry.name}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        parent[int(entry.name)], ticks[int(entry.name)] = int(fields[1]), int(fields[11]) + int(fields[12])
    total = 0
    for pid in ticks:
        up = pid
        while up in parent and up != root and up > 1:
            up = parent[up]
        if up == root and pid != root:
            total += ticks[pid]
    return total / os.sysconf("SC_CLK_TCK")


def measure(browser, name: str, url: str, ready, pairs: int) -> None:
    def load(context) -> float:
        page = context.new_page()
        before = tree_cpu(os.getpid())
        page.goto(url, wait_until="domcontentloaded", timeout=90_000)
        ready(page)
        page.wait_for_load_state("load")
        cost = tree_cpu(os.getpid()) - before
        page.close()
        time.sleep(1)
        return cost

    kept = browser.new_context(viewport=VIEWPORT, reduced_motion="reduce")
    load(kept)  # warms it
    fresh, same = [], []
    for _ in range(pairs):
        context = browser.new_context(viewport=VIEWPORT, reduced_motion="reduce")
        fresh.append(load(context))
        context.close()
        same.append(load(kept))
    kept.close()
    for label, costs in (("fresh context", fresh), ("same context", same)):
        print(f"{name:11} {label:14} mean {statistics.mean(costs):.2f} CPU-s  ({', '.join(f'{c:.2f}' for c in costs)})",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--only", choices=("lab", "voila"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), headless=True, args=CHROMIUM_ARGS)
        if args.only in (None, "lab"):
            with serve_copy("warm-cost-lab-", "jupyter lab", _start) as lab:
                measure(browser, "JupyterLab", f"{lab.url}/lab?token={lab.token}",
                        lambda page: page.wait_for_function(LAB_READY, timeout=90_000, polling=100), args.pairs)
        if args.only in (None, "voila"):
            with serve_copy("warm-cost-voila-", "voila", _start_voila) as voila:
                measure(browser, "app (Voila)", voila.url,
                        lambda page: page.locator(CHOOSER).wait_for(timeout=90_000), args.pairs)
        browser.close()


if __name__ == "__main__":
    main()
