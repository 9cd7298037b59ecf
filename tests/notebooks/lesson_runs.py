"""The lessons' whole copies, executed once a ``make test`` run for two purposes (issue 28).

tests/binder/test_binder_env.py executes every lesson's whole copy (Binder's ``my-lessons/``: the notebooks of
``notebooks/`` with their links made relative to that folder; the same code cells) in a venv built from
binder/requirements.txt alone, one fresh kernel per lesson. tests/notebooks/test_run_notebooks.py checks that
every lesson runs top to bottom without an error or a printed traceback. One run serves both: the Binder test
:func:`record`\\ s each lesson its venv ran without an error, and test_run_notebooks checks the outputs of that
run (:func:`executed`); a lesson nobody recorded (``make check``, which leaves tests/binder out, a file run on
its own, a lesson that failed in Binder's venv) it executes itself, in this venv's kernel.

The record lives in this process only: tests/conftest.py makes the two files one unit of pytest-xdist's work
(``LESSON_RUNS``), so in ``make test`` one worker runs the Binder test and then test_run_notebooks. Before that
(the lead's fresh-clone run) each lesson was executed twice, once per file: 11 kernels and about 20 CPU-s more.
"""
from __future__ import annotations

import copy

#: file name (``00-start-here.ipynb``) -> the notebook as Binder's venv left it, outputs in (an nbformat NotebookNode)
_RUNS: dict[str, dict] = {}
#: where the recorded runs come from, for the test's report
_WHERE: dict[str, str] = {}


def record(name: str, notebook, where: str) -> None:
    """``notebook``, executed without an error by ``where`` (a few words), stands for lesson ``name``'s run."""
    _RUNS[name] = copy.deepcopy(notebook)
    _WHERE[name] = where


def executed(name: str):
    """(the executed notebook, where it ran) of lesson ``name`` if this process recorded one, else None."""
    if name not in _RUNS:
        return None
    return copy.deepcopy(_RUNS[name]), _WHERE[name]

