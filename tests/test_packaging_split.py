"""The wheel carries issue 28's split of ``safari_kit.teaching``: each new package, the teacher's page template
(read from the installed package by ``safari_kit.class_results.teacher_page``) and the old paths' finder.

Built once with pip, as tests/test_packaging.py does (its fixture). A wheel without the template would start
the class server and fail at the teacher's first look; without ``teaching/_moved.py`` an old import path typed
in a learner's notebook would fail instead of warning.
"""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from tests.test_packaging import wheel  # noqa: F401  (the fixture: the wheel, built once)


@pytest.mark.slow
def test_the_wheel_carries_the_new_packages_the_template_and_the_old_paths(wheel):  # noqa: F811
    _repo, path = wheel
    names = set(zipfile.ZipFile(path).namelist())
    assert {f"safari_kit/{package}/__init__.py" for package in ("authoring", "class_results", "tutorial")} <= names
    assert "safari_kit/class_results/templates/teacher_page.html.j2" in names
    assert "safari_kit/teaching/_moved.py" in names
    assert not [n for n in names if n.startswith("safari_kit/teaching/") and n.split("/")[2].startswith(
        ("class_", "results_", "tutorial", "student", "learner_rules"))], "a moved module is shipped twice"


@pytest.mark.slow
def test_an_old_path_imports_from_the_installed_wheel(wheel, tmp_path):  # noqa: F811
    _repo, whl = wheel
    site = tmp_path / "site"
    zipfile.ZipFile(whl).extractall(site)
    code = ("import warnings\nwarnings.simplefilter('error')\n"
            "from safari_kit.teaching import check\n"
            "warnings.simplefilter('ignore')\n"
            "from safari_kit.teaching import rulebook\nprint(rulebook.__name__, rulebook.__file__)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    name, file = proc.stdout.split()
    assert name == "safari_kit.tutorial.rulebook" and file.startswith(str(site)), proc.stdout
