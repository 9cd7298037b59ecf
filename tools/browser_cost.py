"""What one page costs the browser in CPU seconds: Debian's chromium against its headless shell (issue 28).

    .venv/bin/python tools/browser_cost.py                       # both browsers, twice each, in turn
    .venv/bin/python tools/browser_cost.py --site .site-build/test-site --runs 3
    .venv/bin/python tools/browser_cost.py --browsers chromium   # one browser

A benchmark, not a test: it prints figures and asserts nothing. The browser tests spend most of the suite's
CPU in Chromium, so the browser they run in is chosen by what a page costs it (tests/browser/conftest.py,
``BROWSERS``). Each run starts the browser anew and, in a fresh context at 1366x768, measures the CPU seconds
of the browser's processes (and Playwright's driver), never the servers' or the kernels':

1. **a JupyterLab notebook page** (this venv's ``jupyter lab`` on 127.0.0.1, a notebook with an
   Identification and a Knockout lab): loading JupyterLab until the kernel is idle, running the cells until the
   labs are drawn, then five screenshots;
2. with ``--site`` (a built static site, e.g. ``make site OFFLINE=1`` or the tests' .site-build/test-site),
   served by ``python -m http.server`` on 127.0.0.1: **the app page** until the chooser is shown (its Python
   restored from the snapshot) and **a lesson** in JupyterLite until its kernel is idle.

Figures on the shared 2-core host vary by 10-20 % from run to run: compare browsers run in turn, not alone.
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
IDLE = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!(k && k.status === 'idle' && w.context && w.context.isReady); }"""
LABS = ["from safari_kit.widgets.labs import IdentificationLab\nIdentificationLab(seed=3)",
        "from safari_kit.widgets.labs import KnockoutLab\nKnockoutLab(seed=1)"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, seconds: float = 60) -> None:
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    sys.exit(f"no answer from {url} in {seconds:.0f} s")


def _browser_cpu(servers: list[int]) -> float:
    """CPU seconds of this process's children that are not a server nor under one (the browser, the driver)."""
    import psutil

    total = 0.0
    for proc in psutil.Process().children(recursive=True):
        try:
            if proc.pid in servers or any(p.pid in servers for p in proc.parents()):
                continue
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            pass
    return total


def _jupyterlab(root: Path) -> tuple[str, subprocess.Popen]:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in LABS]
    nbformat.write(nb, str(root / "cost.ipynb"))
    port = _port()
    proc = subprocess.Popen([str(REPO / ".venv" / "bin" / "jupyter"), "lab", "--no-browser", "--allow-root",
                             "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--IdentityProvider.token=cost",
                             "--LabApp.expose_app_in_browser=True", f"--ServerApp.root_dir={root}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    _wait_http(f"http://127.0.0.1:{port}/api/status?token=cost")
    return f"http://127.0.0.1:{port}/lab/tree/cost.ipynb?token=cost", proc


def _static(site: Path) -> tuple[str, subprocess.Popen]:
    port = _port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(site),
                             str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_http(f"http://127.0.0.1:{port}/jupyter-lite.json")
    return f"http://127.0.0.1:{port}/", proc


def measure(pw, exe: str, lab_url: str, site_url: str | None, servers: list[int]) -> dict[str, float]:
    out: dict[str, float] = {}
    browser = pw.chromium.launch(executable_path=exe, headless=True, args=ARGS)
    try:
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        c0 = _browser_cpu(servers)
        page.goto(lab_url)
        page.wait_for_function(IDLE, timeout=180_000, polling=100)
        c1 = _browser_cpu(servers)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.locator(".safari-knockout-lab .st-card").first.wait_for(timeout=120_000)
        page.wait_for_timeout(1000)
        c2 = _browser_cpu(servers)
        with tempfile.TemporaryDirectory() as shots:
            for i in range(5):
                page.screenshot(path=os.path.join(shots, f"{i}.png"))
        c3 = _browser_cpu(servers)
        page.evaluate("() => window.jupyterapp.commands.execute('kernelmenu:shutdown')")
        out.update({"JupyterLab page": c1 - c0, "run two labs": c2 - c1, "five screenshots": c3 - c2})
        page.context.close()
        if site_url:
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            c0 = _browser_cpu(servers)
            page.goto(site_url + "voici/render/notebooks/app.html")
            page.locator(".safari-app .safari-lab-list select").wait_for(timeout=180_000)
            c1 = _browser_cpu(servers)
            page.goto(site_url + "lab/index.html?path=notebooks/02-identification.ipynb")
            page.wait_for_function(IDLE, timeout=180_000, polling=100)
            c2 = _browser_cpu(servers)
            out.update({"site: app page": c1 - c0, "site: a lesson": c2 - c1})
            page.context.close()
    finally:
        browser.close()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browsers", nargs="+", default=["chromium", "chromium-headless-shell"],
                        help="Debian's browser commands to compare (default: both)")
    parser.add_argument("--runs", type=int, default=2, help="runs of each browser, in turn (default 2)")
    parser.add_argument("--site", type=Path, help="a built static site to measure too")
    args = parser.parse_args(argv)
    exes = {name: shutil.which(name) for name in args.browsers}
    missing = [name for name, exe in exes.items() if not exe]
    if missing:
        sys.exit(f"not installed: {', '.join(missing)} (apt-get install {' '.join(missing)})")
    if args.site and not (args.site / "jupyter-lite.json").is_file():
        sys.exit(f"{args.site}: no built site there (no jupyter-lite.json): make site OFFLINE=1 first")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as root:
        lab_url, lab = _jupyterlab(Path(root))
        site_url, static = _static(args.site) if args.site else (None, None)
        servers = [p.pid for p in (lab, static) if p is not None]
        results: dict[str, list[dict[str, float]]] = {name: [] for name in args.browsers}
        try:
            with sync_playwright() as pw:
                for run in range(args.runs):
                    for name in args.browsers:
                        figures = measure(pw, exes[name], lab_url, site_url, servers)
                        results[name].append(figures)
                        print(f"run {run + 1} {name}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items())
                              + " CPU-s", flush=True)
        finally:
            for proc in (lab, static):
                if proc is not None:
                    proc.terminate()
                    proc.wait(20)
    print("\nmean CPU seconds of the browser (and Playwright's driver)")
    keys = list(next(iter(results.values()))[0])
    print(f"{'':24}" + "".join(f"{name:>26}" for name in args.browsers))
    for key in keys:
        print(f"{key:24}" + "".join(f"{sum(r[key] for r in rs) / len(rs):26.1f}" for rs in results.values()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
