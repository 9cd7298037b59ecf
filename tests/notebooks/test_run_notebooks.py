"""Every lesson notebook runs top to bottom, in its default state, without errors.

Notebooks are committed without outputs (checked here too) and executed with
nbclient, each in a fresh kernel. The whole lessons are executed once a run
(issue 28): where tests/binder/test_binder_env.py ran a lesson without an error
earlier in this process (``make test``: tests/conftest.py keeps the two files on
one worker), its outputs there are checked (tests/notebooks/lesson_runs.py);
elsewhere (``make check``, this file on its own) the lesson runs here, in this
environment's kernel. The student copies (``make student``) run here: without the
solution cells every exercise's stub and check still run (the check says "type
your answer"), and no later cell needs a solution.
"""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from safari_kit.authoring.answer_leaks import find_leaks
from safari_kit.authoring.student import make_student_copies
from tests.kernels import ipc_kernel_manager
from tests.notebooks import lesson_runs

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_lesson_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no .ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_without_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            assert not cell.get("outputs"), f"{path.name} cell {i} has outputs: clear them before committing"
            assert cell.get("execution_count") is None, f"{path.name} cell {i} has an execution count"


def check_outputs(nb, name: str) -> None:
    """An executed notebook shows no error and prints no traceback."""
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{name} cell {i}: {out.get('ename')}: {out.get('evalue')}"
            text = "".join(out.get("text", "")) if out.get("output_type") == "stream" else ""
            assert "Traceback" not in text, f"{name} cell {i} printed a traceback"


def _run(path, cwd):
    from jupyter_client.manager import AsyncKernelManager

    nb = nbformat.read(path, as_version=4)
    with ipc_kernel_manager(AsyncKernelManager, kernel_name="python3") as km:
        client = NotebookClient(nb, km=km, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(cwd)}})
        client.execute()
    check_outputs(nb, path.name)
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path):
    ran = lesson_runs.executed(path.name)
    if ran is None:
        _run(path, path.parent)
        print(f"{path.name}: ran in this venv's kernel")
        return
    nb, where = ran
    # the same code cells (Binder's copy changes only links in the text and the kernel's name)
    code = [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    assert [c.source for c in nb.cells if c.cell_type == "code"] == code, f"{path.name}: not the same code"
    check_outputs(nb, path.name)
    print(f"{path.name}: checked the run of {where}")


def test_control_a_traceback_or_an_error_in_a_run_fails_its_check():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
    check_outputs(nb, "clean.ipynb")
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stderr", text="Traceback (most recent call last)")]
    with pytest.raises(AssertionError, match="printed a traceback"):
        check_outputs(nb, "printed.ipynb")
    nb.cells[0].outputs = [nbformat.v4.new_output("error", ename="NameError", evalue="x", traceback=[])]
    with pytest.raises(AssertionError, match="NameError"):
        check_outputs(nb, "error.ipynb")


@pytest.fixture(scope="module")
def student_copies(tmp_path_factory):
    folder = tmp_path_factory.mktemp("student")
    make_student_copies(ROOT / "notebooks", folder)
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_student_copy_runs_top_to_bottom(path, student_copies):
    nb = _run(student_copies / path.name, path.parent)   # run where the lessons are (relative links, data)
    checks = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("check(")]
    for cell in checks:
        shown = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
        assert "Type your answer" in shown, (path.name, cell.source, shown)
    # what the run printed and drew (text, tables, widgets' saved state) gives no exercise's answer away,
    # above its exercise or below it (tests/teaching/test_answer_leak.py reads the copies' text)
    leaks = find_leaks(json.loads(nbformat.writes(nb)), path.name)
    assert not leaks, f"{path.name} gives answers away once run:\n" + "\n".join(map(str, leaks))


BINDER_TEST = "tests/binder/test_binder_env.py::test_binder_requirements_alone_run_every_notebook"


def _scheduled(conftest) -> list[str]:
    """The order tests/conftest.py gives a Binder test, another file's test and this file's lesson runs."""
    class Item:
        fixturenames: list = []

        def __init__(self, nodeid):
            self.nodeid = nodeid

        def get_closest_marker(self, name):
            return None

    ours = [f"tests/notebooks/test_run_notebooks.py::test_notebook_runs_top_to_bottom[{p.name}]" for p in NOTEBOOKS]
    items = [Item(n) for n in [BINDER_TEST, "tests/core/test_x.py::test_x", *ours]]
    conftest.pytest_collection_modifyitems(None, items)
    return [i.nodeid for i in items]


def test_the_binder_run_comes_first_on_the_same_worker(monkeypatch):
    """One unit of pytest-xdist's work (tests/conftest.py), the Binder test first, even when the figures say this
    file takes longer: else this file executes every lesson again (right, but twice the kernels). The control:
    without the group, the longer file goes first and the Binder test is a unit of its own."""
    from tests import conftest

    monkeypatch.setattr(conftest, "_durations", lambda: {
        "tests/notebooks/test_run_notebooks.py": 200.0, "tests/binder/test_binder_env.py": 50.0,
        "tests/core/test_x.py": 500.0})
    order = _scheduled(conftest)
    assert order[:2] == ["tests/core/test_x.py::test_x", BINDER_TEST]
    assert {conftest.unit_of(n) for n in order[1:]} == {conftest.LESSON_RUNS}

    monkeypatch.setattr(conftest, "SHARED_UNITS", conftest.SITE_BUILD_FILES)
    order = _scheduled(conftest)
    assert order[-1] == BINDER_TEST and conftest.unit_of(BINDER_TEST) != conftest.unit_of(order[1])
