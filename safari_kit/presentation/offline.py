"""The one sentence a learner reads where a part of the kit needs numpy, pandas or matplotlib and Python lacks it.

The offline static site (``make site OFFLINE=1``) runs Python in the learner's browser without numpy, pandas or
matplotlib: no browser build of them can be made from PyPI or npm. Everything that plays runs there (the kit plays
with the standard library alone); the Simulation lab and the lesson cells that draw tables, plots or Monte Carlo
samples do not. Both places say so in the same words, with a way forward a learner can take: the app page
(:mod:`safari_kit.widgets.app`, for the Simulation lab) and the site's kernel start-up (``site-src/safari_site``,
for a lesson cell, instead of a traceback). The sentence names no command: a learner cannot run ``make`` in a
browser tab.

>>> print(needs_package("numpy"))
This part needs numpy, which this offline copy of the site does not have: it runs on the online site or on
Binder (ask your teacher for the link).
>>> needs_package("numpy", "The Simulation lab").startswith("The Simulation lab needs numpy, which")
True

The online site's app page has numpy and pandas, but loads them in the background once the page is up
(``site-src/safari_site/later.py``): until then the offline sentence would be false. The loader says what it is
loading (:func:`loading_in_background`) and when it is done (:func:`background_load_done`); meanwhile the sentence
says the package is still loading and the app reopens the lab by itself when it is there (:func:`when_loaded`);
if the load failed, it says that instead.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from safari_kit.core.i18n import N_, _

__all__ = ["DATA_PACKAGES", "needs_package", "data_package_missing", "loading_in_background",
           "background_load_done", "when_loaded"]

#: off the play path (issue 13): only the Simulation lab and some lesson cells need one; the offline site has none
DATA_PACKAGES = ("numpy", "pandas", "matplotlib", "scipy")

SENTENCE = N_("{what} needs {package}, which this offline copy of the site does not have: "
            "it runs on the online site or on Binder (ask your teacher for the link).")
LOADING = N_("{what} needs {package}, which is still loading in the background: it opens by itself in a few "
             "seconds.")
FAILED = N_("{what} needs {package}, which could not be loaded from the online Python runtime (is this computer "
          "online?): reload the page to try again.")

#: packages being loaded in the background (the online app page), those whose load failed, and what waits for them
_loading: set[str] = set()
_failed: set[str] = set()
_waiting: list[Callable[[], None]] = []


def needs_package(package: str, what: str | None = None) -> str:
    """The sentence for ``what`` (a lab's or a lesson part's name) needing ``package``: missing from this copy,
    still loading in the background, or failed to load."""
    sentence = LOADING if package in _loading else FAILED if package in _failed else SENTENCE
    return _(sentence).format(what=_("This part") if what is None else what, package=package)


def loading_in_background(packages: Iterable[str]) -> None:
    """The background loader's word: these packages are on their way."""
    _loading.update(packages)
    _failed.difference_update(packages)


def background_load_done(packages: Iterable[str], ok: bool) -> None:
    """The background loader's word: these packages arrived (``ok``) or failed; runs what waited for them."""
    names = set(packages)
    _loading.difference_update(names)
    if not ok:
        _failed.update(names)
    waiting = list(_waiting)
    _waiting.clear()
    for callback in waiting:
        try:
            callback()
        except Exception as exc:  # noqa: BLE001 - one failing waiter must not keep the others waiting
            print(f"safari_kit: after loading {', '.join(sorted(names))}: {type(exc).__name__}: {exc}",
                  file=sys.stderr)


def when_loaded(package: str, callback: Callable[[], None]) -> bool:
    """Call ``callback`` once ``package``'s background load ends, if it is loading; whether it will be called."""
    if package not in _loading:
        return False
    _waiting.append(callback)
    return True


def data_package_missing(exc: BaseException) -> str | None:
    """The data package (``numpy``, ...) whose absence raised ``exc`` (a ModuleNotFoundError), else None."""
    name = (getattr(exc, "name", None) or "").split(".")[0] if isinstance(exc, ModuleNotFoundError) else ""
    return name if name in DATA_PACKAGES else None
