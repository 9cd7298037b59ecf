"""Answer leaks (issue 17): no student copy gives an exercise's answer away, in any form a learner
would type or read; the same detector finds the leaks the teacher's copies are known to hold.

The student copies' *outputs* are searched where the copies are executed, in the slow
tests/notebooks/test_run_notebooks.py::test_student_copy_runs_top_to_bottom (not twice); here their
text, which needs no kernel. The detector is safari_kit.authoring.answer_leaks.
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from safari_kit.authoring.answer_leaks import (NUMBER_WORDS, READ_IN_OUTPUTS, WORDED, find_leaks, lesson_of,
                                               numbers_in, recap_cells)
from safari_kit.teaching.exercises import Exercise, Hint, exercises
from safari_kit.authoring.student import read_lesson, write_student_copies

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))

#: the leaks of the teacher's notes that issue 17 lists: (exercise, words of the sentence that gives it away)
KNOWN_TEACHER_LEAKS = [
    ("05.se-ratio", "4 times more precise\" (it is 2)"),
    ("06.names", "5 instead of 6 in the example"),
    ("06.sam", "SAM swaps only with probability 1/2"),
    ("07.safe-stop", "counting the challenged"),
    ("07.tie", "strictly higher"),
    ("07.fail-places", "4 new places after the failure"),
    ("04.pigeonhole", "answering round 2"),
]


@pytest.fixture(scope="module")
def student_copies(tmp_path_factory):
    folder = tmp_path_factory.mktemp("student")
    write_student_copies(NOTEBOOKS, folder)
    return folder


@pytest.fixture(scope="module")
def teacher_leaks():
    return [leak for path in LESSONS for leak in find_leaks(read_lesson(path), path.name)]


def _report(leaks) -> str:
    return "\n".join(str(leak) for leak in leaks)


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_no_student_copy_gives_an_answer_away(path, student_copies):
    copy = json.loads((student_copies / path.name).read_text(encoding="utf-8"))
    leaks = find_leaks(copy, path.name)
    assert not leaks, f"{path.name} gives answers away:\n{_report(leaks)}"


@pytest.mark.parametrize("key, words", KNOWN_TEACHER_LEAKS)
def test_control_the_teacher_copies_hold_the_known_leaks(key, words, teacher_leaks):
    """The same detector on the teacher's copies (solutions and teacher notes in): it must find what
    issue 17 found by reading them, or a clean result on the student copies would mean nothing."""
    found = [leak for leak in teacher_leaks if leak.key == key and words in leak.text]
    assert found, f"the detector missed {key} in '…{words}…'; it found:\n{_report(teacher_leaks)}"


def test_control_every_lesson_with_exercises_leaks_in_the_teacher_copy(teacher_leaks):
    """Worked solutions and notes give answers in every lesson's teacher copy: the detector sees them all."""
    lessons = {lesson_of(p.name) for p in LESSONS} - {"00"}
    assert {leak.key[:2] for leak in teacher_leaks} == lessons


# ----------------------------------------------------------------------------- the forms of an answer
def _significant(x: float, digits: int) -> str:
    return f"{x:.{digits}g}" if "e" not in f"{x:.{digits}g}" else f"{x:.{digits + 4}f}"


def renderings(value) -> list[str]:
    """An answer as a learner would type or read it, computed here independently of the detector."""
    if isinstance(value, str):
        return []
    if isinstance(value, float) and value != int(value):
        return [_significant(value, d) for d in (2, 3, 4)]
    value = Fraction(value)
    if value.denominator == 1:
        n = int(value)
        forms = [str(n)] + ([f"{n:,}"] if n >= 1000 else []) + ([NUMBER_WORDS[n]] if n < len(NUMBER_WORDS) else [])
        return forms
    p, q, x = value.numerator, value.denominator, float(value)
    forms = [f"{p}/{q}", f"{p} / {q}", f"{2 * p}/{2 * q}", rf"\frac{{{p}}}{{{q}}}"]
    forms += [_significant(x, d) for d in (3, 4)] + [_significant(100 * x, d) + "%" for d in (2, 3)]
    forms += [_significant(100 * x, 3) + " percent"]
    if len(_significant(x, 2).lstrip("0.")) >= 2:
        forms.append(_significant(x, 2))
    return forms


