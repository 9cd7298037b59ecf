"""A page whose server went away says so (issue 29), in Chromium.

A learner's page used to stay as it was when its server stopped (a class server stopped or crashed, a learner's
own JupyterHub server stopped by the idle culler): a table that no longer answers, and no sentence. The app's
template (safari_kit/voila_template/safari/index.html.j2) asks the lab's address when the page's connection
closes; no answer (asked three times) or the hub's "server not running" (424) puts one sentence above the lab.

One class server for the module (the tiny notebook, no ready labs): the first test stands in for the hub with
its 424 answer while the server lives; the second floods its lab's connection (the server closes it for its
messages: the page says why); the last kills the server.
"""
from __future__ import annotations

import os
import re
import signal
import time

import pytest

from tests.browser.helpers import screenshot
from tests.browser.test_class_server_browser import LID
from tests.server.class_server import class_server

pytestmark = pytest.mark.browser

GONE = "This lab has stopped: its server is not running any more."


@pytest.fixture(scope="module")
def server():
    started = time.perf_counter()
    with class_server("--labs-per-minute", "0") as srv:
        yield srv
    print(f"\ntest_server_gone_browser: {time.perf_counter() - started:.1f} s with its class server")


def _open(browser, srv):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_init_script(LID)
    page = context.new_page()
    page.goto(srv.url, wait_until="domcontentloaded", timeout=120_000)
    page.locator("button", has_text="Use memory").wait_for(timeout=120_000)
    page.wait_for_function("() => window.__sockets.some(ws => ws.readyState === 1)")
    return context, page


def _notice(page) -> str:
    notice = page.locator("#safari-server-notice")
    notice.wait_for(timeout=30_000)
    return notice.inner_text()


def test_a_page_whose_hub_server_is_not_running_says_so(browser, server):
    """JupyterHub answers 424 for a learner's server that is not running (the culler stopped it)."""
    context, page = _open(browser, server)
    try:
        page.route(re.compile(r".*/api/kernels/[0-9a-f-]+$"),
                   lambda route: route.fulfill(status=424, content_type="application/json",
                                               body='{"message": "server not running"}'))
        page.evaluate("() => window.__sockets.forEach(ws => ws.close())")
        text = _notice(page)
        assert GONE in text and "Reload the page" in text and "ask your teacher" in text, text
    finally:
        context.close()


# (one message over the 1 MiB cap: tornado closes with 1009 only when its close frame arrives before the
# connection drops, else the browser sees 1006 and the page says nothing: not asserted, the page's words
# for 1009 are best effort)
@pytest.mark.parametrize("flood", ["messages at the cap again and again"])
def test_a_page_whose_connection_the_server_closes_for_its_messages_says_why(browser, server, flood):
    """A console script on the page sends a 2 MB message (over the 1 MiB cap: tornado closes with 1009), or
    1000 KB messages five times a second (over 4 MiB in 10 s: the class server closes with 4002).

    (From test_class_server_browser.py, issue 28: it started a class server of its own with this module's
    settings; here it runs on the module's, before the test that kills it.)"""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(server.url, wait_until="domcontentloaded", timeout=120_000)
        page.locator("button", has_text="Use memory").wait_for(timeout=120_000)
        page.evaluate("""([big]) => {
            const kid = JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId;
            const ws = new WebSocket(location.origin.replace('http', 'ws') + '/api/kernels/' + kid +
                                     '/channels?session_id=console');
            const frame = JSON.stringify({header: {msg_id: 'x', msg_type: 'kernel_info_request', session: 's',
              username: 'u', date: '', version: '5.3'}, parent_header: {}, metadata: {pad: 'x'.repeat(
              big ? 2000 * 1024 : 1000 * 1024)}, content: {}, channel: 'shell', buffers: []});
            ws.onopen = () => { for (let i = 0; i < (big ? 1 : 8); i++) {
              setTimeout(() => { if (ws.readyState === 1) ws.send(frame); }, i * 200); } };
        }""", [flood.startswith("one")])
        text = _notice(page)
        want = "larger than the server accepts" if flood.startswith("one") else "more than 4.2 MB in 10 seconds"
        assert want in text and "Reload the page" in text, text
    finally:
        context.close()


def test_a_page_whose_server_was_killed_says_so(browser, server):
    context, page = _open(browser, server)
    try:
        assert not page.locator("#safari-server-notice").count()
        os.kill(server.proc.pid, signal.SIGKILL)  # a crash, a machine switched off: no goodbye to the page
        server.proc.wait(timeout=30)
        text = _notice(page)
        assert GONE in text and "Reload the page" in text and "ask your teacher" in text, text
        assert "laptop asleep" not in text  # not the words for one lab the server closed
        print(f"\nscreenshot: {screenshot(page, 'issue29-server-gone')}")
    finally:
        context.close()
