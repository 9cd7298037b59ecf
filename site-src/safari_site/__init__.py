"""Start-up of the static site's browser kernel (JupyterLite, Pyodide): imported once, right after the kernel starts.

`make site` builds this folder into a tiny wheel in the site's Pyodide lock and adds ``import safari_site`` to
the kernel's start-up. It does one thing: when a cell needs a package the site's runtime does not carry
(the offline build has no numpy, pandas or matplotlib: no browser build of them can be made from PyPI or npm),
the learner reads one sentence instead of a traceback.
"""
from __future__ import annotations

import sys

#: packages of the standard online Pyodide distribution that the offline site leaves out
ONLINE_ONLY = ("numpy", "pandas", "matplotlib", "scipy")

SENTENCE = ("This part of the kit needs {name}, which this offline copy of the site does not include: "
            "open it on the online site, or on a computer with `make lab`.")


def _friendly_missing_module(shell, etype, value, tb, tb_offset=None):
    """The sentence in place of the traceback; still an error, so "Run all" stops at this cell."""
    name = (getattr(value, "name", None) or "").split(".")[0]
    if name in ONLINE_ONLY:
        stb = [SENTENCE.format(name=name)]
        shell._showtraceback(etype, value, stb)
        return stb
    return shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def install() -> None:
    try:
        from IPython import get_ipython
        shell = get_ipython()
        if shell is None:
            from pyodide_kernel import kernel_instance  # the kernel's own shell
            shell = kernel_instance.interpreter
        shell.set_custom_exc((ModuleNotFoundError,), _friendly_missing_module)
    except Exception as exc:  # never stop the kernel from starting
        print(f"safari_site: start-up check not installed ({exc})", file=sys.stderr)


install()
