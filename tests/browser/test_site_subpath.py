"""The offline site served under a sub-path, as a school intranet puts it, through site-src/serve_site.py
(issue 18, items 5 and 6).

The built site (the session's ``offline_site``) is linked into a temporary web root as ``school/safari/`` and
served on 127.0.0.1 by the handler of ``python3 site/serve.py`` (cache headers), in a thread of this process:

* the app page at ``/school/safari/voici/render/notebooks/app.html`` plays an Identification turn, and the
  Rules tutorial's rulings open their full text in place (no link to follow); every request stays under the
  sub-path, every response carries the handler's ``Cache-Control``, and the page logs no console error (the
  ``console.error: undefined`` the service-worker patch used to cause, and jupytext's labextension's error);
  the app page starts no service worker (issue 31, session 18: it needs none) and sends no keep-alive ping;
* a lesson opens in JupyterLite there (its kernel idle), and the docs a lesson links to open as Markdown
  Preview with their pictures; the lesson's service worker's keep-alive ping is sent inside the sub-path and
  answered by the service worker.
"""
from __future__ import annotations

import importlib.util
import threading
import time

import pytest

from tests.browser.helpers import screenshot
from tests.browser.site_fixtures import APP, KERNEL_IDLE, LESSON, REPO
from tests.browser.test_app_voila import app_errors, button, open_lab
from tests.browser.test_site_browser import _play_identification_turn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PREFIX = "school/safari/"
#: console errors a page may log that are not ours nor a failure (none today)
KNOWN_CONSOLE_ERRORS: tuple[str, ...] = ()


