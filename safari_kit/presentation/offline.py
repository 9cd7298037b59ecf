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
"""
from __future__ import annotations

__all__ = ["DATA_PACKAGES", "needs_package", "data_package_missing"]

#: off the play path (issue 13): only the Simulation lab and some lesson cells need one; the offline site has none
DATA_PACKAGES = ("numpy", "pandas", "matplotlib", "scipy")

SENTENCE = ("{what} needs {package}, which this offline copy of the site does not have: "
            "it runs on the online site or on Binder (ask your teacher for the link).")


def needs_package(package: str, what: str = "This part") -> str:
    """The sentence for ``what`` (a lab's or a lesson part's name) needing ``package``."""
    return SENTENCE.format(what=what, package=package)


def data_package_missing(exc: BaseException) -> str | None:
    """The data package (``numpy``, ...) whose absence raised ``exc`` (a ModuleNotFoundError), else None."""
    name = (getattr(exc, "name", None) or "").split(".")[0] if isinstance(exc, ModuleNotFoundError) else ""
    return name if name in DATA_PACKAGES else None
