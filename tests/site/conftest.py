"""Fixtures for the static site's browser tests (issue 13, part 3).

``offline_site``  session-scoped: builds the offline site once per run (``make site OFFLINE=1`` into
                  ``.site-build/test-site``; the build venv and the downloads are cached in .site-build/,
                  git-ignored) and serves it with ``python -m http.server`` on a free 127.0.0.1 port;
                  ``offline_site.url`` ends with "/".
``site_page``     a fresh Playwright page in its own context, 1400x900; ``site_page.outside`` lists every
                  request to another host made by the page, its web workers (the Pyodide kernel) and its
                  service worker: the listener is on the browser context, a page-level one misses workers.

``browser``, ``chromium_path`` and ``js_errors`` are those of tests/browser/conftest.py (Debian's chromium;
missing: skip on a laptop, fail when CI=true).

Tests marked ``needs_stdlib_play`` play the labs in the offline site, which needs the kit's play path to
import without numpy (issue 13, part 1). Until part 1 is in this tree (its test, tests/test_stdlib_play_path.py,
is the sign) they are left out of every run unless asked for by name: ``pytest tests/site -m needs_stdlib_play``.
Once part 1 is merged they run in ``make test`` like every other browser test, and the app page must show the app.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser import conftest as browser_conftest
from tests.browser.conftest import _free_port, _stop

# the browser tests' fixtures and report hook (screenshots of failures), shared
browser = browser_conftest.browser
chromium_path = browser_conftest.chromium_path
js_errors = browser_conftest.js_errors
pytest_runtest_makereport = browser_conftest.pytest_runtest_makereport

REPO = Path(__file__).resolve().parents[2]
SITE_DIR = REPO / ".site-build" / "test-site"
LOCAL = ("http://127.0.0.1:", "data:", "blob:")
PLAY_MARK = "needs_stdlib_play"
#: issue 13 part 1 (the kit plays without numpy) is in this tree: its test ships with it
STDLIB_PLAY = (REPO / "tests" / "test_stdlib_play_path.py").is_file()


def pytest_configure(config):
    config.addinivalue_line("markers", f"{PLAY_MARK}: plays the labs in the offline site; needs issue 13 part 1 "
                            f"(the kit's play path without numpy); run only with -m {PLAY_MARK}")


def pytest_collection_modifyitems(config, items):
    if STDLIB_PLAY or PLAY_MARK in (config.option.markexpr or ""):
        return
    keep, drop = [], []
    for item in items:
        (drop if item.get_closest_marker(PLAY_MARK) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@dataclass
class Site:
    url: str
    root: Path
    build_seconds: float
    proc: subprocess.Popen


def build_offline_site(out: Path = SITE_DIR) -> float:
    t0 = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    proc = subprocess.run(["make", "--no-print-directory", "site", "OFFLINE=1", f"SITE_OUT={out}"], cwd=REPO,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode:
        pytest.fail(f"make site OFFLINE=1 failed (rc={proc.returncode}):\n{proc.stdout[-4000:]}", pytrace=False)
    return time.perf_counter() - t0


def serve(root: Path) -> tuple[str, subprocess.Popen]:
    for _ in range(3):
        port = _free_port()
        proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                                 str(root), str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(url + "jupyter-lite.json", timeout=2):
                    return url, proc
            except OSError:
                time.sleep(0.2)
        _stop(proc)
    pytest.fail("could not serve the site on 127.0.0.1", pytrace=False)


@pytest.fixture(scope="session")
def offline_site(chromium_path):
    seconds = build_offline_site()
    url, proc = serve(SITE_DIR)
    try:
        yield Site(url=url, root=SITE_DIR, build_seconds=seconds, proc=proc)
    finally:
        _stop(proc)


@pytest.fixture
def site_page(browser, js_errors, request):
    from tests.browser.helpers import screenshot

    context = browser.new_context(viewport={"width": 1400, "height": 900})
    outside: list[str] = []
    # on the context: requests from the kernel's web worker and the service worker are seen too
    context.on("request", lambda req: outside.append(req.url) if not req.url.startswith(LOCAL) else None)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda exc: js_errors.append(f"pageerror: {exc}"))
    page.outside = outside
    try:
        yield page
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            try:
                print(f"\nscreenshot: {screenshot(page, request.node.name + '-failure')}")
            except Exception:  # noqa: BLE001 - the page may be gone
                pass
        context.close()
