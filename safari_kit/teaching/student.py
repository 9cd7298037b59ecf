"""Student copies of the lesson notebooks: the same source, without the solutions.

Cells tagged ``solution`` are removed; cells tagged ``solution-replace`` are
kept with their code replaced by a ``# your answer here`` stub, so the exercise
still has a cell to type in. Outputs are cleared.

Run: ``python -m safari_kit.teaching.student notebooks student`` (or ``make student``).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

STUB = "# your answer here\n"


def strip_solutions(notebook: dict) -> tuple[dict, int]:
    """Return a copy of ``notebook`` without solution cells, and how many were changed."""
    cells, changed = [], 0
    for cell in notebook.get("cells", []):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if "solution" in tags:
            changed += 1
            continue
        cell = json.loads(json.dumps(cell))
        if "solution-replace" in tags:
            cell["source"] = STUB
            changed += 1
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        cells.append(cell)
    out = dict(notebook)
    out["cells"] = cells
    return out, changed


def make_student_copies(src: str | Path, dst: str | Path) -> list[tuple[Path, int]]:
    src, dst = Path(src), Path(dst)
    if not src.is_dir():
        raise FileNotFoundError(f"{src}: no such folder of notebooks")
    dst.mkdir(parents=True, exist_ok=True)
    done = []
    for path in sorted(src.glob("*.ipynb")):
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not a valid notebook (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
        student, changed = strip_solutions(notebook)
        target = dst / path.name
        target.write_text(json.dumps(student, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        done.append((target, changed))
    return done


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    src, dst = (args + ["notebooks", "student"][len(args):])[:2]
    try:
        done = make_student_copies(src, dst)
    except (OSError, ValueError) as exc:
        print(f"make student: {exc}", file=sys.stderr)
        return 2
    for target, changed in done:
        print(f"{target}: {changed} solution cell(s) removed or stubbed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
