"""The lessons in Spanish (issue 30): ``notebooks/es/``, one MyST text and its notebook per lesson.

What holds for every Spanish lesson, as for the English ones:

* it is the **twin** of its English lesson: the same cells, types, cutting tags and cell ids
  (:mod:`safari_kit.authoring.twins`), so its student copy is cut the same way;
* its text and notebook **agree** (jupytext pairing, the check of test_lesson_texts.py) and the notebook is
  committed without outputs;
* its **numbers** are the English lesson's facts, written as a Spanish reader writes them (0,189; 18,9 %), and
  no other number is left untied (``tests/notebooks/facts/es``, checked in test_prose_facts.py);
* its learners' copy speaks in short sentences (the rule of test_learner_words.py);
* its first code cell sets the language (``set_language("es")``), so the labs it draws and ``check()`` speak
  Spanish;
* it **runs top to bottom**, the teachers' copy and the learners' copy (``make student``), in one kernel for
  the whole module (``%reset -f`` between lessons: the imports stay, the names go), every check of the
  learners' copy asking for an answer in Spanish, and the run giving no answer away.

Lessons not translated yet are listed in :data:`NOT_YET`: their "has a Spanish twin" test is an expected
failure that says so, and turns into a failure (strict) the day the twin is added without updating the list.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import nbformat
import pytest

from safari_kit.authoring.answer_leaks import find_leaks, notebook_language
from safari_kit.authoring.student import read_lesson, student_copy
from safari_kit.authoring.twins import twin_problems
from tests.notebooks.test_lesson_texts import drift

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SPANISH = NOTEBOOKS / "es"
ENGLISH_LESSONS = sorted(NOTEBOOKS.glob("0[0-7]-*.md"))
LESSONS = sorted(SPANISH.glob("0[0-7]-*.ipynb"))
#: lessons without their Spanish twin yet (issue 30): say so here, and remove a lesson when its twin is added
NOT_YET: set[str] = set()


def missing_twins(notebooks: Path, lang: str = "es") -> list[str]:
    """The English lessons of ``notebooks`` without their text and notebook in ``notebooks/<lang>/``."""
    folder = notebooks / lang
    return [p.name for p in sorted(notebooks.glob("0[0-7]-*.md"))
            if not ((folder / p.name).is_file() and (folder / p.with_suffix(".ipynb").name).is_file())]


@pytest.mark.parametrize("english", ENGLISH_LESSONS, ids=[p.stem for p in ENGLISH_LESSONS])
def test_every_english_lesson_has_its_spanish_twin(english, request):
    if english.stem in NOT_YET:
        request.applymarker(pytest.mark.xfail(strict=True, reason=f"{english.stem} is not translated yet (NOT_YET)"))
    assert english.name not in missing_twins(NOTEBOOKS), f"notebooks/es/ has no {english.name}"


def test_control_a_lesson_without_its_twin_is_reported(tmp_path):
    (tmp_path / "es").mkdir()
    for name in ("00-start-here.md", "01-meet-the-cards.md", "es/00-start-here.md", "es/00-start-here.ipynb",
                 "es/01-meet-the-cards.md"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert missing_twins(tmp_path) == ["01-meet-the-cards.md"]   # its notebook is missing


def test_the_not_yet_list_names_lessons_that_exist():
    assert NOT_YET <= {p.stem for p in ENGLISH_LESSONS}


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_the_spanish_lesson_is_the_twin_of_the_english_one(path):
    assert twin_problems(path.with_suffix(".md")) == []   # the texts: cells, types, tags
    assert twin_problems(path) == []                      # the notebooks: ids too


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_the_spanish_text_and_notebook_agree_and_hold_no_outputs(path):
    diff = drift(path.with_suffix(".md"), path)
    assert not diff, f"run `jupytext --sync notebooks/es/{path.with_suffix('.md').name}`\n{diff}"
    for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            assert not cell.get("outputs") and cell.get("execution_count") is None, f"{path.name} cell {i}"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_the_first_code_cell_sets_spanish(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    first = next(c for c in nb["cells"] if c["cell_type"] == "code")
    assert 'set_language("es")' in "".join(first["source"]) and notebook_language(nb) == "es"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_spanish_learners_read_short_sentences(path):
    """The rule of test_learner_words.py (issue 27) for the Spanish learners' copy: no sentence over 40 words,
    at most 5 % over 25."""
    from safari_kit.authoring.learner_words import measure

    words = measure(path)
    assert len(words.sentences) >= 10 and not words.problems(), "\n".join([words.summary(), *words.problems()])


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_control_the_spanish_teachers_copy_gives_away_what_the_english_one_does(path):
    """The leak detector reads Spanish: the teachers' copy (solutions, "Errores frecuentes en las respuestas")
    gives away the same exercises as the English teachers' copy, so a Spanish learners' copy found clean is
    clean, not unread."""
    spanish = {leak.key for leak in find_leaks(read_lesson(path), path.name)}
    english = {leak.key for leak in find_leaks(read_lesson(NOTEBOOKS / path.name), path.name)}
    assert spanish == english


# ---- running them: one kernel for the module -------------------------------------------------------------

@pytest.fixture(scope="module")
def kernel():
    from tests.kernels import ipc_kernel_manager

    with ipc_kernel_manager(kernel_name="python3") as km:  # IPC, not TCP ports another worker may take
        km.start_kernel(cwd=str(SPANISH))
        yield km
        km.shutdown_kernel(now=True)


def _run(notebook: dict, name: str, km) -> nbformat.NotebookNode:
    from nbclient import NotebookClient

    nb = nbformat.from_dict(json.loads(json.dumps(notebook)))
    nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))
    started = time.perf_counter()
    NotebookClient(nb, km=km, timeout=300, kernel_name="python3").execute()
    print(f"{name}: ran in {time.perf_counter() - started:.1f} s")
    del nb.cells[0]
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", f"{name} cell {i}: {out.get('ename')}: {out.get('evalue')}"
            text = "".join(out.get("text", "")) if out.get("output_type") == "stream" else ""
            assert "Traceback" not in text, f"{name} cell {i} printed a traceback"
    return nb


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_the_teachers_copy_runs_top_to_bottom(path, kernel):
    _run(read_lesson(path), f"es/{path.name}", kernel)


@pytest.mark.slow  # as the English learners' copies (test_run_notebooks.py): make test runs it, make check skips it
@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_the_learners_copy_runs_asks_in_spanish_and_gives_nothing_away(path, kernel):
    copy, _removed = student_copy(read_lesson(path), path.with_suffix(".md"))
    nb = _run(copy, f"es/{path.name} (learners')", kernel)
    for cell in (c for c in nb.cells if c.cell_type == "code" and c.source.startswith("check(")):
        shown = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
        assert "Escribe tu respuesta" in shown, (path.name, cell.source, shown)
    leaks = find_leaks(json.loads(nbformat.writes(nb)), path.name)
    assert not leaks, f"es/{path.name} gives answers away once run:\n" + "\n".join(map(str, leaks))
    text = json.dumps(copy, ensure_ascii=False)
    assert "Para docentes" not in text and '"solution"' not in text