def _lesson(key: str, sentence: str, question: str = "") -> tuple[dict, str]:
    md = {"cell_type": "markdown", "metadata": {}, "source": sentence}
    q = {"cell_type": "markdown", "metadata": {}, "source": question or f"**Exercise `{key}`.** What is it?"}
    return {"cells": [md, q], "metadata": {}}, f"{key[:2]}-lesson.ipynb"


ALL = sorted(exercises().items())


def _weak(value) -> bool:
    v = Fraction(value).limit_denominator(1000) if not isinstance(value, str) else None
    return v is not None and (v.denominator == 1 and abs(v) < 10 or 1 < v.denominator < 10)


@pytest.mark.parametrize("key, exercise", ALL, ids=[k for k, _ in ALL])
def test_every_form_of_every_answer_is_found(key, exercise):
    """Each rendering of each registered answer (fraction, decimals, percent, words), in a sentence that
    gives it (for a common number such as 2 or 1/2, in answer-giving words), is reported for that exercise."""
    value = exercise.answer()
    # the forms its check accepts as correct (a rounding it rejects, 0.88 for 7/8, is no answer); the
    # forms the check cannot read (\frac{7}{8}, 1,534, words) are a learner's reading of the answer
    forms = [f for f in renderings(value) if exercise.check(f).correct or "I could not read" in exercise.check(f).text]
    if not forms:
        pytest.skip(f"{key}: answered with words (see the worded test)")
    missed = []
    for form in forms:
        sentence = f"A common mistake; it is {form} (see above)." if _weak(value) else f"So P = {form} here."
        nb, name = _lesson(key, sentence)
        if not any(leak.key == key for leak in find_leaks(nb, name)):
            missed.append(sentence)
    assert not missed, f"{key} = {value!r}: not found in {missed}"


@pytest.mark.parametrize("key, sentence", [
    ("05.se-ratio", "4 times the trials, 4 times more precise (it is 2)."),
    ("05.se-ratio", "With 4 times the trials the standard error is divided by two."),
    ("05.se-ratio", "Four times the trials: the standard error halves."),
    ("05.se-ratio", "The standard error is twice as small."),
    ("06.sam", "SAM swaps them with probability 1/2."),
    ("06.sam", "After SAM the place still holds X half the time: a coin flip."),
    ("06.names", "Greedy counting finds 5 instead of 6."),
    ("07.safe-stop", "A Challenge stops after 4 safe reveals."),
    ("07.safe-stop", "A Challenge stops after four safe reveals."),
    ("07.refill", "The Unidentified Area is refilled to 4 cards."),
    ("07.fail-places", "4 new places after the failure (the identified cards keep their places)."),
    ("07.tie", "A later card must be strictly higher."),
    ("04.pigeonhole", "Pigeonhole: answering round 2 (everyone could still win one)."),
    ("04.best-item", "The Impala's best item is its top speed."),
    ("04.best-item", "K10    Impala    3    top_speed_kmh"),
    ("03.threshold", "6 safe: n/(n+1) = 7/8 ≈ 0.875"),
])
def test_answers_in_words_and_common_numbers_in_answer_giving_wording_are_found(key, sentence):
    question = {"07.safe-stop": "In a Safari Witness Challenge, after how many safe reveals may you stop and "
                                "archive?",
                "07.refill": "How many Mugshots does the Unidentified Area hold right after a refill?",
                "07.fail-places": "How many *new* places did the Unidentified Area get?",
                "05.se-ratio": "You run 4 times as many trials. The standard error is divided by what number?",
                "06.sam": "After the SAM, what is the probability that place 2 still holds X?"}.get(key, "")
    nb, name = _lesson(key, sentence, f"**Exercise `{key}`.** {question}" if question else "")
    assert [leak for leak in find_leaks(nb, name) if leak.key == key], sentence


