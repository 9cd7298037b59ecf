"""A return visit to the site asks its server for pages only, and a republished site still reaches the learner.

The site's runtime and Voici's scripts sit in folders named by their content (site-src/versioned_runtime.py),
which site-src/serve_site.py serves ``immutable``: on a second visit Chromium takes them from its cache without
a request (each revalidation round trip costs seconds of CPU at a quarter of a core: tools/measure_site.py),
while pages and lessons are revalidated. Then the site is republished with a new kit wheel and a changed
lesson: the next visit gets both. A tiny stand-in site (tests/test_site_versioned.py's), served on 127.0.0.1
by serve_site's handler, whose page loads its script and fetches the kit and the lesson, as the real app does.
"""
from __future__ import annotations

import time

import collections
import functools
import http.server
import shutil
import threading

import pytest

from tests.test_site_serve import serve_site
from tests.test_site_versioned import APP, fake_site, version

pytestmark = pytest.mark.browser  # fast: a stand-in site, no build

SCRIPT = """
const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
const kit = config.kernel.lockFileURL.replace('pyodide-lock.json', 'safari_kit-0.1.0-py3-none-any.whl');
Promise.all([fetch('../../../' + kit),
             fetch('../../../files/lesson.md')])
  .then(rs => Promise.all(rs.map(r => r.text())))
  .then(([kit, lesson]) => { document.body.dataset.loaded = kit + ' | ' + lesson; });
"""


def publish(root, kit: bytes, lesson: str) -> None:
    """(Re)build the stand-in site in ``root``, as `make site` would: a fresh folder, then versioned."""
    shutil.rmtree(root, ignore_errors=True)
    fake_site(root, kit)
    (root / "voici" / "build" / "voici.js").write_text(SCRIPT)
    (root / "files").mkdir()
    (root / "files" / "lesson.md").write_text(lesson)
    version(root)


@pytest.fixture
def served_site(tmp_path):
    root = tmp_path / "site"
    publish(root, b"kit 1", "lesson 1")
    seen: collections.Counter = collections.Counter()

    class Counting(serve_site.Handler):
        def log_request(self, code="-", size="-"):
            if self.path != "/favicon.ico":  # the stand-in has none (the real site has)
                    seen[(self.path.split("?")[0], int(code))] += 1

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(root)))
    server.quiet = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}/", seen
    finally:
        server.shutdown()
        server.server_close()


def test_second_visit_asks_for_pages_only_and_a_republished_site_arrives(browser, served_site):
    root, url, seen = served_site
    context = browser.new_context()
    try:
        def visit() -> str:
            seen.clear()
            page = context.new_page()
            page.goto(url + APP)
            page.wait_for_function("() => document.body.dataset.loaded", timeout=10_000)
            loaded = page.evaluate("() => document.body.dataset.loaded")
            page.close()
            return loaded

        assert visit() == "kit 1 | lesson 1"
        assert all(code == 200 for _, code in seen), seen
        assert visit() == "kit 1 | lesson 1"
        # the page and the lesson are asked again (304); the script and the kit come from the cache, unasked
        assert dict(seen) == {(f"/{APP}", 304): 1, ("/files/lesson.md", 304): 1}, dict(seen)
        time.sleep(1.1)  # a republished file's time differs from the first one's (HTTP dates have whole seconds)
        publish(root, b"kit 2", "lesson 2")
        assert visit() == "kit 2 | lesson 2"       # a new kit wheel and a changed lesson reach the learner
        assert any("/static/pyodide-" in path and code == 200 for path, code in seen), dict(seen)
    finally:
        context.close()
