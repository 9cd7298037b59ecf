"""The learners' rules pages as notebooks: ``notebooks/rules-safari-witness.ipynb`` and ``...-knockout.ipynb``.

Why notebooks of markdown cells only: a learner reads the page without running a cell, in JupyterLab, in the
static site's JupyterLite and in Voici; the card pictures are ``data:`` images inside the markdown (JupyterLab's
sanitizer lets ``data:`` through in ``<img src>``), so they travel with every copy of the page (``make lab``'s
``my-lessons/``, the learners' copies, Binder, the site) without a picture file to copy beside it.

The notebooks are generated from the one source of each page (:mod:`safari_kit.tutorial.learner_rules`), never
edited by hand: ``--write`` writes the ``.ipynb`` and lets jupytext write its MyST twin (``notebooks/
jupytext.toml``), as for the lessons; tests/teaching/test_learner_rules.py fails when a notebook no longer
says what its source says (:func:`drift`). Their names start with ``rules-``, not a number, so they are pages,
not lessons (the landing page, the prose-facts and the timing tests list ``0N-*`` lessons only).

Each language with a page of its own (``witness.es.md``; the pseudo-locale is for tests, not a page) gets its
notebooks in its lessons' folder (``notebooks/es/rules-safari-witness.ipynb``), beside its lessons, with the
pictures drawn in its words.

Run: ``python -m safari_kit.tutorial.learner_rules.notebook --write`` (or ``--check``): every language.
"""
from __future__ import annotations

import argparse
import difflib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from safari_kit.core.i18n import SOURCE_LANGUAGE
from safari_kit.tutorial.learner_rules import GAMES, NOTEBOOKS, data_url, languages, page, picture_of

ROOT = Path(__file__).resolve().parents[3]
METADATA = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"}}


#: made for the tests (tools/i18n.py pseudo), never a learner's page
PSEUDO = "en_XA"


def page_languages() -> list[str]:
    """The languages with a rules page of their own in every game, English first (the pseudo-locale left out)."""
    found = [set(languages(game)) - {PSEUDO} for game in GAMES]
    return [SOURCE_LANGUAGE, *sorted(set.intersection(*found) - {SOURCE_LANGUAGE})]


def folder_of(lang: str) -> Path:
    """Where ``lang``'s rules notebooks live: beside its lessons (notebooks/, notebooks/es/)."""
    return ROOT / "notebooks" if lang == SOURCE_LANGUAGE else ROOT / "notebooks" / lang


def _markdown(body: str, game: str, lang: str = SOURCE_LANGUAGE) -> str:
    """A section's text for a markdown cell: each picture a ``data:`` image, its caption in italics under it."""
    out = []
    for line in body.splitlines():
        picture = picture_of(line.strip(), game, lang)
        if picture is None:
            out.append(line)
        else:
            out.extend([f"![{picture.caption}]({data_url(picture)})", "", f"*{picture.caption}*"])
    return "\n".join(out)


def cells(game: str, lang: str = SOURCE_LANGUAGE) -> list[str]:
    """The markdown cells of ``game``'s page in ``lang``: the title and introduction, then one cell per section."""
    p = page(game, lang)
    first = f"# {p.title}\n\n{_markdown(p.intro, game, p.lang)}"
    return [first, *(f"## {s.title}\n\n{_markdown(s.body, game, p.lang)}" for s in p.sections)]


def notebook(game: str, lang: str = SOURCE_LANGUAGE) -> dict:
    """The page as an nbformat-4 notebook (markdown cells, stable ids, the lessons' kernel metadata)."""
    return {"cells": [{"cell_type": "markdown", "id": f"rules-{game}-{i:02d}", "metadata": {},
                       "source": text.splitlines(keepends=True)} for i, text in enumerate(cells(game, lang))],
            "metadata": json.loads(json.dumps(METADATA)), "nbformat": 4, "nbformat_minor": 5}


def path_of(game: str, folder: Path = ROOT / "notebooks") -> Path:
    return folder / f"{NOTEBOOKS[game]}.ipynb"


def drift(game: str, folder: Path | None = None, lang: str = SOURCE_LANGUAGE) -> str:
    """'' when the committed notebook holds exactly the page's cells in ``lang``, else a diff (source first)."""
    path = path_of(game, folder_of(lang) if folder is None else folder)
    try:
        have_nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"{path}: cannot be read ({exc}): run python -m safari_kit.tutorial.learner_rules.notebook --write"

    def lines(texts: list[tuple[str, str]]) -> list[str]:
        out = []
        for kind, text in texts:
            out.append(f"=== {kind} cell")
            out.extend(line[:160] for line in text.splitlines())
        return out

    want = lines([("markdown", c) for c in cells(game, lang)])
    have = lines([(c.get("cell_type", "?"), "".join(c.get("source", ""))) for c in have_nb.get("cells", [])])
    if want == have:
        return ""
    source = f"{game}.md" if lang == SOURCE_LANGUAGE else f"{game}.{lang}.md"
    return "\n".join(difflib.unified_diff(want, have, f"{source} (the source)", path.name, lineterm="", n=1))


def write(folder: Path | None = None, lang: str = SOURCE_LANGUAGE) -> list[Path]:
    """Write both notebooks of ``lang``, and their MyST twins through jupytext (so ``jupytext --sync`` changes
    nothing)."""
    written = []
    folder = folder_of(lang) if folder is None else folder
    jupytext = shutil.which("jupytext", path=str(Path(sys.executable).parent)) or "jupytext"
    for game in GAMES:
        path = path_of(game, folder)
        path.write_text(json.dumps(notebook(game, lang), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        twin = path.with_suffix(".md")
        twin.unlink(missing_ok=True)  # jupytext --sync takes the newer file as the source: the notebook
        subprocess.run([jupytext, "--sync", "--quiet", str(path)], check=True, cwd=folder)
        written += [path, twin]
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Write or check the learners' rules notebooks.")
    parser.add_argument("--write", action="store_true", help="write notebooks/rules-*.ipynb and their .md twins")
    parser.add_argument("--check", action="store_true", help="say whether the notebooks match their source")
    args = parser.parse_args(argv)
    if args.write:
        for lang in page_languages():
            for path in write(lang=lang):
                print(f"wrote {path.relative_to(ROOT)}")
    problems = [d for lang in page_languages() for game in GAMES if (d := drift(game, lang=lang))]
    for d in problems:
        print(d)
    if not problems:
        print("the rules notebooks say what their source says")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
