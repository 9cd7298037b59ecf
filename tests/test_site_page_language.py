"""The static site's kernel keeps a lesson's language from cell to cell (site-src/safari_site/page_language.py).

The site's Pyodide kernel runs each cell in an asyncio task of its own, started from a copy of the kernel's
context, so a lesson's ``set_language("es")`` in its first cell was lost in the next (found by
tests/browser/test_site_spanish_browser.py: the Spanish lesson's check answered in English). Here each "cell" runs
in a fresh copy of one base context, as there; the control shows the language is lost without the carry. And the
app page's values reach ``os.environ`` from Pyodide's start options, nothing else, cut to 200 characters.
"""
from __future__ import annotations

import contextvars
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "site-src"))
from safari_site import page_language  # noqa: E402

from safari_kit.core.i18n import chosen_language, set_language  # noqa: E402


class _Events:
    def __init__(self) -> None:
        self.hooks: dict[str, list] = {}

    def register(self, name, fn) -> None:
        self.hooks.setdefault(name, []).append(fn)

    def trigger(self, name) -> None:
        for fn in self.hooks.get(name, []):
            fn(None)


class _Shell:
    def __init__(self) -> None:
        self.events = _Events()


def _cells(shell, base: contextvars.Context) -> list:
    """Cell 1 sets Spanish, cell 2 reads the language: each in its own copy of ``base`` (as the site's kernel)."""
    seen = []

    def cell(code):
        shell.events.trigger("pre_run_cell")
        code()
        shell.events.trigger("post_run_cell")

    base.copy().run(cell, lambda: set_language("es"))
    base.copy().run(cell, lambda: seen.append(chosen_language()))
    return seen


def test_a_lessons_language_reaches_its_next_cell():
    base = contextvars.copy_context()
    assert _cells(_Shell(), base) == [None]  # the control: the language is lost between cells
    shell = _Shell()
    assert page_language.keep_language(shell) is True and page_language.keep_language(shell) is False
    assert _cells(shell, base) == ["es"]


def test_only_the_pages_values_reach_the_environment():
    env = {"QUERY_STRING": "lang=es" + "x" * 300, "PATH": "/evil", "HTTP_ACCEPT_LANGUAGE": 3}
    assert page_language.values(env) == {"QUERY_STRING": ("lang=es" + "x" * 300)[:200]}
    assert page_language.apply() == {}  # outside Pyodide: nothing
