"""Shared helpers of the notebook generators (tools/make_notebooks_*.py).

The lesson notebooks are written from Python so their text and code stay in
review-friendly files; these helpers build cells and write notebooks without
outputs, with stable cell ids (regenerating gives the same files).
"""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def md(text: str):
    return new_markdown_cell(text.strip("\n"))


def code(text: str, tags=(), solution: bool = False):
    """A code cell; ``solution=True`` tags it so ``make student`` removes it."""
    cell = new_code_cell(text.strip("\n"))
    tags = list(tags) + (["solution"] if solution else [])
    if tags:
        cell.metadata["tags"] = tags
    return cell


def write_notebook(name: str, cells) -> Path:
    """Write ``notebooks/<name>``: kernel python3, no outputs, ids ``<nn>-<index>``."""
    nb = new_notebook(cells=list(cells))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{name[:2]}-{i:02d}"
    nbformat.validate(nb)
    path = NOTEBOOKS / name
    nbformat.write(nb, path)
    print("wrote", path.relative_to(ROOT))
    return path
