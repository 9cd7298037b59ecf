"""Pages on the classroom app (Voilà) for the app's browser tests, with less motion (issue 28).

A page that shows the app's labs keeps Chromium drawing 60 frames a second while a selectable card glows
(tests/browser/conftest.py's ``QUIET_MOTION``: 0.26 CPU-s a second for 12 glowing cards); these pages ask for
less motion, as the tour of tests/browser/test_a11y_axe.py does. None of their tests looks at motion (that
test asks for each setting itself: ``test_reduced_motion_stops_animation``).

The pages are in the process's warm context (tests/browser/conftest.py's ``WarmContexts``, issue 28: the app's
files from Chromium's cache; a page is closed and the context reset after its test or module).

* :func:`app_page_for`: one page (1366x768) on the app for a test module, its chooser ready;
  ``page.errors``: uncaught page errors (tests/browser/keys.py's, with less motion).
* :class:`SharedPage`: one page on the app for every test of a module that checked with a page of its own
  (conftest's ``page``): each test gets the page with its own ``js_errors`` (console errors, uncaught errors:
  :meth:`SharedPage.for_test`), and a failing test's screenshot.
* :func:`quiet_page`: conftest's ``page`` (1400x900, a page for each test), with less motion.
* :func:`new_app_context`: a context of its own, with less motion.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import QUIET_MOTION, warm_contexts_of
from tests.browser.helpers import IGNORED_CONSOLE, shot_on_failure

LAPTOP = {"width": 1366, "height": 768}
CHOOSER = ".safari-app .safari-lab-list select"


def new_app_context(browser, viewport: dict, **options):
    return browser.new_context(viewport=viewport, reduced_motion=QUIET_MOTION, **options)


def open_app(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded", timeout=90_000)
    page.locator(CHOOSER).wait_for(timeout=90_000)


def app_page_for(browser, voila_app, viewport: dict = LAPTOP):
    """A page (in the process's warm context) on the app, its chooser ready; ``page.errors``: uncaught page errors.
    A generator: a test module's fixture does ``yield from app_page_for(browser, voila_app)``."""
    warm = warm_contexts_of(browser)
    page = warm.new_page(viewport, QUIET_MOTION, resident=True)
    try:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        open_app(page, voila_app.url)
        page.errors = errors
        yield page
    finally:
        warm.release(page)


def _watch(page, sink) -> None:
    """Console errors (less IGNORED_CONSOLE) and uncaught errors of ``page`` into ``sink()`` (a list)."""
    ignored = [re.compile(p) for p in IGNORED_CONSOLE]

    def on_console(msg):
        if msg.type == "error":
            loc = msg.location or {}
            where = f" ({loc.get('url', '')}:{loc.get('lineNumber', '')})" if loc.get("url") else ""
            if not any(rx.search(msg.text + where) for rx in ignored):
                sink().append(f"console.error: {msg.text}{where}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: sink().append(f"pageerror: {exc}"))


def quiet_page(browser, js_errors, request, viewport: dict | None = None):
    """tests/browser/conftest.py's ``page`` fixture (a page in the warm context, closed after the test), with less
    motion (a generator for a module's ``page``)."""
    with warm_contexts_of(browser).page_for(request, js_errors, viewport or {"width": 1400, "height": 900},
                                            QUIET_MOTION) as page:
        yield page


class SharedPage:
    """One page on the app for a module's tests (``viewport``, less motion, in the process's warm context), opened
    on first use."""

    def __init__(self, browser, viewport: dict = LAPTOP):
        self.warm = warm_contexts_of(browser)
        self.page = self.warm.new_page(viewport, QUIET_MOTION, resident=True)
        self.context = self.page.context
        self.errors: list[str] = []
        _watch(self.page, lambda: self.errors)

    def for_test(self, js_errors: list[str], request):
        """The page for one test: its errors go to the test's ``js_errors``; a failure leaves a screenshot.
        A generator: the module's function fixture does ``yield from shared.for_test(js_errors, request)``."""
        self.errors = js_errors
        try:
            yield self.page
        finally:
            shot_on_failure(self.page, request)
            self.errors = []

    def close(self) -> None:
        self.warm.release(self.page)


def shared_page_fixtures(viewport: dict = LAPTOP):
    """A module's ``shared_page`` (one page on the app, less motion) and ``page`` (it, for one test) fixtures:
    ``shared_page, page = shared_page_fixtures(SMALL)`` in the test module. A module-scoped autouse fixture that
    sets the server's environment (e.g. ``SAFARI_KIT_CLASS_SEED``) still runs before ``voila_app``."""
    @pytest.fixture(scope="module")
    def shared_page(browser, voila_app):
        """One page on the app for the module's tests (issue 28: a visit of the app each, before), less motion."""
        shared = SharedPage(browser, viewport)
        yield shared
        shared.close()

    @pytest.fixture
    def page(shared_page, js_errors, request):
        """The module's page, its errors in this test's ``js_errors`` (conftest's ``page`` was a page per test)."""
        yield from shared_page.for_test(js_errors, request)

    return shared_page, page
