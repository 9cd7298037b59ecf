"""Every notebook has its text twin, and the two say the same thing (no drift).

A lesson is authored as one MyST-markdown text, ``notebooks/NN-*.md``, paired by
jupytext (``notebooks/jupytext.toml``) with the notebook learners open,
``notebooks/NN-*.ipynb``; both are committed. In JupyterLab (with jupytext
installed) saving either file writes both; a text edited elsewhere is brought
back in line with ``jupytext --sync notebooks/NN-*.md``.

What must agree: the notebook metadata that matters (``kernelspec``, Voila's
``voila`` template), and cell by cell the type, the source and the metadata
(``tags`` above all: ``solution`` cells are what ``make student`` removes).
Metadata JupyterLab adds by itself (``collapsed``, ``scrolled``, ``execution``
...) is ignored. Cell ids are not compared: a text holds none. jupytext keeps
the notebook's id for every cell it matches when it syncs, and gives a new
cell a fresh one, so ids of unchanged cells stay stable; here they are only
checked to be valid and unique (``nbformat.validate``).

The control tests show the comparison fails on a changed sentence, a lost tag
or a missing cell, in a copy under ``tmp_path``.
"""
from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
PAIRS = sorted(NOTEBOOKS.glob("*.ipynb"))
NOTEBOOK_METADATA = ("kernelspec", "voila")
UI_METADATA = {"collapsed", "scrolled", "jupyter", "execution", "ExecuteTime", "trusted"}


def _render(nb) -> list[str]:
    """The parts of a notebook that must agree, as lines (so a drift reads as a diff)."""
    lines = [f"notebook metadata {key}: {nb.metadata.get(key)!r}" for key in NOTEBOOK_METADATA]
    for i, cell in enumerate(nb.cells):
        meta = {k: v for k, v in cell.get("metadata", {}).items() if k not in UI_METADATA}
        lines.append(f"=== cell {i} ({cell.cell_type}) metadata {meta!r}")
        lines.extend(cell.source.splitlines())
    return lines


def drift(text: Path, notebook: Path) -> str:
    """'' when ``notebook`` says what its ``text`` says, else a unified diff (text first)."""
    want = _render(jupytext.read(text))
    have = _render(nbformat.read(notebook, as_version=4))
    if want == have:
        return ""
    return "\n".join(difflib.unified_diff(want, have, str(text.name), str(notebook.name), lineterm="", n=2))


def test_there_are_lessons():
    assert len(PAIRS) >= 9, PAIRS


def test_jupytext_pairs_every_notebook_with_a_myst_text():
    from jupytext.config import find_jupytext_configuration_file, load_jupytext_configuration_file

    path = find_jupytext_configuration_file(str(NOTEBOOKS))
    assert path and Path(path).resolve() == NOTEBOOKS / "jupytext.toml", path
    config = load_jupytext_configuration_file(path)
    for notebook in PAIRS:
        assert config.default_formats(str(notebook)) == "ipynb,md:myst", notebook.name


@pytest.mark.parametrize("notebook", PAIRS, ids=[p.name for p in PAIRS])
def test_notebook_has_its_text_twin_and_agrees_with_it(notebook):
    text = notebook.with_suffix(".md")
    assert text.exists(), (f"{notebook.name} has no text twin {text.name}: "
                           f"run `jupytext --sync notebooks/{notebook.name}`")
    head = text.read_text(encoding="utf-8").split("---", 2)[1]
    assert "format_name: myst" in head, f"{text.name} is not a MyST-markdown notebook (jupytext header)"
    diff = drift(text, notebook)
    assert not diff, (
        f"notebooks/{notebook.name} differs from its text notebooks/{text.name}. If you edited the text, run "
        f"`jupytext --sync notebooks/{text.name}` (jupytext takes the newer file as the source), or edit the "
        f"lesson in JupyterLab, which keeps both in sync.\n{diff}")


def test_every_text_has_its_notebook():
    texts = {p.stem for p in NOTEBOOKS.glob("*.md")}
    assert texts == {p.stem for p in PAIRS}


