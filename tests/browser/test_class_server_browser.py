"""The class server (``make class``, issue 19) in Chromium: the page's own unload shutdown, the memory cap's words.

* Leaving the app's page (reload, close, another address) sends Voilà's
  unload ``POST /voila/api/shutdown/<id>``; on ``make app`` it gets 403
  "_xsrf argument missing" (voila-dashboards/voila#1458) and the kernel lives on.
  On the class server the kernel is gone.
* A lab that passes the memory cap: its kernel is stopped and the page says so
  above the lab (screenshot test-artifacts/issue19-class-memory-cap.png).

(The page whose connection the server closes for its messages: tests/browser/test_server_gone_browser.py, on
that module's server of the same settings.)
"""
from __future__ import annotations

import time

import pytest

from tests.browser.conftest import QUIET_MOTION
from tests.browser.helpers import screenshot
from tests.browser.test_app_voila import open_lab
from tests.server.class_server import class_server, request

pytestmark = pytest.mark.browser


def _kernel_id(page) -> str:
    return page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")


def _cookie_header(context) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())


def _wait_status(server, kid: str, cookie: str, want: int, seconds: float = 20) -> int:
    deadline = time.monotonic() + seconds
    status = request(server, f"api/kernels/{kid}", cookie=cookie)[0]
    while status != want and time.monotonic() < deadline:
        time.sleep(0.3)
        status = request(server, f"api/kernels/{kid}", cookie=cookie)[0]
    return status


def test_a_ready_lab_plays_and_leaving_the_app_shuts_its_kernel_down(browser):
    """The page comes from a ready lab (Voilà's preheated kernel, rendered before the learner came): it plays.

    One ready lab and no spare (issue 28: two ready labs and two spares started four of the app's kernels, and
    rendered their pages, for the two pages of this test); the reloaded page gets the lab started when the first
    one ended (after the waiting page, if it asks before that lab is whole)."""
    with class_server("--labs-per-minute", "0", "--ready-labs", "1", "--spare-labs", "0", app=True) as srv:
        deadline = time.monotonic() + 120
        while "labs ready: the class can come in now" not in srv.log_text() and time.monotonic() < deadline:
            time.sleep(0.5)
        # no glowing cards (conftest.QUIET_MOTION): the test counts the table's places, it does not look at them
        context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion=QUIET_MOTION)
        try:
            page = context.new_page()
            page.goto(srv.url, wait_until="domcontentloaded", timeout=120_000)
            page.locator(".safari-app .safari-lab-list select").wait_for(timeout=120_000)
            assert "Using pre-heated kernel" in srv.log_text()
            open_lab(page, "Safari Witness", "Identification", ".safari-identification-lab")
            assert page.locator(".safari-identification-lab .safari-table .st-card").count() >= 5  # the places
            kid, cookie = _kernel_id(page), _cookie_header(context)
            assert request(srv, f"api/kernels/{kid}", cookie=cookie)[0] == 200
            assert request(srv, f"api/kernels/{kid}")[0] == 403  # a second laptop: no owner cookie
            page.reload(wait_until="domcontentloaded")  # the unload shutdown of the first page
            page.locator(".safari-app .safari-lab-list select").wait_for(timeout=120_000)
            assert _kernel_id(page) != kid
            assert _wait_status(srv, kid, cookie, 404) == 404, srv.log_text()[-3000:]
            assert "_xsrf argument missing" not in srv.log_text()
        finally:
            context.close()


