"""One JupyterLab page per pytest process for the files that open their notebooks in ``lab_server`` (issue 28).

Loading JupyterLab costs Chromium and the server a few CPU-seconds each time. The files that use this module
(test_no_scroll, test_table_words_browser, test_learner_lessons_browser, test_lab_smoke, test_labs_browser,
test_simulation_browser, test_knockout_flow_browser; since session 10 also test_rules_pages_browser,
test_tutorial_rulings_browser and test_witness_labs_issue27_browser, which opens both side panels and closes them
again at its end) each loaded it at least once, test_lab_smoke twice; now the
first of them that runs in a process (a pytest-xdist worker) loads it, and every test after it opens its notebook
in the same page (``switch_notebook``: the notebook before is closed and its kernel shut down). At a module's end
its notebooks are closed and their kernels shut down, so the next module finds JupyterLab with nothing open.

The page is made with ``reduced_motion=QUIET_MOTION`` (tests/browser/conftest.py: no card glows; none of these
tests looks at motion) and set to each test's own viewport before the test (1366x768 or 1400x900, as before). It is
a resident page of the process's warm context (conftest's ``WarmContexts``): the other tests' pages on
``lab_server`` find JupyterLab's files in its cache, and it finds theirs when a page broke and it is made again.

Use::

    from tests.browser.lab_tab import lab_tab, tab_page  # noqa: F401 - lab_tab: the fixture

    laptop = tab_page(1366, 768)  # a fixture: the shared page for one test, at 1366x768

``tab_page`` (``LabTab.for_test``) sends the page's uncaught errors (and, with ``console=True``, its
``console.error`` messages, as conftest's ``page`` fixture does) to that test's ``js_errors`` only, and saves
``test-artifacts/<test name>-failure.png`` when the test fails.
"""
from __future__ import annotations

import contextlib
import re

import pytest

from tests.browser.conftest import QUIET_MOTION
from tests.browser.helpers import IGNORED_CONSOLE, RunResult, run_all_cells, screenshot, settle, switch_notebook

#: closes every notebook of the page (dropping unsaved changes) and shuts its kernel down, as switch_notebook does
CLOSE_ALL = """async () => {
    const app = window.jupyterapp;
    if (!app) return;
    for (const w of Array.from(app.shell.widgets('main'))) {
        if (w.sessionContext) { try { await w.sessionContext.shutdown(); } catch (e) { /* gone already */ } }
        if (w.context && w.context.model) w.context.model.dirty = false;
        w.dispose();
    }
}"""


class LabTab:
    """The process's JupyterLab page (``page``) and where its errors go now (``sink``)."""

    def __init__(self, browser, server, warm):
        self.browser, self.server, self.warm = browser, server, warm
        # a resident page of the warm context (conftest.WarmContexts): JupyterLab's files cached for the other
        # tests' pages on lab_server, as theirs for it
        self.page = warm.new_page({"width": 1366, "height": 768}, QUIET_MOTION, resident=True)
        self.context = self.page.context
        self.sink: list[str] | None = None
        self.console = False
        ignored = [re.compile(p) for p in IGNORED_CONSOLE]

        def on_console(msg):
            if msg.type != "error" or not self.console or self.sink is None:
                return
            loc = msg.location or {}
            where = f" ({loc.get('url', '')}:{loc.get('lineNumber', '')})" if loc.get("url") else ""
            if not any(rx.search(msg.text + where) for rx in ignored):
                self.sink.append(f"console.error: {msg.text}{where}")

        def on_error(exc):
            if self.sink is not None:
                self.sink.append(f"pageerror: {exc}")

        self.page.on("console", on_console)
        self.page.on("pageerror", on_error)

    def usable(self, browser, server) -> bool:
        return self.browser is browser and self.server is server and not self.page.is_closed()

    def close_notebooks(self) -> None:
        """Close every notebook and shut its kernel down (the page stays, with JupyterLab loaded)."""
        if self.page.is_closed() or not self.page.url.startswith(self.server.url):
            return
        try:
            self.page.evaluate(CLOSE_ALL)
        except Exception:  # noqa: BLE001 - a page that broke: the next module starts a new one
            self.warm.release(self.page)

    @contextlib.contextmanager
    def for_test(self, request, js_errors: list[str], width: int, height: int, console: bool = False):
        """The page for one test at ``width`` x ``height``; its errors go to ``js_errors``."""
        self.page.set_viewport_size({"width": width, "height": height})
        self.sink, self.console = js_errors, console
        try:
            yield self.page
        finally:
            self.sink, self.console = None, False
            rep = getattr(request.node, "rep_call", None)
            if rep is not None and rep.failed:
                with contextlib.suppress(Exception):  # the page may be gone
                    print(f"\nscreenshot: {screenshot(self.page, request.node.name + '-failure')}")


def switch_and_run(page, server, path: str, name: str | None = None, timeout: float = 120_000) -> RunResult:
    """helpers.open_and_run in the JupyterLab the page shows already (``switch_notebook``): run every cell, wait
    for the widgets, screenshot ``test-artifacts/<name>.png``."""
    switch_notebook(page, server, path, timeout=timeout)
    run = run_all_cells(page, timeout=timeout)
    settle(page)
    screenshot(page, name or path.rsplit("/", 1)[-1].removesuffix(".ipynb"))
    return run


def tab_page(width: int, height: int, console: bool = False):
    """A test's fixture: the process's JupyterLab page at ``width`` x ``height``, errors to the test's ``js_errors``
    (``console``: ``console.error`` messages too)."""
    @pytest.fixture
    def fixture(lab_tab, js_errors, request):
        with lab_tab.for_test(request, js_errors, width, height, console=console) as page:
            yield page
    return fixture


_TABS: list[LabTab] = []


@pytest.fixture(scope="module")
def lab_tab(browser, lab_server, warm_contexts):
    """The process's :class:`LabTab` (made on first use); the module's notebooks are closed at its end."""
    if not (_TABS and _TABS[0].usable(browser, lab_server)):
        _TABS[:] = [LabTab(browser, lab_server, warm_contexts)]
    tab = _TABS[0]
    try:
        yield tab
    finally:
        tab.close_notebooks()
