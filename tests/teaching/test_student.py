"""Student copies (``make student``): built from the lesson texts, solution cells removed,
stubs and checks kept, outputs cleared."""
import json
import re
import shutil
from pathlib import Path

import jupytext

from safari_kit.teaching.student import main, make_student_copies

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


def test_student_copies_of_the_lessons_are_their_texts_without_solutions(tmp_path):
    done = make_student_copies(NOTEBOOKS, tmp_path)
    assert {p.name for p, _ in done} == {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    for copy, removed in done:
        text = jupytext.read(NOTEBOOKS / copy.with_suffix(".md").name)
        teacher = json.loads((NOTEBOOKS / copy.name).read_text(encoding="utf-8"))
        student = json.loads(copy.read_text(encoding="utf-8"))
        kept = [c for c in text.cells if "solution" not in c.metadata.get("tags", [])]
        assert removed == len(text.cells) - len(kept)
        student_cells = [(c["cell_type"], _source(c)) for c in student["cells"]]
        assert student_cells == [(c.cell_type, c.source) for c in kept], copy.name
        # the notebook's cell ids, as JupyterLab shows them
        teacher_ids = [c["id"] for c in teacher["cells"] if "solution" not in c["metadata"].get("tags", [])]
        assert [c["id"] for c in student["cells"]] == teacher_ids, copy.name
        # every exercise keeps its stub right before its check
        cells = student["cells"]
        for i, cell in enumerate(cells):
            if CHECK.fullmatch(_source(cell)):
                assert _source(cells[i - 1]) == STUB, (copy.name, i)


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
