"""Student copies of the lessons: built from the lesson texts, without the solutions.

Each lesson is one MyST-markdown text, ``notebooks/NN-*.md`` (the source),
paired by jupytext with the notebook learners open, ``notebooks/NN-*.ipynb``.
A student copy is the lesson as JupyterLab opens it: the cells of the text,
with the notebook's cell ids (jupytext matches them up). Every exercise is
written the same way (question, ``my_answer = ...`` stub, ``check`` cell, worked
solution tagged ``solution``); the copy drops the cells tagged ``solution``,
keeps everything else and clears outputs, so each exercise still has its stub
and its check. A notebook without a text twin (one a teacher wrote, say) is
read as it is.

Run: ``python -m safari_kit.teaching.student notebooks student`` (or ``make student``).
Reading a lesson text needs jupytext (the kit's ``lab`` extra).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

SOLUTION_TAG = "solution"


def strip_solutions(notebook: dict) -> tuple[dict, int]:
    """Return a copy of ``notebook`` without its solution cells and outputs, and how many cells were removed."""
    cells, removed = [], 0
    for cell in notebook.get("cells", []):
        if SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
            removed += 1
            continue
        cell = json.loads(json.dumps(cell))
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        cells.append(cell)
    out = dict(notebook)
    out["cells"] = cells
    return out, removed


def read_lesson(path: str | Path) -> dict:
    """The lesson of notebook ``path``: from its text twin ``path.md`` if there is one, else the notebook itself."""
    path = Path(path)
    raw = path.read_text(encoding="utf-8")
    try:
        notebook = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not a valid notebook (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    text = path.with_suffix(".md")
    if not text.exists():
        return notebook
    try:
        import jupytext
        import nbformat
        from jupytext.combine import combine_inputs_with_outputs
    except ImportError:
        raise ValueError(f"{text}: reading a lesson text needs jupytext; install the kit with "
                         "`pip install -e '.[lab]'` (or run `make student`)") from None
    source = jupytext.read(text)
    lesson = combine_inputs_with_outputs(source, nbformat.reads(raw, as_version=4), fmt="md:myst")
    return json.loads(json.dumps(lesson))


def make_student_copies(src: str | Path, dst: str | Path) -> list[tuple[Path, int]]:
    """Write a student copy of every lesson in folder ``src`` to folder ``dst``; [(copy, solution cells removed)]."""
    src, dst = Path(src), Path(dst)
    if not src.is_dir():
        raise FileNotFoundError(f"{src}: no such folder of notebooks")
    dst.mkdir(parents=True, exist_ok=True)
    done = []
    for path in sorted(src.glob("*.ipynb")):
        student, removed = strip_solutions(read_lesson(path))
        target = dst / path.name
        target.write_text(json.dumps(student, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        done.append((target, removed))
    return done


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    src, dst = (args + ["notebooks", "student"][len(args):])[:2]
    try:
        done = make_student_copies(src, dst)
    except (OSError, ValueError) as exc:
        print(f"make student: {exc}", file=sys.stderr)
        return 2
    for target, removed in done:
        print(f"{target}: {removed} solution cell(s) removed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
