"""Working copies of the lessons: run, edit and save them without touching the kit's own files.

Why copies: served from ``notebooks/``, one walkthrough in JupyterLab changed every
lesson file (autosave writes outputs into the ``.ipynb``, jupytext rewrites the
paired ``.md``), so a teacher's next ``git pull`` conflicted and ``make test`` failed
on notebooks with outputs. ``make lab`` therefore opens JupyterLab on a copy
(``my-lessons/``, git-ignored), and Binder's links open copies made when its image
is built (``binder/postBuild``). ``notebooks/`` stays the source, edited only on
purpose (docs/teachers.md, "How to change a lesson").

A copy is what JupyterLab would save for the lesson on this machine, so opening it
does not mark it changed: the cells of the lesson's text (``NN-*.md``), no outputs,
no jupytext pairing (one file per lesson in the file browser, nothing rewritten
beside it), and the kernelspec and ``language_info`` the local Python kernel reports
(``kernel_metadata``). Links to the kit's docs (``../docs/rules.md``) point to a copy
of those docs inside the folder, because JupyterLab cannot open files above its root.

Refreshing is safe: :func:`sync_copies` replaces a copy by the newer lesson only when
the copy's cells are still exactly what it last wrote (the learner ran it, maybe saved
outputs, but changed no cell). A copy somebody edited is kept, and reported, so an
update never eats a learner's work.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp())
>>> [c.action for c in sync_copies(SOURCE, out, metadata={})][:2]
['new', 'new']
>>> [c.action for c in sync_copies(SOURCE, out, metadata={})][:2]
['unchanged', 'unchanged']
"""
from __future__ import annotations

import hashlib
import json
import platform
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from safari_kit.authoring.student import language_folders, read_lesson

#: the lessons of a source checkout (the kit's notebooks/ folder)
SOURCE = Path(__file__).resolve().parents[2] / "notebooks"
#: the lessons an installed wheel carries (pyproject's force-include: notebooks/ and the docs they link to), so
#: ``safari-kit lessons --student`` works on a learner's server with no checkout (issue 29)
SHIPPED = Path(__file__).resolve().parents[1] / "data" / "lessons" / "notebooks"
#: remembers, per copy, the hash of the cells last written, so edited copies are recognised
MANIFEST = ".safari-kit-copies.json"
#: the kit's docs that lessons link to, copied beside the lessons
LINKED_DOCS = ("rules.md", "data.md")
#: a link to the kit's docs from a lesson: ``](../docs/`` (notebooks/), ``](../../docs/`` (notebooks/<lang>/)
_DOCS_LINK = re.compile(r"\]\(((?:\.\./)*)\.\./docs/")


@dataclass(frozen=True)
class Copied:
    """What :func:`sync_copies` did with one lesson."""

    path: Path
    action: str  # new | updated | unchanged | kept (edited by somebody: left as it is)

    def __str__(self) -> str:
        words = {"new": "copied", "updated": "updated to the newer lesson", "unchanged": "up to date",
                 "kept": "kept: you edited it, so the newer lesson was not copied over it "
                         f"(delete {self.path.name} and run this again to get it)"}
        return f"{self.path}: {words[self.action]}"


class NoLessons(FileNotFoundError):
    """Neither a checkout's notebooks/ nor the lessons of an installed kit are here (a broken install)."""


def kit_lessons() -> Path:
    """The kit's own lessons: a checkout's ``notebooks/`` (the source), else the copy installed with the kit.

    A checkout is recognised by its ``pyproject.toml`` beside ``notebooks/``, so a stray ``notebooks`` folder
    next to an installed package is never taken for the lessons.
    """
    if (SOURCE.parent / "pyproject.toml").is_file() and any(SOURCE.glob("*.ipynb")):
        return SOURCE
    if any(SHIPPED.glob("*.ipynb")):
        return SHIPPED
    raise NoLessons(f"the kit's lessons are not installed: expected the folder {SHIPPED} (the kit's wheel "
                    f"carries it) or a checkout's {SOURCE}; reinstall the kit, or name a folder of lessons "
                    "with --from FOLDER")


def kernel_metadata() -> dict:
    """The notebook metadata JupyterLab writes once this machine's Python kernel has started.

    JupyterLab copies the running kernel's spec and ``language_info`` into the notebook
    and marks it changed if they differ from the file, so a copy carries them already.
    Read from ipykernel and jupyter_client when installed (the kit's ``lab`` extra);
    otherwise the plain values (a copy then looks changed on open, nothing worse).
    """
    try:
        from ipykernel.ipkernel import IPythonKernel
        from jupyter_client.kernelspec import KernelSpecManager

        spec = KernelSpecManager().get_kernel_spec("python3")
        return {"kernelspec": {"display_name": spec.display_name, "language": spec.language, "name": "python3"},
                "language_info": dict(IPythonKernel.language_info)}
    except Exception:  # noqa: BLE001  (no Jupyter here: any failure means "use the plain values")
        return {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                "language_info": {"name": "python", "version": platform.python_version()}}


