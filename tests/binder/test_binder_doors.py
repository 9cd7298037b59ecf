"""Binder's two doors (issue 17): the learners' link opens answer-free copies, the teacher's link the whole lessons.

``binder/postBuild`` runs at Binder's build time, from the repository root, after the kit is installed.
Here it runs the same way (``bash binder/postBuild`` in a clone of the tracked files, this venv's
``safari-kit`` first on PATH); then every Binder link of README.md must open a file the build made, the
learners' link a folder of copies that give no exercise's answer away (the leak detector of
tests/teaching/test_answer_leak.py, and no solution or teacher cell), the teacher's link a folder of the
whole lessons (a control: the same checks find the answers there). tests/binder/test_binder_env.py runs
postBuild again in an environment built from binder/requirements.txt alone and executes the copies.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from safari_kit.authoring.answer_leaks import find_leaks
from safari_kit.authoring.student import TEACHER_ONLY
from tests.make_lab import REPO, changed_tracked, git, tracked_clone

BINDER_LINK = re.compile(r"\[!\[([^\]]*)\]\([^)]*\)\]\((https://mybinder\.org/v2/gh/[^)\s]+)\)")
LESSONS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))


def binder_links(readme: str) -> dict[str, str]:
    """{badge text: urlpath} of every Binder badge in ``readme``."""
    links = {}
    for label, url in BINDER_LINK.findall(readme):
        links[label] = parse_qs(urlparse(url).query)["urlpath"][0]
    return links


def answers_given(nb: dict, name: str) -> list[str]:
    """What in a notebook gives answers away: the detector's finds, solution or teacher cells, teacher text."""
    found = [str(leak) for leak in find_leaks(nb, name, recaps=True)]
    for i, cell in enumerate(nb["cells"]):
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & {"solution", "teacher"}:
            found.append(f"{name} cell {i + 1}: tagged {sorted(tags)}")
        if cell["cell_type"] == "markdown" and TEACHER_ONLY.search(source):
            found.append(f"{name} cell {i + 1}: teacher text {TEACHER_ONLY.search(source).group(0)!r}")
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A clone of the kit after Binder's postBuild (run with this venv's safari-kit)."""
    root = tracked_clone(tmp_path_factory.mktemp("binder-build"))
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = subprocess.run(["bash", "binder/postBuild"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, f"binder/postBuild failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return root


def test_postbuild_is_an_executable_script_that_stops_on_errors():
    mode = git(REPO, "ls-files", "-s", "binder/postBuild").split()[0]
    assert mode == "100755", "repo2docker runs binder/postBuild only if it is executable (git mode 100755)"
    lines = [ln for ln in (REPO / "binder" / "postBuild").read_text().splitlines() if ln.strip()]
    assert lines[0].startswith("#!") and "set -euo pipefail" in lines


def test_readme_gives_a_learners_link_and_a_teachers_link():
    links = binder_links((REPO / "README.md").read_text(encoding="utf-8"))
    learners = [path for label, path in links.items() if "learner" in label.lower()]
    assert learners == ["lab/tree/student/00-start-here.ipynb"], links
    assert "lab/tree/my-lessons/00-start-here.ipynb" in links.values(), links
    assert not [p for p in links.values() if p.startswith("lab/tree/notebooks/")], \
        f"a Binder link opens the kit's own notebooks/ (the jupytext pairs, solutions in): {links}"


def test_every_binder_link_opens_a_file_the_build_made(built):
    for label, urlpath in binder_links((built / "README.md").read_text(encoding="utf-8")).items():
        kind, _, path = urlpath.partition("/")
        if kind == "lab":
            path = path.removeprefix("tree/")
        elif kind == "voila":
            path = path.removeprefix("render/")
        assert (built / path).is_file(), f"the {label!r} link opens {path}, which Binder's build does not have"


def test_the_learners_door_is_answer_free(built):
    student = built / "student"
    assert sorted(p.name for p in student.glob("*.ipynb")) == LESSONS
    problems = []
    for path in sorted(student.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        problems += answers_given(nb, path.name)
        assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), path.name
        assert "jupytext" not in nb["metadata"], f"{path.name} would be paired (an .md beside it) when saved"
    assert not problems, "\n".join(problems)
    # the links to the rules inside the lessons work from student/ (the docs are copied beside them)
    assert (student / "docs" / "rules.md").is_file()
    assert changed_tracked(built) == [], "Binder's build changed a file of the kit"


def test_control_the_teachers_door_holds_the_answers(built):
    """The same checks on my-lessons/ (every cell): they find the answers, so a clean student/ means something."""
    teacher = built / "my-lessons"
    assert sorted(p.name for p in teacher.glob("*.ipynb")) == LESSONS
    found = {path.name: answers_given(json.loads(path.read_text(encoding="utf-8")), path.name)
             for path in teacher.glob("[0-9][0-9]-*.ipynb")}
    assert all(found[name] for name in found if not name.startswith("00")), \
        [name for name, f in found.items() if not f]
