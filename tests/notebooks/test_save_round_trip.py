"""Running and saving every lesson in JupyterLab, as ``make lab`` serves it, changes no file of the kit.

Issue 17, part 2: served from ``notebooks/``, one walkthrough modified all 16 lesson files
(autosave wrote outputs into the .ipynb, jupytext rewrote the paired .md). ``make lab`` now
copies the lessons into ``my-lessons/`` (git-ignored) and serves that. These tests run the real
``make lab`` on a clone of the tracked files and save through the contents API exactly as
JupyterLab does (a checkpoint, then ``PUT /api/contents/<path>`` with the whole notebook, its
outputs and the metadata the kernel reported), then ask git. The control serves ``notebooks/``
the old way and must see the tracked files change, so the test can fail.
"""
from __future__ import annotations

import shutil
import tempfile
import urllib.parse
from pathlib import Path

import pytest

from tests.make_lab import changed_tracked, start_make_lab, tracked_clone

pytestmark = pytest.mark.slow

if shutil.which("make") is None or shutil.which("git") is None:  # pragma: no cover
    pytest.skip("needs make and git", allow_module_level=True)


def _save_like_jupyterlab(server, path: str, round_no: int) -> None:
    """What JupyterLab does on open, run all, and save: GET, outputs in every code cell, checkpoint, PUT."""
    quoted = urllib.parse.quote(path)
    model = server.api("GET", f"contents/{quoted}?type=notebook&content=1")
    notebook = model["content"]
    count = 0
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            count += 1
            cell["execution_count"] = count
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"run {round_no}\n"}]
    notebook["metadata"]["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python",
                                          "name": "python3"}
    server.api("POST", f"contents/{quoted}/checkpoints")
    saved = server.api("PUT", f"contents/{quoted}", {"type": "notebook", "format": "json", "content": notebook})
    assert saved["path"] == path


@pytest.fixture()
def clone():
    home = Path(tempfile.mkdtemp(prefix="safari-roundtrip-"))
    root = tracked_clone(home / "kit")
    try:
        yield root, home
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_running_and_saving_every_lesson_leaves_the_kit_unchanged(clone):
    root, home = clone
    server = start_make_lab(root, home)
    try:
        listing = server.api("GET", "contents?content=1")["content"]
        names = sorted(item["name"] for item in listing)
        lessons = sorted((root / "notebooks").glob("*.ipynb"))
        assert lessons, "no lessons in the clone"
        # the file browser offers each lesson once: notebooks, the docs they link to and a folder per language
        # of the lessons (issue 30: es/); no NN.md twins
        from safari_kit.authoring.student import language_folders

        languages = [p.name for p in language_folders(root / "notebooks")]
        assert languages, "no lessons in another language in the clone (notebooks/es/)"
        assert names == sorted([p.name for p in lessons] + ["docs"] + languages), names
        assert not [n for n in names if n.endswith(".md")]
        for round_no in (1, 2):  # a second save too: autosave runs every two minutes
            for path in lessons:
                _save_like_jupyterlab(server, path.name, round_no)
        saved = server.api("GET", f"contents/{urllib.parse.quote(lessons[0].name)}?content=1")["content"]
        assert any(cell.get("outputs") for cell in saved["cells"]), "the save did not reach the copy"
    finally:
        server.stop()
    assert changed_tracked(root) == [], server.log_tail()
    # the copies are where the work went, and git ignores them
    assert (root / "my-lessons" / lessons[0].name).is_file()
    assert "my-lessons" not in "".join(changed_tracked(root))


def test_make_lab_again_keeps_saved_work_and_brings_newer_lessons(clone):
    """A teacher runs a lesson (outputs saved), edits another, pulls a newer kit, runs make lab again."""
    root, home = clone
    server = start_make_lab(root, home)
    try:
        _save_like_jupyterlab(server, "03-challenge.ipynb", 1)            # only ran it
        model = server.api("GET", "contents/04-knockout.ipynb?content=1")["content"]
        model["cells"][0]["source"] = "My own notes on this lesson."      # edited it
        server.api("PUT", "contents/04-knockout.ipynb", {"type": "notebook", "format": "json", "content": model})
    finally:
        server.stop()
    for name in ("03-challenge", "04-knockout"):  # the kit's next version changes both lessons
        text = root / "notebooks" / f"{name}.md"
        text.write_text(text.read_text(encoding="utf-8") + "\nA newer paragraph.\n", encoding="utf-8")
    server = start_make_lab(root, home)
    try:
        ran = server.api("GET", "contents/03-challenge.ipynb?content=1")["content"]
        edited = server.api("GET", "contents/04-knockout.ipynb?content=1")["content"]
    finally:
        server.stop()
    assert "A newer paragraph." in "".join(ran["cells"][-1]["source"])
    assert edited["cells"][0]["source"] == "My own notes on this lesson."
    assert "04-knockout.ipynb: kept" in server.log.read_text()


def test_control_serving_notebooks_itself_changes_the_kit(clone):
    """The old ``make lab`` (JupyterLab on notebooks/ with jupytext pairing) fails the check above."""
    root, home = clone
    server = start_make_lab(root, home, old_way=True)
    try:
        _save_like_jupyterlab(server, "03-challenge.ipynb", 1)
    finally:
        server.stop()
    changed = changed_tracked(root)
    assert any(line.endswith("notebooks/03-challenge.ipynb") for line in changed), changed
    assert any(line.endswith("notebooks/03-challenge.md") for line in changed), changed