def cells_hash(notebook: dict) -> str:
    """A hash of what a learner can change in a lesson: each cell's type and source (not outputs, not ids)."""
    digest = hashlib.sha256()
    for cell in notebook.get("cells", []):
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        digest.update(json.dumps([cell.get("cell_type"), source]).encode())
    return digest.hexdigest()


def lesson_copy(path: Path, metadata: dict | None = None) -> dict:
    """The working copy of lesson ``path``: every cell, no outputs, no pairing, local kernel metadata."""
    notebook = json.loads(json.dumps(read_lesson(path)))
    return as_copy(notebook, metadata)


def as_copy(notebook: dict, metadata: dict | None = None) -> dict:
    """Clear outputs, drop jupytext's pairing metadata, set the kernel metadata, point doc links inside."""
    meta = {k: v for k, v in notebook.get("metadata", {}).items() if k != "jupytext"}
    meta.update(kernel_metadata() if metadata is None else metadata)
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        elif cell.get("cell_type") == "markdown":
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else source
            cell["source"] = _DOCS_LINK.sub(r"](\1docs/", source)
    notebook["metadata"] = meta
    return notebook


def sync_copies(src: str | Path, dst: str | Path, *, make_copy: Callable[[Path], dict] | None = None,
                metadata: dict | None = None, docs: str | Path | None = None) -> list[Copied]:
    """Bring folder ``dst`` up to date with the lessons (``*.ipynb``) of folder ``src``.

    ``make_copy(path)`` builds a lesson's copy (default: :func:`lesson_copy`, every cell;
    the student copies pass one without solutions). A copy is written when it is missing,
    or when its cells are still those last written here; an edited copy is kept. The
    docs the lessons link to are copied from ``docs`` (default: ``src/../docs``).
    """
    src, dst = Path(src), Path(dst)
    if not src.is_dir():
        raise FileNotFoundError(f"{src}: no such folder of lessons")
    meta = kernel_metadata() if metadata is None else metadata
    build = make_copy or (lambda path: lesson_copy(path, meta))
    dst.mkdir(parents=True, exist_ok=True)
    manifest_path = dst / MANIFEST
    try:
        written = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        written = {}
    done = []
    for path in sorted(src.glob("*.ipynb")):
        fresh = build(path)
        if make_copy is not None:  # a custom builder still gets the local kernel metadata
            fresh = as_copy(fresh, meta)
        target = dst / path.name
        action = "new"
        if target.exists():
            try:
                current = cells_hash(json.loads(target.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                current = None
            if current == cells_hash(fresh):
                action = "unchanged"
            elif current is not None and current == written.get(path.name):
                action = "updated"
            else:
                action = "kept"
        if action in ("new", "updated"):
            target.write_text(json.dumps(fresh, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        if action != "kept":
            written[path.name] = cells_hash(fresh)
        done.append(Copied(target, action))
    manifest_path.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    _copy_docs(Path(docs) if docs is not None else src.parent / "docs", dst / "docs")
    # notebooks/es/ -> dst/es/: its lessons link to ../../docs/, dst/docs/ in the copies; docs of its own
    # (a translated data.md in notebooks/es/docs/) would go to dst/es/docs/
    for folder in language_folders(src):
        done += sync_copies(folder, dst / folder.name, make_copy=make_copy, metadata=meta, docs=folder / "docs")
    return done



_IMAGE_LINK = re.compile(r"\]\((img/[^)\s]+)\)")


def _copy_docs(docs: Path, out: Path) -> None:
    """Copy the docs the lessons link to, and the pictures they show (reference: always the newest)."""
    present = [path for path in (_linked_doc(docs, name) for name in LINKED_DOCS) if path.is_file()]
    for path in present:
        out.mkdir(exist_ok=True)
        shutil.copyfile(path, out / path.name)
        for image in _IMAGE_LINK.findall(path.read_text(encoding="utf-8")):
            if (docs / image).is_file():
                (out / image).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(docs / image, out / image)


def _linked_doc(docs: Path, name: str) -> Path:
    """Doc ``name`` of folder ``docs``; the installed lessons' rules.md is the kit's one copy of it (the wheel
    carries docs/rules.md once, as ``safari_kit/data/rules.md``, and TOML allows one key a path)."""
    if name == "rules.md" and docs == SHIPPED.parent / "docs" and not (docs / name).is_file():
        from safari_kit.tutorial.rulebook import rules_path

        return rules_path()
    return docs / name