@pytest.mark.parametrize("key, sentence", [
    ("05.se-ratio", "Press Simulate: run 2 shows new trials."),
    ("05.se-ratio", "Every card has 2 sides."),
    ("04.pigeonhole", "| 3 players: certainly out | 5 players: certainly out |"),
    ("04.pigeonhole", "Variation 1 (elimination): a player who wins no turn is out."),
    ("07.fail-places", "Player 1 failed (two of them unsafe, so you left them alone)."),
    ("06.sam", "Player 1 wins with a SAM name; step 2 shows the table."),
    ("06.names", "Here are 6 cards of the archive."),
    ("02.animal", "Cards 14 and 74 are in the deck; lesson 02 and 05.se-ratio are elsewhere."),
])
def test_common_numbers_elsewhere_are_not_taken_for_answers(key, sentence):
    question = {"04.pigeonhole": "With **6** players and Variation 1, after which round is at least one player "
                                 "*certainly* out, whatever happens?",
                "07.fail-places": "Player 1 failed an identification with two clue cards. How many *new* places "
                                  "did the Unidentified Area get?"}.get(key, "")
    nb, name = _lesson(key, sentence, f"**Exercise `{key}`.** {question}" if question else "")
    leaks = [leak for leak in find_leaks(nb, name) if leak.key == key]
    assert not leaks, _report(leaks)


def test_outputs_count_above_and_below_the_check_unless_they_say_they_are_a_recap():
    ex = {"09.x": Exercise("09.x", lambda: Fraction(13, 438))}
    out = [{"output_type": "stream", "name": "stdout", "text": "P = 13/438\n"}]
    cells = [{"cell_type": "code", "metadata": {}, "source": "demo()", "outputs": out},
             {"cell_type": "code", "metadata": {}, "source": 'check("09.x", my_answer)', "outputs": []},
             {"cell_type": "code", "metadata": {}, "source": "more()", "outputs": out},
             {"cell_type": "code", "metadata": {"tags": ["recap"]}, "source": "recap()", "outputs": out},
             {"cell_type": "markdown", "metadata": {}, "source": "## Recap: what we found"},
             {"cell_type": "code", "metadata": {}, "source": "table()", "outputs": out},
             {"cell_type": "markdown", "metadata": {}, "source": "## 7. The lab"},
             {"cell_type": "code", "metadata": {}, "source": "lab()", "outputs": out}]
    leaks = find_leaks({"cells": cells, "metadata": {}}, "09-x.ipynb", ex)
    # issue 27: an output below the check that does not say it is a recap answers the exercise too
    assert [leak.where for leak in leaks] == ["09-x.ipynb cell 1 (output)", "09-x.ipynb cell 3 (output)",
                                              "09-x.ipynb cell 8 (output)"]
    recaps = find_leaks({"cells": cells, "metadata": {}}, "09-x.ipynb", ex, recaps=True)
    assert len(recaps) == 5
    assert recap_cells({"cells": cells}) == {3, 5}


def _printed(notebook: dict) -> dict:
    """``notebook`` with the output of its code cells, run in this process (no kernel): what they print, and
    the text of a cell's last expression as Jupyter shows it (a table). The cells that open a lab are left
    out (a lab needs a kernel to draw; the slow tests/notebooks/test_run_notebooks.py reads their state)."""
    import ast
    import contextlib
    import io
    import os

    os.environ.setdefault("MPLBACKEND", "Agg")
    namespace: dict = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if "safari_kit.widgets.labs" in source:
            continue
        tree = ast.parse(source)
        last = ast.Expression(tree.body.pop().value) if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(tree, "<cell>", "exec"), namespace)  # noqa: S102 (the kit's own lesson)
            if last is not None:
                shown = eval(compile(last, "<cell>", "eval"), namespace)  # noqa: S307
                if shown is not None:
                    print(repr(shown))
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": buffer.getvalue()}]
    return notebook


def _copy_at(commit: str, stem: str, tmp_path: Path) -> dict:
    import subprocess

    from safari_kit.authoring.student import student_copy
    for suffix in (".ipynb", ".md"):
        try:
            blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:notebooks/{stem}{suffix}"],
                                  check=True, capture_output=True).stdout
        except (OSError, subprocess.CalledProcessError):
            pytest.skip(f"{commit} is not in this checkout's history")
        (tmp_path / f"{stem}{suffix}").write_bytes(blob)
    return student_copy(read_lesson(tmp_path / f"{stem}.ipynb"))[0]


def test_control_lesson_02_of_9bdb9c7_prints_two_answers_below_their_exercises(tmp_path):
    """Issue 27: nb02 §3 printed "animal 14/74" and "name 12/74" for the TAM clue card, the answers of
    02.animal and 02.tam-name, one screen below them."""
    copy = _printed(_copy_at("9bdb9c7", "02-identification", tmp_path))
    leaks = find_leaks(copy, "02-identification.ipynb")
    found = {(leak.key, leak.where.split("(")[-1]) for leak in leaks}
    assert {("02.animal", "output)"), ("02.tam-name", "output)")} <= found, _report(leaks)