def test_a_lab_over_the_memory_cap_is_stopped_and_its_page_says_so(browser):
    with class_server("--memory-mb", "200", "--memory-check", "1", "--labs-per-minute", "0") as srv:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            context.add_init_script(LID)  # to see the page's websocket open
            page = context.new_page()
            page.goto(srv.url, wait_until="domcontentloaded", timeout=120_000)
            hog = page.locator("button", has_text="Use memory")
            hog.wait_for(timeout=120_000)
            kid, cookie = _kernel_id(page), _cookie_header(context)
            # the widget's websocket is open (it was 1.5 s of waiting)
            page.wait_for_function("() => window.__sockets.some(ws => ws.readyState === 1)")
            assert request(srv, f"api/kernels/{kid}", cookie=cookie)[0] == 200
            hog.click()
            notice = page.locator("#safari-server-notice")
            notice.wait_for(timeout=30_000)
            text = notice.inner_text()
            assert "more than 200 MB" in text and "stopped it" in text and "Reload the page" in text
            assert _wait_status(srv, kid, cookie, 404) == 404
            shot = screenshot(page, "issue19-class-memory-cap")
            print(f"\nscreenshot: {shot}")
        finally:
            context.close()


def test_the_full_class_server_says_so_on_a_page(browser):
    with class_server("--max-labs", "1", "--labs-per-minute", "0") as srv:
        first = request(srv, "")  # one lab open: the server is full
        assert first[0] == 200
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            page = context.new_page()
            outside = []
            page.on("request", lambda req: outside.append(req.url)
                    if not req.url.startswith(("http://127.0.0.1", "data:")) else None)
            response = page.goto(srv.url, wait_until="load", timeout=60_000)
            assert response is not None and response.status == 503
            text = page.locator("main.safari-error").inner_text()
            assert "The class server is full" in text and "Reload the app" in text
            assert "Traceback" not in page.content() and not outside
            print(f"\nscreenshot: {screenshot(page, 'issue19-class-server-full')}")
        finally:
            context.close()


#: the laptop's lid, for a test: records the page's websockets; while ``__asleep`` a new one goes nowhere
#: (a refused port on loopback), as a sleeping laptop reaches no server
LID = """(() => {
  const Native = window.WebSocket; window.__sockets = []; window.__asleep = false;
  function Lid(url, protocols) {
    const ws = new Native(window.__asleep ? 'ws://127.0.0.1:9/asleep' : url, protocols);
    window.__sockets.push(ws); return ws;
  }
  Lid.prototype = Native.prototype;
  ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'].forEach(k => { Lid[k] = Native[k]; });
  window.WebSocket = Lid;
})();"""


def test_a_lab_the_server_closed_while_the_laptop_slept_says_so_on_waking(browser):
    """The class server stops a lab no page has been connected to for ``--idle-seconds``: a laptop asleep.
    On waking, the page's reconnection finds no lab, and the page says so above it (not a silent table)."""
    with class_server("--labs-per-minute", "0", "--idle-seconds", "4", "--cull-interval", "1") as srv:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            context.add_init_script(LID)
            page = context.new_page()
            page.goto(srv.url, wait_until="domcontentloaded", timeout=120_000)
            page.locator("button", has_text="Use memory").wait_for(timeout=120_000)
            page.wait_for_function("() => window.__sockets.some(ws => ws.readyState === 1)")
            kid, cookie = _kernel_id(page), _cookie_header(context)
            page.wait_for_timeout(6000)  # connected and idle past --idle-seconds: a page still there is kept
            assert request(srv, f"api/kernels/{kid}", cookie=cookie)[0] == 200
            assert not page.locator("#safari-server-notice").count()
            page.evaluate("() => { window.__asleep = true; window.__sockets.forEach(ws => ws.close()); }")
            assert _wait_status(srv, kid, cookie, 404) == 404, srv.log_text()[-3000:]  # the culler's work
            page.evaluate("() => { window.__asleep = false; }")  # awake: the page reconnects to no lab
            notice = page.locator("#safari-server-notice")
            notice.wait_for(timeout=60_000)
            text = notice.inner_text()
            assert "This lab has stopped" in text and "laptop asleep" in text and "Reload the page" in text, text
            print(f"\nscreenshot: {screenshot(page, 'class-lab-gone-after-sleep')}")
        finally:
            context.close()
