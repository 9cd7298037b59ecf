"""What a test's screenshot costs Chromium (issue 28): Playwright's ``page.screenshot`` as it is, with
``caret="initial"`` (tests/browser/helpers.py's ``capture``), and the DevTools protocol's
``Page.captureScreenshot`` with and without ``optimizeForSpeed``.

    flock /tmp/safari-heavy.lock .venv/bin/python tools/screenshot_cost.py [--shots 15] [--rounds 2]

A benchmark, not a test: it prints figures and asserts nothing. It starts the tests' JupyterLab (a copy of the
kit, tests/browser/conftest.py) and Debian's chromium with the tests' flags, opens lesson 02 at 1366x768 with
every cell run, and takes ``--shots`` screenshots each of the four ways, in turn, ``--rounds`` times; it prints the CPU
seconds a screenshot cost Chromium's processes (by kind) and Playwright's driver, and the PNGs' sizes. The
shots go to /tmp/screenshot-cost-*.png: open one of each kind to see that they show the same.
"""
from __future__ import annotations

import argparse
import base64
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from chromium_idle_cost import by_kind, spent  # noqa: E402

from tests.browser.conftest import CHROMIUM_ARGS, QUIET_MOTION, _start, find_chromium, serve_copy  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.browser.helpers import open_notebook, run_all_cells, settle

    out = Path("/tmp")
    with serve_copy("screenshot-cost-", "jupyter lab", _start) as lab, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=QUIET_MOTION)
        page = context.new_page()
        page.set_default_timeout(120_000)
        open_notebook(page, lab, "notebooks/02-identification.ipynb")
        run_all_cells(page)
        settle(page)
        page.wait_for_timeout(3000)
        cdp = context.new_cdp_session(page)

        def playwright(i: int) -> Path:
            path = out / f"screenshot-cost-playwright-{i}.png"
            page.screenshot(path=str(path))
            return path

        def devtools(i: int, fast: bool) -> Path:
            shot = cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": fast})
            path = out / f"screenshot-cost-{'fast' if fast else 'devtools'}-{i}.png"
            path.write_bytes(base64.b64decode(shot["data"]))
            return path

        def playwright_caret(i: int) -> Path:
            path = out / f"screenshot-cost-caret-{i}.png"
            page.screenshot(path=str(path), caret="initial")
            return path

        ways = {"playwright page.screenshot": playwright,
                "playwright page.screenshot, caret='initial' (the tests')": playwright_caret,
                "captureScreenshot, optimizeForSpeed": lambda i: devtools(i, True),
                "captureScreenshot, default": lambda i: devtools(i, False)}
        for rnd in range(args.rounds):
            for name, shoot in ways.items():
                before, t0 = by_kind(), time.perf_counter()
                for i in range(args.shots):
                    path = shoot(i)
                fig = spent(before)
                kinds = " ".join(f"{k}={v / args.shots:.3f}" for k, v in fig.items() if k != "total" and v)
                print(f"round {rnd + 1}  {name:48} {fig['total'] / args.shots:.3f} CPU-s a shot, "
                      f"{(time.perf_counter() - t0) / args.shots:.3f} s, {path.stat().st_size / 1e3:.0f} kB  ({kinds})",
                      flush=True)
        browser.close()


if __name__ == "__main__":
    main()
