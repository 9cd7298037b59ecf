"""Student copies: solution cells removed or stubbed, outputs cleared, everything else kept."""
import json

from safari_kit.teaching.student import main, make_student_copies


def _nb(cells):
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def _cell(src, tags=(), kind="code"):
    cell = {"cell_type": kind, "source": src, "metadata": {"tags": list(tags)}}
    if kind == "code":
        cell.update(outputs=[{"output_type": "stream", "name": "stdout", "text": "x"}], execution_count=3)
    return cell


def test_solutions_are_removed_and_stubbed(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    nb = _nb([_cell("# intro", kind="markdown"), _cell("answer = 14/74", ["solution"]),
              _cell("my_answer = 14/74", ["solution-replace"]), _cell("check('02.animal', my_answer)")])
    (src / "02.ipynb").write_text(json.dumps(nb))
    done = make_student_copies(src, tmp_path / "student")
    assert done[0][1] == 2
    out = json.loads((tmp_path / "student" / "02.ipynb").read_text())
    sources = [c["source"] for c in out["cells"]]
    assert "answer = 14/74" not in sources
    assert "# your answer here\n" in sources
    assert "check('02.animal', my_answer)" in sources
    assert all(c.get("outputs", []) == [] for c in out["cells"])


def test_bad_notebook_is_reported_not_a_traceback(tmp_path, capsys):
    (tmp_path / "bad.ipynb").write_text("{not json")
    assert main([str(tmp_path), str(tmp_path / "out")]) == 2
    assert "bad.ipynb" in capsys.readouterr().err
