"""A lesson in another language is a twin of the English one: the same cells, the same tags, the same ids.

Why twins: a lesson's cells carry what the copies are cut by (``solution`` and ``teacher`` tags, the
exercises' stubs and checks) and what JupyterLab knows a cell by (its id). A translation that kept the
words but moved a cell, lost a tag or split an exercise would make a Spanish student copy that shows a
solution, or a check whose stub is gone. So ``notebooks/es/NN-*.md`` holds exactly the cells of
``notebooks/NN-*.md``, in the same order, with the same types and tags; only the words (and a code cell's
printed words) change. :func:`twin_problems` says where a translation differs in shape (the tests run it on
every lesson), and :func:`write_twin_notebook` builds the translation's notebook from its MyST text with the
English notebook's cell ids, so jupytext then keeps the pair in sync like any other lesson.

Run ``python -m safari_kit.authoring.twins notebooks/es/00-start-here.md`` after writing a new translated
text (it writes ``notebooks/es/00-start-here.ipynb``); once the pair exists, JupyterLab or
``jupytext --sync`` keep it.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

#: the tags that decide what a copy keeps: they must be on the same cells in every language
TAGS_THAT_CUT = ("solution", "teacher", "recap")


def english_twin(path: str | Path) -> Path:
    """The English lesson of a translated one: ``notebooks/es/00-start-here.md`` -> ``notebooks/00-start-here.md``
    (the same suffix)."""
    path = Path(path)
    return path.parent.parent / path.name


def _cells(path: Path) -> list[dict]:
    if path.suffix == ".md":
        import jupytext

        return [dict(cell) for cell in jupytext.read(path).cells]
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _shape(cell: dict) -> tuple[str, tuple[str, ...]]:
    tags = (cell.get("metadata") or {}).get("tags", [])
    return cell.get("cell_type", "?"), tuple(t for t in tags if t in TAGS_THAT_CUT)


def twin_problems(translated: str | Path, english: str | Path | None = None) -> list[str]:
    """Where ``translated`` (a lesson text or notebook) differs in shape from its English twin: a missing
    twin, another number of cells, or a cell of another type or with other cutting tags; ids too when both
    are notebooks. Empty when they are twins."""
    translated = Path(translated)
    english = english_twin(translated) if english is None else Path(english)
    if not english.exists():
        return [f"{translated}: no English twin {english}"]
    mine, theirs = _cells(translated), _cells(english)
    problems = []
    if len(mine) != len(theirs):
        problems.append(f"{translated}: {len(mine)} cells, its English twin {english.name} has {len(theirs)}")
    for i, (a, b) in enumerate(zip(mine, theirs)):
        if _shape(a) != _shape(b):
            problems.append(f"{translated}: cell {i + 1} is {_shape(a)}, in {english.name} {_shape(b)} "
                            f"(starts {''.join(b.get('source', ''))[:50]!r})")
        elif translated.suffix == english.suffix == ".ipynb" and a.get("id") != b.get("id"):
            problems.append(f"{translated}: cell {i + 1} has id {a['id']!r}, in {english.name} {b['id']!r}")
    return problems


def write_twin_notebook(text: str | Path) -> Path:
    """Write the notebook of translated lesson text ``text`` (``.md``) beside it, with the English notebook's
    metadata and cell ids. Raises ValueError naming the cells when the text is not a twin of the English."""
    import jupytext
    import nbformat

    text = Path(text)
    problems = twin_problems(text, english_twin(text))
    if problems:
        raise ValueError("\n".join(problems))
    english = nbformat.read(english_twin(text).with_suffix(".ipynb"), as_version=4)
    lesson = jupytext.read(text)
    for cell, twin in zip(lesson.cells, english.cells):
        cell["id"] = twin["id"]
        if cell.cell_type == "code":
            cell["outputs"], cell["execution_count"] = [], None
    lesson.metadata = dict(english.metadata)
    target = text.with_suffix(".ipynb")
    nbformat.write(lesson, target)
    return target


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m safari_kit.authoring.twins notebooks/<lang>/NN-*.md ...", file=sys.stderr)
        return 2
    status = 0
    for name in args:
        try:
            print(f"{write_twin_notebook(name)}: written")
        except (OSError, ValueError) as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    raise SystemExit(main())
