"""Run lessons' student copies the way the offline static site's kernel runs them, without a browser.

Run by ``tests/test_offline_lessons.py`` in a subprocess: ``python tests/offline_kernel.py 03-challenge.ipynb ...``
prints ``RESULT {...}`` (an argument ending in ``.json`` is a file holding a list of cell sources: a made-up
lesson, for the tests' controls). numpy, pandas, matplotlib and scipy cannot be imported here (a meta-path finder raises
``ModuleNotFoundError``, as in Pyodide without them), and the site's start-up check (``site-src/safari_site``) is
installed on an IPython shell, as the site's kernel does at start. Each code cell of each lesson runs in turn,
as "Run all" runs them; for every cell the result says whether it ran, showed the one sentence, or showed a
traceback (the site's kernel reports an error, and stops "Run all", exactly when the shell shows a traceback).
"""
from __future__ import annotations

import contextlib
import importlib.abc
import io
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BLOCKED = ("numpy", "pandas", "matplotlib", "scipy")


class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named '{name}'", name=name)
        return None


def run_lessons(names: list[str]) -> dict:
    for name in list(sys.modules):
        if name.split(".")[0] in BLOCKED:
            raise RuntimeError(f"{name} was imported before the offline kernel started")
    sys.meta_path.insert(0, _NotInstalled())
    sys.path[:0] = [str(REPO / "site-src"), str(REPO)]
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    tracebacks: list[str] = []
    shell._showtraceback = lambda etype, evalue, stb: tracebacks.append(f"{etype.__name__}: {evalue}")
    import safari_site

    from safari_kit.presentation.offline import needs_package

    words = needs_package("numpy").split("numpy", 1)[1]  # what every package's sentence says after its name
    report: dict = {"blocked": BLOCKED, "lessons": {}}
    for lesson in names:
        shell.reset(new_session=False)
        safari_site._NEEDS.clear()
        cells = []
        for source in _code_cells(lesson):
            tracebacks.clear()
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                shell.run_cell(source, store_history=False)
            text = out.getvalue()
            cells.append({"source": source, "traceback": list(tracebacks), "sentences": text.count(words),
                          "output": text[-2000:]})
        report["lessons"][lesson] = cells
    report["heavy_modules"] = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    return report


def _code_cells(lesson: str) -> list[str]:
    """The code cells of a lesson's student copy (what the site serves), or of a made-up lesson (.json)."""
    if lesson.endswith(".json"):
        return json.loads(Path(lesson).read_text(encoding="utf-8"))
    from safari_kit.authoring import student

    notebook, _ = student.student_copy(student.read_lesson(REPO / "notebooks" / lesson), lesson)
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in notebook["cells"] if c["cell_type"] == "code"]


if __name__ == "__main__":
    print("RESULT " + json.dumps(run_lessons(sys.argv[1:])))
