"""What the static site serves (issue 17): its learners' pages are the student copies; the teacher's copies
go in only with ``make site TEACHER=1``, in a teacher/ folder listed apart. Fast: no site is built here
(the offline build, in tests/browser/test_site_browser.py, checks the built site's files and contents index)."""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from safari_kit.teaching.answer_leaks import find_leaks

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"


@pytest.fixture(scope="module")
def build_site():
    spec = importlib.util.spec_from_file_location("build_site", REPO / "site-src" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _notebooks(folder: Path) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.ipynb"))}


def test_the_learners_pages_are_the_student_copies(build_site, tmp_path):
    contents = build_site.stage(tmp_path / "lite")
    assert sorted(p.name for p in contents.iterdir()) == ["data", "notebooks"]   # no teacher/ by default
    learners = _notebooks(contents / "notebooks")
    assert set(learners) == {p.name for p in NOTEBOOKS.glob("*.ipynb")}
    for name, nb in learners.items():
        assert build_site.teacher_only_cells(nb) == [], name
        assert find_leaks(nb, name) == [], name
        text = json.dumps(nb)
        assert "For teachers" not in text and '"solution"' not in text, name
    assert (contents / "data" / "cards.csv").read_bytes() == (REPO / "data" / "cards.csv").read_bytes()


def test_teacher_copies_only_when_asked_for_and_apart(build_site, tmp_path):
    contents = build_site.stage(tmp_path / "lite", teacher=True)
    assert sorted(p.name for p in contents.iterdir()) == ["data", "notebooks", "teacher"]
    teacher = _notebooks(contents / "teacher")
    assert set(teacher) == set(_notebooks(contents / "notebooks"))
    # control: the teacher's copies hold what the learners' pages must not (the check can fail)
    lessons = [name for name in teacher if name[:2].isdigit()]
    assert all(build_site.teacher_only_cells(teacher[name]) for name in lessons)
    assert all(find_leaks(teacher[name], name) for name in lessons if name[:2] != "00")


def test_the_landing_page_lists_the_teacher_copies_apart_and_only_when_built_with_them(build_site, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    contents = build_site.stage(tmp_path / "lite", teacher=True)
    build_site.landing_page(out, contents, teacher=False)
    page = (out / "index.html").read_text()
    assert "path=notebooks/02-identification.ipynb" in page
    assert "teacher/" not in page and "{{" not in page
    build_site.landing_page(out, contents, teacher=True)
    page = (out / "index.html").read_text()
    learners, teachers = page.split("For the teacher")
    assert "path=notebooks/02-identification.ipynb" in learners and "teacher/" not in learners
    assert "path=teacher/02-identification.ipynb" in teachers and "make site TEACHER=1" in teachers


def _site_with(tmp_path: Path, folder: str, notebook: Path) -> Path:
    out = tmp_path / "site"
    (out / "files" / folder).mkdir(parents=True)
    shutil.copy(notebook, out / "files" / folder / notebook.name)
    return out


def test_the_build_refuses_a_learners_page_with_answers(build_site, tmp_path):
    teacher_copy = NOTEBOOKS / "05-simulation-lab.ipynb"          # worked solutions and teacher notes in
    with pytest.raises(SystemExit) as err:
        build_site.check_learner_pages(_site_with(tmp_path / "a", "notebooks", teacher_copy), teacher=False)
    assert "notebooks/05-simulation-lab.ipynb cell" in str(err.value)
    with pytest.raises(SystemExit) as err:
        build_site.check_learner_pages(_site_with(tmp_path / "b", "teacher", teacher_copy), teacher=False)
    assert "without --teacher" in str(err.value)
    build_site.check_learner_pages(_site_with(tmp_path / "c", "teacher", teacher_copy), teacher=True)


def test_a_lesson_that_cannot_be_cut_stops_the_site_build(build_site, tmp_path):
    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "**Common wrong answers.** 1/15"}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (lessons / "09-new.ipynb").write_text(json.dumps(nb))
    with pytest.raises(SystemExit) as err:
        build_site.stage(tmp_path / "lite", lessons=lessons)
    assert "09-new.ipynb: cell 1" in str(err.value)


@pytest.mark.parametrize("variable, flag", [("", False), ("TEACHER=1", True), ("TEACHER=0", False)])
def test_make_site_passes_teacher_only_when_asked(variable, flag):
    cmd = ["make", "-n", "--no-print-directory", "site", "SITE_STAMP=Makefile"] + ([variable] if variable else [])
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=True)
    line = next(x for x in run.stdout.replace("\\\n", " ").splitlines() if "build_site.py" in x)
    assert ("--teacher" in line) is flag, line