def _serve_site_module():
    spec = importlib.util.spec_from_file_location("serve_site", REPO / "site-src" / "serve_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def subpath_site(offline_site, tmp_path_factory):
    """(the site's address under the sub-path, the serve_site module)."""
    import functools
    import http.server

    serve_site = _serve_site_module()
    root = tmp_path_factory.mktemp("www")
    (root / "school").mkdir()
    (root / "school" / "safari").symlink_to(offline_site.root, target_is_directory=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(serve_site.Handler, directory=str(root)))
    server.quiet = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{PREFIX}", serve_site
    finally:
        server.shutdown()
        server.server_close()


def _watch(page, url: str, serve_site):
    """Record what the page asks outside the sub-path, responses without the handler's header, console errors."""
    seen = {"outside": [], "uncached": [], "console": [], "missing": [], "heartbeat": []}
    context = page.context  # the context's listeners see the workers' requests too
    context.on("request", lambda r: seen["outside"].append(r.url)
            if r.url.startswith("http") and not r.url.startswith(url) else None)

    def on_response(resp):
        if resp.url.endswith("/api/service-worker-heartbeat"):
            seen["heartbeat"].append((resp.url, resp.status, resp.from_service_worker))
        if resp.status >= 400:
            seen["missing"].append(f"{resp.status} {resp.url}")
        if resp.url.startswith(url) and resp.status < 400 and not resp.from_service_worker:  # api/drive: the SW's
            expected = serve_site.cache_control(resp.url[len(url) - 1:].split("?")[0])
            if resp.headers.get("cache-control") != expected:
                seen["uncached"].append(f"{resp.url}: {resp.headers.get('cache-control')!r} != {expected!r}")

    context.on("response", on_response)
    page.on("console", lambda m: seen["console"].append(m.text) if m.type == "error"
            and not any(k in m.text for k in KNOWN_CONSOLE_ERRORS) else None)
    return seen


def _main_area(page) -> str:
    """The tabs of JupyterLab's main area and the file browser's selection (what a learner sees)."""
    try:
        return str(page.evaluate("""() => ({
            tabs: [...document.querySelectorAll('#jp-main-dock-panel .lm-TabBar-tab .lm-TabBar-tabLabel')]
                .map(t => t.textContent.trim()),
            selected: [...document.querySelectorAll('.jp-DirListing-item.jp-mod-selected')]
                .map(i => i.textContent.trim())})"""))
    except Exception as exc:  # noqa: BLE001 - the page itself is gone
        return f"(page unreadable: {exc})"


def test_app_page_plays_under_a_sub_path(site_page, js_errors, subpath_site):
    url, serve_site = subpath_site
    page = site_page
    page.set_viewport_size({"width": 1366, "height": 768})
    seen = _watch(page, url, serve_site)
    t0 = time.perf_counter()
    page.goto(url + APP, wait_until="domcontentloaded")
    page.locator(".safari-app .safari-lab-list select").wait_for(timeout=180_000)
    print(f"\napp page at {url}: the app shown in {time.perf_counter() - t0:.1f} s")
    _play_identification_turn(page)
    screenshot(page, "site-subpath-app-identification")

    # the Rules tutorial: a ruling opens its full text in place (there was a link that 404ed)
    open_lab(page, "Safari Witness", "Rules\u00a0tutorial", ".safari-tutorial")  # ipywidgets' options: no-break spaces
    lab = page.locator(".safari-app .safari-tutorial")
    for _ in range(6):
        if lab.locator("details.safari-ruling").count():
            break
        button(lab, "Next").click()
        page.wait_for_timeout(300)
    ruling = lab.locator("details.safari-ruling").first
    text = ruling.locator(".safari-ruling-text")
    assert not text.is_visible()
    ruling.locator("summary").click()
    text.wait_for(state="visible", timeout=10_000)
    from tests.browser.test_tutorial_rulings_browser import learner_words

    code = ruling.get_attribute("data-ruling")  # the ruling in a learner's words (issue 27)
    assert learner_words(code)[:4] == text.inner_text().split()[:4], (code, text.inner_text()[:200])
    assert lab.locator("a[href]").count() == 0
    text.scroll_into_view_if_needed()
    screenshot(page, "site-subpath-tutorial-ruling-open")

    assert not app_errors(page), app_errors(page)
    # the app page starts no service worker (site-src/build_site.py, SW_OFF_OPTION): none registered in this
    # fresh browser, no page controlled, and no keep-alive ping (JupyterLite sends one 20 s after registering)
    assert page.evaluate("async () => [await navigator.serviceWorker.getRegistration() === undefined, "
                         "navigator.serviceWorker.controller]") == [True, None]
    page.wait_for_timeout(max(0.0, 22 - (time.perf_counter() - t0)) * 1000)
    assert seen["heartbeat"] == [], seen["heartbeat"]
    assert not seen["outside"], f"requests outside {url}: {seen['outside'][:10]}"
    assert not seen["uncached"], seen["uncached"][:10]
    assert not seen["console"], f"console errors: {seen['console']}; {seen['missing']}"
    assert not js_errors, js_errors


def test_a_lesson_and_the_docs_open_under_a_sub_path(site_page, js_errors, subpath_site):
    url, serve_site = subpath_site
    page = site_page
    seen = _watch(page, url, serve_site)
    page.goto(f"{url}lab/index.html?path={LESSON}", wait_until="domcontentloaded")
    page.wait_for_function(KERNEL_IDLE, arg=LESSON, timeout=180_000, polling=200)
    # what Voici's rendered lessons link to (site-src/build_site.py: link_docs_from_voici_pages)
    page.goto(f"{url}lab/index.html?path=docs/rules.md", wait_until="domcontentloaded")
    viewer = page.locator(".jp-MarkdownViewer").first
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        viewer.wait_for(timeout=60_000)
    except PlaywrightTimeout:  # say what the learner saw instead (once: the lesson restored, no rules tab)
        pytest.fail(f"no rules tab 60 s after opening lab/index.html?path=docs/rules.md; {_main_area(page)}",
                    pytrace=False)
    page.wait_for_function("""() => {
        const imgs = [...document.querySelectorAll('.jp-MarkdownViewer img')];
        return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);
    }""", timeout=30_000)
    assert "W4 Identification" in viewer.inner_text()
    # JupyterLite's keep-alive ping, 20 s after the page found its service worker, is answered by the service
    # worker inside the sub-path (it went to the origin's root: site-src/build_site.py, HEARTBEAT_FETCH)
    deadline = time.monotonic() + 30
    while not seen["heartbeat"] and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    # (one a page: the lesson's page may have sent its own before the docs' page replaced it)
    assert seen["heartbeat"] and set(seen["heartbeat"]) == {(f"{url}api/service-worker-heartbeat", 200, True)}, \
        seen["heartbeat"]
    assert not seen["outside"], f"requests outside {url}: {seen['outside'][:10]}"
    assert not seen["uncached"], seen["uncached"][:10]
    # JupyterLab's Markdown viewer (upstream) puts the HTML in the page before it resolves the pictures'
    # addresses: the browser first asks lab/img/... (404), then the resolved files/docs/img/... (shown above)
    transient = {m for m in seen["missing"] if m.startswith("404 ") and f"/{PREFIX}lab/img/" in m
                 and (REPO / "docs" / "img" / m.rsplit("/", 1)[1]).is_file()}
    assert set(seen["missing"]) == transient, seen["missing"]
    assert not [c for c in seen["console"] if not (transient and c.startswith("Failed to load resource"))], \
        seen["console"]
    assert not js_errors, js_errors
