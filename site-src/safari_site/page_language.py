"""The page's language for the static site's kernel (issue 30): called by the kernel's start-up, every start.

The app page tells its kernel the learner's language as Voilà does on a server, in ``$QUERY_STRING``
(``lang=es``: site-src/site_languages.py puts it in Pyodide's start options, ``env``), and
``safari_kit.widgets.app.page_language`` reads it there. A kernel restored from the app page's memory snapshot
(site-src/snapshot.py) keeps the environment Python had at build time, not the one of this visit: :func:`apply`
copies this visit's values from Pyodide's start options into ``os.environ``. Nothing else is copied, and a value
is cut to 200 characters: the kit trusts only a language it has a catalogue for.

A lesson's ``set_language("es")`` (its first cell, ``safari_kit.core.i18n``) sets a context variable. The site's
kernel runs each cell in an asyncio task of its own, which starts from a copy of the kernel's context: the
language chosen in one cell was gone in the next, and a Spanish lesson's checks and labs answered in English.
:func:`keep_language` carries the language a cell ended with into the next cell (IPython's ``post_run_cell``
and ``pre_run_cell`` run inside the cell's own task). A server's kernel (ipykernel) keeps it by itself.
"""
from __future__ import annotations

import os

#: what the page may tell the kernel
KEYS = ("QUERY_STRING", "HTTP_ACCEPT_LANGUAGE", "SAFARI_KIT_LANG")


def values(env) -> dict[str, str]:
    """The page's values of ``KEYS`` in ``env`` (a JS object of Pyodide's start options, or a dict)."""
    found = {}
    for key in KEYS:
        value = env.get(key) if isinstance(env, dict) else getattr(env, key, None)
        if isinstance(value, str):
            found[key] = value[:200]
    return found


class _Carry:
    """The language a cell ended with, set again at the start of the next cell."""

    def __init__(self) -> None:
        self.lang: str | None = None

    def before(self, info=None) -> None:
        if self.lang is not None:
            from safari_kit.core.i18n import chosen_language, set_language

            if chosen_language() != self.lang:
                set_language(self.lang)

    def after(self, result=None) -> None:
        from safari_kit.core.i18n import chosen_language

        self.lang = chosen_language() or self.lang


def keep_language(shell) -> bool:
    """Register the carry on ``shell`` (an IPython shell) once; True when it is registered now."""
    if shell is None or getattr(shell, "_safari_keeps_language", False):
        return False
    carry = _Carry()
    shell.events.register("pre_run_cell", carry.before)
    shell.events.register("post_run_cell", carry.after)
    shell._safari_keeps_language = True
    return True


def _shell():
    try:
        from IPython import get_ipython

        shell = get_ipython()
        if shell is None:
            from pyodide_kernel import kernel_instance  # the kernel's own shell

            shell = kernel_instance.interpreter
        return shell
    except Exception:  # noqa: BLE001 - no shell: nothing to carry
        return None


def apply() -> dict[str, str]:
    """Copy this visit's values into ``os.environ`` and keep a lesson's language from cell to cell; returns the
    values (nothing outside Pyodide)."""
    try:
        import pyodide_js
    except ImportError:
        return {}
    keep_language(_shell())
    try:
        env = pyodide_js._api.config.env
    except AttributeError:  # another Pyodide: the environment as Python started with it
        return {}
    found = values(env)
    os.environ.update(found)
    return found
