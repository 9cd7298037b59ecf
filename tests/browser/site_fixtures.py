"""Fixtures for the static site's browser tests (issue 13, part 3), used by tests/browser/test_site_browser.py.

``offline_site``  session-scoped: the offline site of this run (``make site OFFLINE=1`` into
                  ``.site-build/test-site``, built once a run whatever the worker: tests/site_builds.py; the
                  build venv and the downloads are cached in .site-build/, git-ignored), served with
                  ``python -m http.server`` on a free 127.0.0.1 port; ``offline_site.url`` ends with "/".
``online_site``   the same for the online build (``make site`` into ``.site-build/test-site-online``): its
                  address, ending with "/".
``site_page``     a fresh Playwright page in its own context, 1400x900, asking for reduced motion (conftest's
                  ``QUIET_MOTION``: the lab's selectable cards glow 60 frames a second otherwise; a test that
                  looks at motion sets its own with ``page.emulate_media``); ``site_page.outside`` lists every
                  request to another host made by the page, its web workers (the Pyodide kernel) and its
                  service worker: the listener is on the browser context, a page-level one misses workers.
``school_page``   the same in a browser that resolves ``SCHOOL_HOST`` (a school-network name) to 127.0.0.1
                  (Chromium's ``--host-resolver-rules``): ``school_url(offline_site)`` is the site at that
                  name over plain http, which is not a secure context (no service worker, no
                  SharedArrayBuffer), as on a classroom network (issue 18, item 1). Still loopback only.

They use ``browser``, ``chromium_path`` and ``js_errors`` of tests/browser/conftest.py (one Playwright per run:
a second sync Playwright in the same process fails).
"""
from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import site_builds


REPO = Path(__file__).resolve().parents[2]
SITE_DIR = site_builds.OFFLINE_DIR
LOCAL = ("http://127.0.0.1:", "data:", "blob:")
#: the site's pages, the start-up check's sentence, and "this notebook's kernel is idle" (the test and
#: tools/measure_site.py use them)
APP = "voici/render/notebooks/app.html"
LESSON = "notebooks/02-identification.ipynb"
FRIENDLY = "which this offline copy of the site does not have"
KERNEL_IDLE = """(path) => {
    const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    if (!w || !w.context || w.context.path !== path || !w.sessionContext) return false;
    const k = w.sessionContext.session && w.sessionContext.session.kernel;
    return !!(w.context.isReady && k && k.status === 'idle' && k.connectionStatus === 'connected');
}"""

#: a school-network name, mapped to 127.0.0.1 in ``school_browser`` (never resolved by any DNS)
SCHOOL_HOST = "school-lab.example"
#: what every page says when opened as a file (site-src/no-server.js)
NO_SERVER = "must be opened through a web server, not as a file"

#: the kit plays without numpy (issue 13, part 1), so the offline site's app page must show the app
STDLIB_PLAY = True


@dataclass
class Site:
    url: str
    root: Path
    build_seconds: float
    proc: subprocess.Popen


def serve(root: Path) -> tuple[str, subprocess.Popen]:
    for _ in range(3):
        from tests.browser.conftest import _free_port  # here: conftest imports this module

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
        _stop_server(proc)
    pytest.fail("could not serve the site on 127.0.0.1", pytrace=False)


@pytest.fixture(scope="session")
def offline_site(chromium_path, request):
    import shutil

    from tests.browser.conftest import _missing

    if not shutil.which("npm"):  # make site OFFLINE=1 packs the Pyodide runtime with npm
        _missing("npm is not installed (apt-get install npm; .ci/run installs it as root)")
    try:
        seconds = site_builds.build_offline(request.config)
    except site_builds.SiteBuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    url, proc = serve(SITE_DIR)
    try:
        yield Site(url=url, root=SITE_DIR, build_seconds=seconds, proc=proc)
    finally:
        _stop_server(proc)


@pytest.fixture(scope="session")
def online_site(request):
    try:
        site_builds.build_online(request.config)
    except site_builds.SiteBuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    url, server = serve(site_builds.ONLINE_DIR)
    try:
        yield url
    finally:
        _stop_server(server)


def school_url(site: Site) -> str:
    return site.url.replace("127.0.0.1", SCHOOL_HOST, 1)


@pytest.fixture(scope="session", name="school_browser")
def school_browser_fixture(browser, chromium_path):
    """A second Chromium of the same Playwright (a second sync Playwright in one process fails)."""
    from tests.browser.conftest import CHROMIUM_ARGS

    b = browser.browser_type.launch(executable_path=chromium_path, headless=True,
                                    args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {SCHOOL_HOST} 127.0.0.1"])
    try:
        yield b
    finally:
        b.close()


@pytest.fixture
def site_page(browser, js_errors, request):
    yield from _page(browser, js_errors, request, LOCAL)


@pytest.fixture(name="school_page")
def school_page_fixture(school_browser, js_errors, request):
    yield from _page(school_browser, js_errors, request, (f"http://{SCHOOL_HOST}:", *LOCAL))


def _page(browser, js_errors, request, local: tuple[str, ...]):
    from tests.browser.helpers import shot_on_failure

    from tests.browser.conftest import QUIET_MOTION

    context = browser.new_context(viewport={"width": 1400, "height": 900}, reduced_motion=QUIET_MOTION)
    outside: list[str] = []
    # on the context: requests from the kernel's web worker and the service worker are seen too
    context.on("request", lambda req: outside.append(req.url) if not req.url.startswith(local) else None)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda exc: js_errors.append(f"pageerror: {exc}"))
    page.outside = outside
    try:
        yield page
    finally:
        shot_on_failure(page, request)
        context.close()


def _stop_server(proc) -> None:
    from tests.browser.conftest import _stop  # here, not at the top: conftest imports this module

    _stop(proc)