@pytest.mark.parametrize("notebook", PAIRS, ids=[p.name for p in PAIRS])
def test_cell_ids_are_valid_and_unique(notebook):
    nb = nbformat.read(notebook, as_version=4)
    nbformat.validate(nb)
    ids = [cell.id for cell in nb.cells]
    assert len(ids) == len(set(ids)), notebook.name


# -- controls: the comparison is not vacuous ------------------------------------

@pytest.fixture
def pair(tmp_path):
    for path in (NOTEBOOKS / "07-rules-tutorial.md", NOTEBOOKS / "07-rules-tutorial.ipynb"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path / "07-rules-tutorial.md", tmp_path / "07-rules-tutorial.ipynb"


def test_control_an_unchanged_copy_agrees(pair):
    assert drift(*pair) == ""


def test_control_a_changed_sentence_in_the_text_is_drift(pair):
    text, notebook = pair
    source = text.read_text(encoding="utf-8")
    assert "Learn both games" in source
    text.write_text(source.replace("Learn both games", "Learn the two games"), encoding="utf-8")
    diff = drift(text, notebook)
    assert "-Learn the two games" in diff and "+Learn both games" in diff


def test_control_a_lost_solution_tag_in_the_notebook_is_drift(pair):
    text, notebook = pair
    nb = nbformat.read(notebook, as_version=4)
    cell = next(c for c in nb.cells if "solution" in c.metadata.get("tags", []))
    del cell.metadata["tags"]
    nbformat.write(nb, notebook)
    assert "'tags': ['solution']" in drift(text, notebook)


def test_control_a_cell_missing_from_the_notebook_is_drift(pair):
    text, notebook = pair
    nb = nbformat.read(notebook, as_version=4)
    del nb.cells[3]
    nbformat.write(nb, notebook)
    assert drift(text, notebook)


def test_saving_in_jupyterlab_writes_the_text_too(tmp_path):
    """What a teacher does: open a lesson in JupyterLab, change a sentence, save.

    jupytext's contents manager (the one JupyterLab uses once jupytext is
    installed) reads notebooks/jupytext.toml and writes the .md twin as well;
    the pair still agrees, and the notebook keeps its cell ids.
    """
    pytest.importorskip("jupyter_server")
    from jupytext import TextFileContentsManager

    for name in ("jupytext.toml", "03-challenge.md", "03-challenge.ipynb"):
        shutil.copy(NOTEBOOKS / name, tmp_path / name)
    ids = [c.id for c in nbformat.read(tmp_path / "03-challenge.ipynb", as_version=4).cells]
    manager = TextFileContentsManager(root_dir=str(tmp_path))
    model = manager.get("03-challenge.ipynb")
    model["content"].cells[0].source += "\n\nA sentence a teacher added."
    manager.save(model, "03-challenge.ipynb")
    assert "A sentence a teacher added." in (tmp_path / "03-challenge.md").read_text(encoding="utf-8")
    assert drift(tmp_path / "03-challenge.md", tmp_path / "03-challenge.ipynb") == ""
    assert [c.id for c in nbformat.read(tmp_path / "03-challenge.ipynb", as_version=4).cells] == ids


def test_voila_does_not_load_jupytext_s_jupyterlab_extension(monkeypatch):
    """jupytext's JupyterLab extension needs JupyterLab's document manager, which Voila has not:
    loaded in the classroom app it only logs an error. voila.json (read from the folder Voila
    starts in: `make app`, Binder's app mode, the browser tests' copy) leaves it out."""
    import json

    config = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    assert "jupyterlab-jupytext" in config["VoilaConfiguration"]["extension_denylist"]
    voila = pytest.importorskip("voila.server_extension")
    monkeypatch.chdir(ROOT)
    loaded = voila.load_config_file()   # what Voila in a Jupyter server (Binder's app mode) reads
    assert "jupyterlab-jupytext" in loaded["VoilaConfiguration"]["extension_denylist"]