def test_control_lesson_03_of_9bdb9c7_prints_the_safe_count_as_a_chance_over_74(tmp_path):
    """Issue 27: lesson 03 §2 printed "(31/74)⁴", the answer of 03.safe ("How many of the other 74 cards are
    safe?") as the count of a chance over the question's 74, one screen below the exercise."""
    copy = _printed(_copy_at("9bdb9c7", "03-challenge", tmp_path))
    leaks = [leak for leak in find_leaks(copy, "03-challenge.ipynb") if leak.key == "03.safe"]
    assert any("count over the question's 74" in leak.why for leak in leaks), _report(leaks)


def test_a_count_answer_over_the_questions_pool_is_found_and_another_count_is_not():
    ex = {"09.safe": Exercise("09.safe", lambda: 31)}
    question = {"cell_type": "markdown", "metadata": {}, "source": "**Exercise `09.safe`.** How many of the other "
                                                                   "74 cards are safe?"}

    def out(text):
        return {"cell_type": "code", "metadata": {}, "source": "x()",
                "outputs": [{"output_type": "stream", "name": "stdout", "text": text}]}
    assert find_leaks({"cells": [question, out("guess: (31/74)^4 = 0.0308")]}, "09-x.ipynb", ex)
    assert not find_leaks({"cells": [question, out("guess: (27/70) and 31/75")]}, "09-x.ipynb", ex)


@pytest.mark.parametrize("stem", ["00-start-here", "01-meet-the-cards", "02-identification", "03-challenge"])
def test_lessons_00_to_03_print_no_answer_below_an_exercise(stem, tmp_path):
    copy = _printed(student_copy_of(stem))
    leaks = find_leaks(copy, f"{stem}.ipynb")
    assert not leaks, _report(leaks)


def student_copy_of(stem: str) -> dict:
    from safari_kit.authoring.student import student_copy
    return student_copy(read_lesson(NOTEBOOKS / f"{stem}.ipynb"))[0]


def test_a_known_wrong_answer_explained_is_a_leak_and_the_hints_say_which():
    ex = {"09.x": Exercise("09.x", lambda: 7, hints=[Hint(lambda a: a == 8, "Do not count the clue card.")])}
    question = {"cell_type": "markdown", "metadata": {}, "source": "**Exercise `09.x`.** How many safe cards?"}
    note = {"cell_type": "markdown", "metadata": {}, "source": "Wrong: 8 safe cards (counting the clue card)."}
    plain = {"cell_type": "markdown", "metadata": {}, "source": "There are 8 safe cards in the other deck."}
    assert find_leaks({"cells": [question, note], "metadata": {}}, "09-x.ipynb", ex)
    assert not find_leaks({"cells": [question, plain], "metadata": {}}, "09-x.ipynb", ex)


def test_widget_outputs_are_read_from_their_saved_state():
    ex = {"09.x": Exercise("09.x", lambda: Fraction(13, 438))}
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "a", "version_major": 2}}
    state = {"a": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_b"], "_esm": "x = 13/438"}},
             "b": {"model_name": "HTMLModel", "state": {"value": "<b>P = 13/438</b>"}}}
    cells = [{"cell_type": "code", "metadata": {}, "source": "lab", "outputs": [
        {"output_type": "display_data", "data": view, "metadata": {}}]}]
    nb = {"cells": cells, "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": state}}}}
    assert [leak.why for leak in find_leaks(nb, "09-x.ipynb", ex)] == ["the answer written as '13/438'"]
    del state["b"]   # the widget's code (_esm) is not what it shows
    assert not find_leaks(nb, "09-x.ipynb", ex)


def test_numbers_are_read_by_value():
    values = [v for _, _, v, _ in numbers_in("13/438, 13 / 438, 26/876, \\frac{13}{438}, 2.97%, 0.0297, 1,534")]
    assert values[:4] == [Fraction(13, 438)] * 4
    assert values[4:] == [0.0297, 0.0297, Fraction(1534)]


def test_the_detector_tables_name_registered_exercises():
    assert set(WORDED) <= set(exercises()) and set(READ_IN_OUTPUTS) <= set(exercises())
