"""What a learner keeps in the static site, and what a teacher's republish does (issue 18, item 4; the claims of
docs/teachers.md, "Learners' work on the static site"), checked in JupyterLite itself.

A copy of the built offline site (hard links: the session's site is not touched) is served on 127.0.0.1 by
the handler of ``python3 site/serve.py``. A browser with a profile folder of its own stands for a learner's
browser account; a second browser with a fresh profile for another computer (or a private window):

* Ctrl+S stores the learner's edit; the browser restarted on the same profile opens the edited copy (and so
  would anyone else using that account); File ▸ Download hands the edited notebook over as a file;
* another profile opens the published lesson;
* the teacher republishes (a lesson's file changes on the server): a lesson the learner did not edit opens
  in its new version, even in the profile that has edits of another lesson; the edited lesson opens as the
  learner left it; once the learner renames their copy, the lesson opens in its new version again and the
  renamed copy keeps their work.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from tests.browser.test_site_subpath import _serve_site_module

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EDITED, UNTOUCHED = "notebooks/02-identification.ipynb", "notebooks/03-challenge.ipynb"
READY = """(path) => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    return !!(w && w.context && w.context.path === path && w.context.isReady); }"""
FIRST_CELL = "() => window.jupyterapp.shell.currentWidget.model.sharedModel.cells[0].getSource()"


@pytest.fixture(scope="module")
def site_copy(offline_site, tmp_path_factory):
    """(address, folder) of a hard-linked copy of the built site, served with serve.py's handler."""
    root = tmp_path_factory.mktemp("republish") / "site"
    shutil.copytree(offline_site.root, root, copy_function=os.link, symlinks=True)
    handler = functools.partial(_serve_site_module().Handler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.quiet = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", root
    finally:
        server.shutdown()
        server.server_close()


def republish(root: Path, path: str, words: str) -> None:
    """The teacher's new version of a lesson: a first cell more (a new file: the copy's hard link is left alone)."""
    target = root / "files" / path
    nb = json.loads(target.read_text(encoding="utf-8"))
    nb["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": [words]})
    target.unlink()
    target.write_text(json.dumps(nb), encoding="utf-8")


#: the first cell of ``path`` as the site's JupyterLab opens it: read through the same contents service the
#: notebook panel reads (the learner's stored copy first, then the server's file), on a page opened afresh with no
#: notebook, so no Python kernel starts for a look at one cell (issue 28: each opened lesson booted Pyodide)
STORED_FIRST_CELL = """async (path) => {
    const contents = window.jupyterapp.serviceManager.contents;
    const model = await contents.get(path, {content: true});
    const source = model.content.cells[0].source;
    return Array.isArray(source) ? source.join('') : source;
}"""
APP_READY = ("() => !!(window.jupyterapp && window.jupyterapp.serviceManager"
             " && window.jupyterapp.serviceManager.isReady)")


def open_notebook(page, url: str, path: str) -> str:
    """Open ``path`` in the site's JupyterLab (its kernel starts); its first cell."""
    page.goto(f"{url}lab/index.html?path={path}", wait_until="domcontentloaded")
    page.wait_for_function(READY, arg=path, timeout=120_000, polling=200)
    return page.evaluate(FIRST_CELL)


def first_cells(page, url: str, *paths: str) -> list[str]:
    """The first cell of each of ``paths`` that the site's JupyterLab, opened afresh, would show (one page load for
    them all, issue 28: a load of the site's JupyterLab costs 3-4 CPU-s)."""
    page.goto(f"{url}lab/index.html", wait_until="domcontentloaded")
    page.wait_for_function(APP_READY, timeout=120_000, polling=200)
    return [page.evaluate(STORED_FIRST_CELL, path) for path in paths]


def test_a_learner_keeps_hands_in_and_gets_the_republished_lesson(browser, chromium_path, site_copy, tmp_path):
    from tests.browser.conftest import CHROMIUM_ARGS

    url, root = site_copy
    published = json.loads((root / "files" / EDITED).read_text())["cells"][0]["source"]
    published = "".join(published) if isinstance(published, list) else published

    def learner():  # a browser account: its storage lives in the profile folder
        return browser.browser_type.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1366, "height": 768}, accept_downloads=True)

    ctx = learner()
    try:
        page = ctx.new_page()
        assert open_notebook(page, url, EDITED) == published
        page.evaluate("""() => window.jupyterapp.shell.currentWidget.model.sharedModel.insertCell(0,
                          {cell_type: 'markdown', source: 'MY WORK'})""")
        page.locator(".jp-Notebook").first.click()
        page.keyboard.press("Control+s")
        page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=10_000)
        assert page.evaluate("() => window.jupyterapp.commands.label('docmanager:download')") == "Download"
        with page.expect_download() as download:  # File ▸ Download
            page.evaluate("() => window.jupyterapp.commands.execute('docmanager:download')")
        handed_in = json.loads(Path(download.value.path()).read_text())
        assert "".join(handed_in["cells"][0]["source"]) == "MY WORK"
        assert download.value.suggested_filename.endswith("02-identification.ipynb")
    finally:
        ctx.close()

    other = browser.new_context()  # another computer, or a private window: a fresh storage
    ctx = learner()                # the same account, browser restarted
    try:
        page, elsewhere = ctx.new_page(), other.new_page()
        assert first_cells(page, url, EDITED) == ["MY WORK"]
        assert first_cells(elsewhere, url, EDITED) == [published]

        republish(root, EDITED, "NEW VERSION of 02")
        republish(root, UNTOUCHED, "NEW VERSION of 03")
        untouched, edited = first_cells(page, url, UNTOUCHED, EDITED)  # the page opened afresh after the republish
        assert untouched == "NEW VERSION of 03"   # not edited: the new version
        assert edited == "MY WORK"                # edited: the learner's copy wins
        assert first_cells(elsewhere, url, EDITED) == ["NEW VERSION of 02"]

        # the way to the new version that keeps the work: rename the copy (file browser: right-click, Rename)
        page.evaluate("(p) => window.jupyterapp.serviceManager.contents.rename(p, 'notebooks/02-mine.ipynb')",
                      EDITED)
        assert first_cells(page, url, EDITED, "notebooks/02-mine.ipynb") == ["NEW VERSION of 02", "MY WORK"]
    finally:
        ctx.close()
        other.close()
