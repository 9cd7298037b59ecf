"""``safari-kit lessons --student`` from any folder (issue 29): on a learner's JupyterHub server there is no
checkout, and the old default ``--from notebooks`` (a folder of the current directory) failed there.

Now, without ``--from``, the kit's own lessons are copied: a checkout's ``notebooks/``, else the lessons the
wheel carries (``safari_kit/data/lessons/``, pyproject's force-include). When neither is there, or ``--from``
names a folder without lessons, the error names what was expected and ``--from``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from safari_kit.authoring import workspace
from safari_kit.authoring.student import SOLUTION_TAG
from safari_kit.authoring.workspace import cells_hash
from safari_kit.cli import main
from tests.test_packaging import wheel  # noqa: F401  (the fixture: the wheel, built once a module)

REPO = Path(__file__).resolve().parents[2]
LESSONS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))


def _no_solutions(folder: Path) -> None:
    """Student copies: every lesson, none with a cell tagged ``solution`` (the teacher's copies have some)."""
    tags = [tag for name in LESSONS for cell in json.loads((folder / name).read_text(encoding="utf-8"))["cells"]
            for tag in cell.get("metadata", {}).get("tags", [])]
    assert tags and SOLUTION_TAG not in tags


def test_student_copies_from_a_folder_outside_the_checkout(tmp_path, monkeypatch, capsys):
    """What a learner's server runs in its home: no --from, no notebooks/ beside it."""
    monkeypatch.chdir(tmp_path)
    assert not (tmp_path / "notebooks").exists()
    assert main(["lessons", "--student", "lessons"]) == 0, capsys.readouterr().err
    out = tmp_path / "lessons"
    assert sorted(p.name for p in out.glob("*.ipynb")) == LESSONS
    assert (out / "docs" / "rules.md").is_file() and (out / "docs" / "img" / "card-mugshot.png").is_file()
    _no_solutions(out)
    # a learner's saved work is kept at the next start (what the server's start step runs every time)
    mine = out / "02-identification.ipynb"
    notebook = json.loads(mine.read_text(encoding="utf-8"))
    notebook["cells"][0]["source"] = "my own notes"
    mine.write_text(json.dumps(notebook), encoding="utf-8")
    capsys.readouterr()
    assert main(["lessons", "--student", "lessons"]) == 0
    assert "02-identification.ipynb: kept" in capsys.readouterr().out
    assert json.loads(mine.read_text(encoding="utf-8"))["cells"][0]["source"] == "my own notes"


def test_no_lessons_installed_names_what_was_expected_and_from(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(workspace, "SOURCE", tmp_path / "checkout" / "notebooks")
    monkeypatch.setattr(workspace, "SHIPPED", tmp_path / "site" / "safari_kit" / "data" / "lessons" / "notebooks")
    assert main(["lessons", "--student", "lessons"]) == 2
    err = capsys.readouterr().err
    assert "lessons are not installed" in err and "data/lessons/notebooks" in err and "--from FOLDER" in err, err
    assert "Traceback" not in err and not (tmp_path / "lessons").exists()


def test_from_a_folder_without_lessons_says_what_from_expects(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["lessons", str(tmp_path / "mine"), "--from", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert "empty: no lessons (*.ipynb) in this folder" in err and "--from expects" in err, err
    assert not (tmp_path / "mine").exists()


@pytest.mark.slow  # builds the wheel with pip (make test runs it; make check skips it)
def test_the_installed_wheel_copies_its_own_lessons_from_any_folder(wheel, tmp_path):  # noqa: F811
    """The wheel alone (no checkout on sys.path): the same student copies as the checkout's, with their docs."""
    _repo, whl = wheel
    site = tmp_path / "site"
    zipfile.ZipFile(whl).extractall(site)
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    proc = subprocess.run([sys.executable, "-m", "safari_kit", "lessons", "--student", "lessons"], cwd=home,
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    where = subprocess.run([sys.executable, "-c", "from safari_kit.authoring import workspace as w; "
                            "print(w.kit_lessons())"], cwd=home, env=env, capture_output=True, text=True,
                           timeout=60).stdout.strip()
    assert where == str(site / "safari_kit" / "data" / "lessons" / "notebooks")
    out = home / "lessons"
    assert sorted(p.name for p in out.glob("*.ipynb")) == LESSONS
    _no_solutions(out)
    # the very copies a checkout makes (same cells), and the docs the lessons link to
    assert main(["lessons", str(tmp_path / "from-checkout"), "--student", "--from", str(REPO / "notebooks")]) == 0
    for name in LESSONS:
        mine, theirs = (json.loads(p.read_text(encoding="utf-8"))
                        for p in (out / name, tmp_path / "from-checkout" / name))
        assert cells_hash(mine) == cells_hash(theirs), name
    assert (out / "docs" / "rules.md").read_bytes() == (REPO / "docs" / "rules.md").read_bytes()
    assert (out / "docs" / "data.md").is_file()
    for image in ("card-back.png", "card-mugshot.png", "card-safari-pal.png"):
        assert (out / "docs" / "img" / image).read_bytes() == (REPO / "docs" / "img" / image).read_bytes()


@pytest.mark.slow  # builds the wheel with pip (make test runs it; make check skips it)
def test_the_static_site_drops_the_wheels_lessons(wheel, tmp_path):  # noqa: F811
    """The static site unpacks the kit's wheel on every visit: the lessons it carries for servers are trimmed."""
    sys.path.insert(0, str(REPO / "site-src"))
    try:
        import trim_wheels
    finally:
        sys.path.remove(str(REPO / "site-src"))
    _repo, whl = wheel
    trimmed, dropped, _bytes = trim_wheels.trim_wheel(whl, "safari-kit", tmp_path / "trim")
    names = zipfile.ZipFile(trimmed).namelist()
    assert dropped >= len(LESSONS) and not [n for n in names if n.startswith("safari_kit/data/lessons/")]
    assert {"safari_kit/data/rules.md", "safari_kit/data/cards.csv"} <= set(names)
