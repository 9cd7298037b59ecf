"""The process's warm context (tests/browser/conftest.py's ``WarmContexts``, issue 28): a test's page there finds
the files an earlier test's page loaded in Chromium's cache, and nothing else an earlier test left: its pages,
local storage, cookies (but Jupyter's login and ``_xsrf``), permissions, routes. Each page has its own viewport and
motion. A tiny HTTP server of the test's own (no Jupyter): it counts the requests for each file."""
from __future__ import annotations

import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytestmark = pytest.mark.browser

PAGE = b"<!doctype html><html lang='en'><title>probe</title><script src='/app.js'></script></html>"
SCRIPT = b"window.loaded = true;"


@pytest.fixture(scope="module")
def site():
    """``(url, hits)``: a page that loads /app.js (cacheable for an hour); ``hits[path]``: requests per path."""
    hits: Counter = Counter()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits[self.path] += 1
            body, kind, cache = ((SCRIPT, "text/javascript", "max-age=3600") if self.path == "/app.js"
                                 else (PAGE, "text/html", "no-store"))
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Cache-Control", cache)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/", hits
    server.shutdown()
    server.server_close()


GEO = "() => navigator.permissions.query({name: 'geolocation'}).then(p => p.state)"
REDUCED = "() => matchMedia('(prefers-reduced-motion: reduce)').matches"


def test_a_warm_page_finds_the_cache_and_nothing_else_an_earlier_test_left(warm_contexts, js_errors, request, site):
    url, hits = site
    with warm_contexts.page_for(request, js_errors, {"width": 800, "height": 600}) as first:
        context = first.context
        first.goto(url)
        assert first.evaluate("() => window.loaded") is True
        first.evaluate("""() => { localStorage.setItem('left', 'behind');
                                  document.cookie = 'left=behind; path=/';
                                  document.cookie = 'username-probe=kept; path=/'; }""")
        context.grant_permissions(["geolocation"], origin=url.rstrip("/"))
        assert first.evaluate(GEO) == "granted"
        context.route("**/routed", lambda route: route.fulfill(body="from a route"))
        extra = context.new_page()  # a second tab the test does not close
        assert first.viewport_size == {"width": 800, "height": 600}
        assert first.evaluate(REDUCED) is False
    assert first.is_closed() and extra.is_closed()
    try:
        with warm_contexts.page_for(request, js_errors, {"width": 640, "height": 480}, "reduce") as second:
            assert second.context is context  # the same warm context...
            second.goto(url)
            assert second.evaluate("() => window.loaded") is True
            assert hits["/app.js"] == 1, "the script came from the server again, not from the context's cache"
            assert hits["/"] == 2
            assert second.evaluate("() => localStorage.getItem('left')") is None  # ...and nothing else
            cookies = {c["name"]: c["value"] for c in context.cookies()}
            assert "left" not in cookies and cookies.get("username-probe") == "kept"
            assert second.evaluate(GEO) == "prompt"
            assert second.evaluate("() => fetch('/routed').then(r => r.status)") == 200
            assert hits["/routed"] == 1
            assert second.viewport_size == {"width": 640, "height": 480}
            assert second.evaluate(REDUCED) is True
    finally:
        context.clear_cookies(name="username-probe")
    assert js_errors == []


def test_a_fresh_page_has_a_context_of_its_own(fresh_page, warm_contexts, site):
    url, hits = site
    before = hits["/app.js"]
    fresh_page.goto(url)
    assert fresh_page.context not in warm_contexts.contexts.values()
    assert hits["/app.js"] == before + 1  # nothing cached
