"""Every lesson notebook runs top to bottom, in its default state, without errors.

Notebooks are committed without outputs (checked here too) and executed with
nbclient in this environment's kernel. So are the student copies (``make
student``): without the solution cells every exercise's stub and check still
run (the check says "type your answer"), and no later cell needs a solution.
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


def _run(path, cwd):
    from jupyter_client.manager import AsyncKernelManager

    nb = nbformat.read(path, as_version=4)
    with ipc_kernel_manager(AsyncKernelManager, kernel_name="python3") as km:
        client = NotebookClient(nb, km=km, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(cwd)}})
        client.execute()
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{path.name} cell {i}: {out.get('ename')}: {out.get('evalue')}"
            text = "".join(out.get("text", "")) if out.get("output_type") == "stream" else ""
            assert "Traceback" not in text, f"{path.name} cell {i} printed a traceback"
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path):
    _run(path, path.parent)


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
