"""The page's language for the static site's kernel (issue 30): called by the kernel's start-up, every start.

The app page tells its kernel the learner's language as Voilà does on a server, in ``$QUERY_STRING``
(``lang=es``: site-src/site_languages.py puts it in Pyodide's start options, ``env``), and
``safari_kit.widgets.app.page_language`` reads it there. A kernel restored from the app page's memory snapshot
(site-src/snapshot.py) keeps the environment Python had at build time, not the one of this visit: :func:`apply`
copies this visit's values from Pyodide's start options into ``os.environ``. Nothing else is copied, and a value
is cut to 200 characters: the kit trusts only a language it has a catalogue for.
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


def apply() -> dict[str, str]:
    """Copy this visit's values into ``os.environ``; returns them (nothing outside Pyodide)."""
    try:
        import pyodide_js
    except ImportError:
        return {}
    try:
        env = pyodide_js._api.config.env
    except AttributeError:  # another Pyodide: the environment as Python started with it
        return {}
    found = values(env)
    os.environ.update(found)
    return found
