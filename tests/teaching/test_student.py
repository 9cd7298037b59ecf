"""Student copies (``make student``): built from the lesson texts, solution cells and teacher
sections removed, stubs and checks kept, outputs cleared; a lesson that cannot be cut cleanly
stops the build with an error naming its file."""
import json
import re
import shutil
from pathlib import Path

import jupytext

import pytest

from safari_kit.authoring.student import main, make_student_copies, strip_solutions, student_copy

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
CHECK = re.compile(r'check\("([\w.-]+)", my_answer\)')
STUB = "my_answer = ...  # your answer here"


def _nb(cells):
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _cell(src, tags=(), kind="code"):
    cell = {"cell_type": kind, "source": src, "metadata": {"tags": list(tags)}}
    if kind == "code":
        cell.update(outputs=[{"output_type": "stream", "name": "stdout", "text": "x"}], execution_count=3)
    return cell


def _source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def test_solutions_are_removed_stubs_and_checks_kept(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    nb = _nb([_cell("# intro", kind="markdown"), _cell(STUB), _cell('check("02.animal", my_answer)'),
              _cell('my_answer = 14/74\ncheck("02.animal", my_answer)', ["solution"])])
    (src / "02.ipynb").write_text(json.dumps(nb))
    done = make_student_copies(src, tmp_path / "student")
    assert done[0][1] == 1
    out = json.loads((tmp_path / "student" / "02.ipynb").read_text())
    sources = [_source(c) for c in out["cells"]]
    assert sources == ["# intro", STUB, 'check("02.animal", my_answer)']
    assert all(c.get("outputs", []) == [] and c.get("execution_count") is None
               for c in out["cells"] if c["cell_type"] == "code")


def test_bad_notebook_is_reported_not_a_traceback(tmp_path, capsys):
    (tmp_path / "bad.ipynb").write_text("{not json")
    assert main([str(tmp_path), str(tmp_path / "out")]) == 2
    assert "bad.ipynb" in capsys.readouterr().err


TEACHER_HEADING = re.compile(r"^(?:---\n+)?## For teachers\n", re.M)


def _text_without_teacher_section(text_path: Path) -> str:
    """The lesson text cut by hand: every lesson's teacher section runs from its `## For teachers`
    heading (and the rule before it) to the end of the text."""
    source = text_path.read_text(encoding="utf-8")
    m = TEACHER_HEADING.search(source)
    assert m, f"{text_path.name} has no '## For teachers' section"
    return source[:m.start()]


def test_student_copies_of_the_lessons_are_their_texts_without_solutions_or_teacher_notes(tmp_path):
    done = make_student_copies(NOTEBOOKS, tmp_path)
    assert {p.name for p, _ in done} == {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    lessons = 0
    for copy, removed in done:
        text_path = NOTEBOOKS / copy.with_suffix(".md").name
        text = jupytext.read(text_path)
        teacher = json.loads((NOTEBOOKS / copy.name).read_text(encoding="utf-8"))
        student = json.loads(copy.read_text(encoding="utf-8"))
        kept = [c for c in text.cells if "solution" not in c.metadata.get("tags", [])]
        assert removed == len(text.cells) - len(kept)
        if copy.name[:2].isdigit():   # every lesson ends with notes for the teacher: cut by hand here
            lessons += 1
            cut = jupytext.reads(_text_without_teacher_section(text_path), fmt="md:myst")
            kept = [c for c in cut.cells if "solution" not in c.metadata.get("tags", [])]
        student_cells = [(c["cell_type"], _source(c).rstrip()) for c in student["cells"]]
        assert student_cells == [(c.cell_type, c.source.rstrip()) for c in kept], copy.name
        # the notebook's cell ids, as JupyterLab shows them
        teacher_ids = [c["id"] for c in teacher["cells"] if "solution" not in c["metadata"].get("tags", [])]
        assert [c["id"] for c in student["cells"]] == teacher_ids[:len(student["cells"])], copy.name
        body = copy.read_text(encoding="utf-8")
        assert "For teachers" not in body and "Common wrong answers" not in body, copy.name
        # every exercise keeps its stub right before its check
        cells = student["cells"]
        checks = 0
        for i, cell in enumerate(cells):
            if CHECK.fullmatch(_source(cell)):
                assert _source(cells[i - 1]) == STUB, (copy.name, i)
                checks += 1
        assert checks == removed, copy.name   # one worked solution per exercise, each exercise kept
    assert lessons == 8


def _copy(cells, source="notebooks/09-test.md"):
    student, removed = student_copy(_nb(cells), source)
    return [_source(c) for c in student["cells"]], removed


def test_a_teacher_section_runs_to_the_next_heading_of_its_level():
    sources, removed = _copy([
        _cell("# 09 · A lesson\n\nIntro.", kind="markdown"),
        _cell("## 1. Counting", kind="markdown"),
        _cell(STUB), _cell('check("09.x", my_answer)'), _cell("my_answer = 3", ["solution"]),
        _cell("Recap.\n\n---\n\n## For teachers\n\n**Common wrong answers.** 2 (forgetting one).", kind="markdown"),
        _cell("### Timing\n\n10 min.", kind="markdown"),          # a lower heading stays in the section
        _cell("teacher_demo()"),                                     # code in the section goes too
        _cell("## 2. Next section\n\nMore for learners.", kind="markdown"),
        _cell("learner_code()"),
    ])
    assert sources == ["# 09 · A lesson\n\nIntro.", "## 1. Counting", STUB, 'check("09.x", my_answer)',
                       "Recap.", "## 2. Next section\n\nMore for learners.", "learner_code()"]
    assert (removed.solutions, removed.teacher_cells, removed.teacher_parts) == (1, 2, 1)


def test_a_teacher_section_can_end_inside_a_cell_and_other_titles_count():
    sources, _ = _copy([_cell("Text.\n\n### Notes for teachers\nSecret.\n\n### Next\nKept.", kind="markdown"),
                        _cell("# Teacher notes\nAll of it.", kind="markdown"),
                        _cell("# Part 2", kind="markdown")])
    assert sources == ["Text.\n\n### Next\nKept.", "# Part 2"]


def test_cells_tagged_teacher_go_and_headings_in_code_fences_do_not_count():
    sources, removed = _copy([_cell("```\n## For teachers\n```\nShown.", kind="markdown"),
                              _cell("Only for the teacher.", ["teacher"], kind="markdown"),
                              _cell("print(1)", ["teacher"])])
    assert sources == ["```\n## For teachers\n```\nShown."]
    assert removed.teacher_cells == 2


@pytest.mark.parametrize("cells, words", [
    ([_cell("## For teachers", kind="markdown"), _cell(STUB), _cell('check("09.x", my_answer)')],
     "an exercise's stub or check"),
    ([_cell("Intro.\n\n**Common wrong answers.** 1/5.", kind="markdown")], "Common wrong answers"),
    ([_cell("**For teachers:** the answer is 3.", kind="markdown")], "For teachers"),
    ([_cell("### Answer key\n3", kind="markdown")], "Answer key"),
])
def test_a_lesson_that_cannot_be_cut_cleanly_stops_the_build_naming_the_file(cells, words):
    with pytest.raises(ValueError) as err:
        student_copy(_nb(cells), "notebooks/09-test.md")
    assert "notebooks/09-test.md: cell" in str(err.value) and words in str(err.value)


def test_make_student_names_the_lesson_text_and_writes_nothing(tmp_path, capsys):
    src = tmp_path / "notebooks"
    src.mkdir()
    shutil.copy(NOTEBOOKS / "01-meet-the-cards.md", src / "01-meet-the-cards.md")
    shutil.copy(NOTEBOOKS / "01-meet-the-cards.ipynb", src / "01-meet-the-cards.ipynb")
    text = src / "01-meet-the-cards.md"
    # a teacher's note pasted above the teacher section, into the learners' part of the lesson
    source = text.read_text(encoding="utf-8").replace("## What you learned",
                                                      "**Common wrong answers.** 1/15.\n\n## What you learned")
    text.write_text(source, encoding="utf-8")
    assert main([str(src), str(tmp_path / "student")]) == 2
    err = capsys.readouterr().err
    assert "01-meet-the-cards.md: cell" in err and "Common wrong answers" in err
    assert not (tmp_path / "student").exists()


def test_strip_solutions_gives_the_same_student_copy():
    """The other callers (safari-kit lessons --student, Binder) get the teacher notes removed too."""
    nb = _nb([_cell("Intro.", kind="markdown"), _cell("x = 1", ["solution"]),
              _cell("## For teachers\nNotes.", kind="markdown")])
    copy, solutions = strip_solutions(nb)
    assert solutions == 1 and [_source(c) for c in copy["cells"]] == ["Intro."]


def test_make_student_reads_the_text_not_the_notebook(tmp_path):
    """Control: a sentence changed in the text only (not yet synced) is in the student copy."""
    src = tmp_path / "notebooks"
    src.mkdir()
    for name in ("02-identification.md", "02-identification.ipynb"):
        shutil.copy(NOTEBOOKS / name, src / name)
    text = src / "02-identification.md"
    source = text.read_text(encoding="utf-8")
    assert "# 02 · Identification" in source
    text.write_text(source.replace("# 02 · Identification", "# 02 · Identification, revised"), encoding="utf-8")
    assert main([str(src), str(tmp_path / "student")]) == 0
    copy = (tmp_path / "student" / "02-identification.ipynb").read_text(encoding="utf-8")
    assert "Identification, revised" in copy
    assert "\"solution\"" not in copy   # no cell tagged solution
