"""Start-up of the static site's browser kernel (JupyterLite, Pyodide): imported once, right after the kernel starts.

`make site` builds this folder into a tiny wheel in the site's Pyodide lock and adds ``import safari_site`` to
the kernel's start-up. It does one thing: when a cell needs a package the site's runtime does not carry
(the offline build has no numpy, pandas or matplotlib: no browser build of them can be made from PyPI or npm),
the learner reads one sentence instead of a traceback, and "Run all" goes on to the next cell (issue 18):
the lessons put what needs numpy in cells of its own, so everything else in a lesson runs offline.

* A cell that raises ``ModuleNotFoundError`` for numpy, pandas, matplotlib or scipy shows the sentence of
  :func:`safari_kit.presentation.offline.needs_package` (the app page's words too) and ends without an error:
  the kernel reports an error only when the shell shows a traceback, so the notebook goes on running.
* The names that cell would have defined (``np``, a table, a simulation's result) are remembered; a later cell
  stopped by a ``NameError`` for one of them needs the same package, and says so in the same sentence
  instead of a ``NameError`` traceback (and the names it would have defined wait for that package too).

Any other error is shown as usual. In JupyterLab or Binder nothing of this is installed: every cell runs.
"""
from __future__ import annotations

import ast
import html
import sys

#: a name a cell stopped by a missing package would have defined -> that package
_NEEDS: dict[str, str] = {}
_CELL = {"source": ""}


def _remember_cell(info) -> None:
    _CELL["source"] = getattr(info, "raw_cell", "") or ""


def bound_names(source: str, missing: str, packages: tuple[str, ...]) -> dict[str, str]:
    """The names a cell binds, each with the package it waits for: an ``import numpy as np`` names its own
    module; any other name (an assignment, a loop variable, an import from the kit) the missing package."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            for alias in node.names:
                root = (module or alias.name).split(".")[0]
                names[alias.asname or alias.name.split(".")[0]] = root if root in packages else missing
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names[node.id] = missing
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = missing
    return names


def _needs_package(shell, etype, value, tb, tb_offset=None):
    """The sentence in place of the traceback; not an error, so "Run all" goes on with the next cell."""
    from safari_kit.presentation.offline import DATA_PACKAGES, data_package_missing, needs_package

    if isinstance(value, NameError):
        package = _NEEDS.get(getattr(value, "name", None) or "")
    else:
        package = data_package_missing(value)
    if package is None:
        return shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    # what this cell would have defined waits for the package too (and what a cell using that defines, ...)
    source = shell.transform_cell(_CELL["source"]) if _CELL["source"] else ""
    _NEEDS.update({name: p for name, p in bound_names(source, package, DATA_PACKAGES).items() if name not in _NEEDS})
    sentence = needs_package(package)
    shell.display_pub.publish(data={
        "text/plain": sentence,
        "text/html": ("<p class='safari-needs-package' style='margin:0;padding:4px 10px;border-left:4px solid "
                      f"#d08a00;background:#fff7e0'>{html.escape(sentence)}</p>"),
    })
    return None


def install() -> None:
    try:
        from IPython import get_ipython
        shell = get_ipython()
        if shell is None:
            from pyodide_kernel import kernel_instance  # the kernel's own shell
            shell = kernel_instance.interpreter
        shell.events.register("pre_run_cell", _remember_cell)
        shell.set_custom_exc((ModuleNotFoundError, NameError), _needs_package)
    except Exception as exc:  # never stop the kernel from starting
        print(f"safari_site: start-up check not installed ({exc})", file=sys.stderr)


install()
