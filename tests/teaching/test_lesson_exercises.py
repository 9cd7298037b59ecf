"""One exercise idiom in every lesson, the question in one place, the hints in one module per lesson.

Every exercise in a lesson text (notebooks/NN-*.md) is four cells::

    **Exercise `NN.key`.** The question (markdown; a code cell may follow it)
    my_answer = ...  # your answer here          <- the learner's stub
    check("NN.key", my_answer)                   <- the check
    <worked solution ending in the same check>    <- tagged `solution`, removed by `make student`

The question is written only there; ``safari_kit/teaching/lesson_NN.py``
registers the answer and the hints under the same key (an Exercise has no
question text). Checking needs only the kit's base install.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import jupytext
import pytest

from safari_kit.teaching import exercises
from safari_kit.teaching.exercises import Exercise

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
TEACHING = ROOT / "safari_kit" / "teaching"
TEXTS = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.md"))
STUB = "my_answer = ...  # your answer here"
CHECK = re.compile(r'check\("(\d\d\.[\w-]+)", my_answer\)')


def _exercises_of(text: Path) -> dict[str, list]:
    """{key: [question, stub, check, solution]} of a lesson text, asserting the idiom on the way."""
    cells = jupytext.read(text).cells
    found = {}
    for i, cell in enumerate(cells):
        tags = cell.metadata.get("tags", [])
        # make student removes solution and teacher cells; a recap cell stays (answer_leaks: it says it is a recap)
        assert not set(tags) - {"solution", "teacher", "recap"}, (text.name, i, tags)
        m = CHECK.fullmatch(cell.source)
        if cell.cell_type != "code" or not m or "solution" in tags:
            continue
        key = m.group(1)
        assert key not in found, f"{text.name}: exercise {key} is checked twice"
        stub, solution = cells[i - 1], cells[i + 1]
        assert stub.source == STUB and not stub.metadata.get("tags"), (text.name, key, stub.source)
        assert solution.metadata.get("tags") == ["solution"], (text.name, key, "no solution cell after the check")
        assert solution.source.rstrip().endswith(cell.source), (text.name, key, "the solution ends with its check")
        question = next(c for c in reversed(cells[:i - 1]) if c.cell_type == "markdown")
        assert re.search(rf"^\*\*Exercise `{re.escape(key)}`\.\*\* \S", question.source, re.M), (text.name, key)
        found[key] = [question, stub, cell, solution]
    # every solution cell belongs to an exercise; no other `check(...)` call hides elsewhere
    solutions = [c for c in cells if "solution" in c.metadata.get("tags", [])]
    assert len(solutions) == len(found), text.name
    calls = [k for c in cells if c.cell_type == "code" for k in re.findall(r'check\(["\'](\d\d\.[\w-]+)', c.source)]
    assert set(calls) == set(found), (text.name, set(calls) ^ set(found))
    return found


@pytest.mark.parametrize("text", TEXTS, ids=[p.name for p in TEXTS])
def test_every_exercise_follows_the_one_idiom(text):
    keys = _exercises_of(text)
    lesson = text.name[:2]
    assert all(key.startswith(lesson + ".") for key in keys), (text.name, sorted(keys))


def test_every_exercise_in_the_texts_is_registered_and_every_registered_one_is_in_a_text():
    in_texts = {key for text in TEXTS for key in _exercises_of(text)}
    assert in_texts, "no exercises found"
    assert in_texts == set(exercises()), set(exercises()) ^ in_texts


def test_hints_of_a_lesson_are_in_its_one_module():
    modules = sorted(p.name for p in TEACHING.glob("lesson*.py"))
    lessons = sorted({key[:2] for key in exercises()})
    assert modules == sorted([f"lesson_{nn}.py" for nn in lessons] + ["lessons.py"]), modules
    for key in exercises():
        registers = re.compile(rf'Exercise\(\s*"{re.escape(key)}"')
        homes = [p.name for p in TEACHING.glob("*.py") if registers.search(p.read_text(encoding="utf-8"))]
        assert homes == [f"lesson_{key[:2]}.py"], (key, homes)


def test_an_exercise_holds_no_question_text():
    assert "question" not in Exercise.__dataclass_fields__


def test_every_check_works_with_the_base_install_only():
    """`pip install .` without extras: no ipywidgets/anywidget/matplotlib/Jupyter; every check still runs
    and nothing from safari_kit.widgets is imported."""
    code = """
import sys
for name in ("ipywidgets", "anywidget", "matplotlib", "IPython", "jupytext", "nbformat", "nbclient",
             "traitlets", "jupyter_server", "voila"):
    sys.modules[name] = None   # importing it now raises ImportError
from safari_kit.teaching import check, exercises
for key, ex in exercises().items():
    assert check(key, ex.answer()).correct, key
    assert not check(key, ...).correct, key
widgets = sorted(m for m in sys.modules if m.startswith("safari_kit.widgets"))
assert not widgets, widgets
print(len(exercises()), "checks")
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == f"{len(exercises())} checks"
