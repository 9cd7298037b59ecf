"""Offline, lessons run as far as their subject allows (issue 18, item 2), checked without a browser.

The offline static site has no numpy, pandas or matplotlib. ``tests/offline_kernel.py`` runs the lessons'
student copies in a subprocess where those cannot be imported, with the site's start-up check installed
(``site-src/safari_site``), cell after cell as "Run all" does; tests/browser/test_site_offline_lessons.py runs
lessons 03 and 04 in the real site.

* Lessons 00, 02, 03, 04, 06 and 07: no cell shows a traceback (the site's kernel would report an error and
  "Run all" would stop there); the cells that show the sentence are cells that use a data package's tools
  (``np``, ``pd``, ``plt``, the kit's numpy simulators), one sentence each; every other cell runs.
* Lessons 01 and 05 (their subject is pandas and numpy): no traceback either, and a note at the top says
  where they run.
* Controls: any other error still shows its traceback, and a cell using what a numpy cell would have made
  says the sentence, not ``NameError``.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from safari_kit.presentation.offline import needs_package

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "tests" / "offline_kernel.py"
WHOLE = ["00-start-here.ipynb", "02-identification.ipynb", "03-challenge.ipynb", "04-knockout.ipynb",
         "06-cases-and-abilities.ipynb", "07-rules-tutorial.ipynb"]
ONLINE = ["01-meet-the-cards.ipynb", "05-simulation-lab.ipynb"]
#: what a cell that needs numpy, pandas or matplotlib uses (the lessons' names for them and the kit's simulators)
DATA_TOOLS = re.compile(r"\b(?:np|pd|plt|pals|numpy|pandas|matplotlib|simulate_\w+|streak_estimate|mc_\w+)\b")


def offline_run(*lessons: str) -> dict:
    proc = subprocess.run([sys.executable, str(SCRIPT), *lessons], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    marker = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and marker, f"{SCRIPT.name} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    report = json.loads(marker[-1][len("RESULT "):])
    assert report["heavy_modules"] == [], report["heavy_modules"]
    return report["lessons"]


@pytest.fixture(scope="module")
def lessons():
    return offline_run(*WHOLE, *ONLINE)


def _first_line(cell: dict) -> str:
    return cell["source"].strip().splitlines()[0]


@pytest.mark.parametrize("lesson", WHOLE)
def test_lesson_runs_whole_offline_apart_from_its_numpy_cells(lessons, lesson):
    cells = lessons[lesson]
    shown = [(_first_line(c), c["traceback"]) for c in cells if c["traceback"]]
    assert not shown, f"{lesson}: cells show a traceback offline (Run all would stop): {shown}"
    assert all(c["sentences"] <= 1 for c in cells), f"{lesson}: a cell says the sentence more than once"
    said = [c for c in cells if c["sentences"]]
    mixed = [_first_line(c) for c in said if not DATA_TOOLS.search(c["source"])]
    assert not mixed, (f"{lesson}: cells that need no numpy, pandas or matplotlib stop offline (split the cell, "
                       f"or make the kit's import lazy): {mixed}")


def test_the_exact_parts_run_offline(lessons):
    """The parts the issue found stopped: 03's stopping rule and memory, 04 past its imports, 06 past cell 2."""
    out = {lesson: "".join(c["output"] for c in cells) for lesson, cells in lessons.items()}
    assert "best play:" in out["03-challenge.ipynb"] and "-> stop" in out["03-challenge.ipynb"]
    assert "safe place(s): P(reach 4 safe) =" in out["03-challenge.ipynb"]
    assert "Lion: weight" in out["04-knockout.ipynb"] and "Best lead:" in out["04-knockout.ipynb"]
    assert "decided by the tie rule" in out["04-knockout.ipynb"] and "Best first play:" in out["04-knockout.ipynb"]
    assert " 5 cards: exact chance" in out["06-cases-and-abilities.ipynb"]
    for lesson in ("03-challenge.ipynb", "04-knockout.ipynb", "06-cases-and-abilities.ipynb"):
        assert any(c["sentences"] for c in lessons[lesson]), f"{lesson}: its numpy cells said nothing"


@pytest.mark.parametrize("lesson", ONLINE)
def test_online_lessons_say_so_at_the_top_and_show_no_traceback(lessons, lesson):
    cells = lessons[lesson]
    assert not [c for c in cells if c["traceback"]], [(_first_line(c), c["traceback"]) for c in cells]
    text = (REPO / "notebooks" / lesson).with_suffix(".md").read_text(encoding="utf-8")
    top = text.split("```{code-cell}", 1)[0]
    assert "offline copy of the site does not have" in top and "Binder" in top, top[-600:]


def test_controls_other_errors_keep_their_traceback_and_a_numpy_result_is_not_a_name_error(tmp_path):
    cells = ["import numpy as np\nx = np.zeros(3)", "y = x + 1", "print(len(y))", "1 / 0", "print(undefined_name)",
             "import json\nprint('still running')"]
    made_up = tmp_path / "made-up.json"
    made_up.write_text(json.dumps(cells), encoding="utf-8")
    ran = offline_run(str(made_up))[str(made_up)]
    assert [c["sentences"] for c in ran] == [1, 1, 1, 0, 0, 0], ran
    assert [c["traceback"] for c in ran][3:5] == [["ZeroDivisionError: division by zero"],
                                                  ["NameError: name 'undefined_name' is not defined"]]
    assert "still running" in ran[5]["output"] and not ran[5]["traceback"]
    assert needs_package("numpy") in ran[0]["output"]


def test_one_wording_with_a_way_forward():
    sentence = needs_package("numpy")
    assert "`" not in sentence and "make" not in sentence and "Binder" in sentence and "online site" in sentence
    app = (REPO / "safari_kit" / "widgets" / "app.py").read_text(encoding="utf-8")
    assert "needs_package(" in app and "does not have" not in app  # the app page says it in the same words
