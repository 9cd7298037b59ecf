"""The Makefile's venvs (issue 28, session 14): pip puts uv in the venv and uv installs the rest, or pip alone with
``INSTALLER=pip``. Read from ``make -n`` (what make would run, nothing run), so a recipe that splits the extras
(make's ``$(call ...)`` cuts its arguments at commas) or loses a step fails here, not on a teacher's laptop."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _dry_run(target: str, *settings: str) -> list[str]:
    proc = subprocess.run(["make", "--no-print-directory", "-n", "-B", target, *settings], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def _kit(*settings: str) -> list[str]:
    return _dry_run("/tmp/safari-recipe-venv/.installed", "VENV=/tmp/safari-recipe-venv", *settings)


def test_the_kits_venv_is_installed_by_uv_with_its_extras_whole():
    lines = _kit()
    install = [line for line in lines if "uv pip install" in line]
    assert len(install) == 1, lines
    assert install[0].startswith("/tmp/safari-recipe-venv/bin/python -m pip install --quiet --no-compile 'uv"), install
    assert "--python /tmp/safari-recipe-venv/bin/python pip -e '.[lab,test]'" in install[0], install
    assert lines[-1] == "touch /tmp/safari-recipe-venv/.installed", lines


def test_installer_pip_installs_with_pip_alone():
    lines = _kit("INSTALLER=pip")
    assert not [line for line in lines if "uv" in line.split()], lines
    assert any(line.endswith("-m pip install --quiet --no-compile -e '.[lab,test]'") for line in lines), lines


def test_the_site_build_venv_is_installed_the_same_way_and_loses_the_iri_grammars():
    lines = _dry_run("/tmp/safari-recipe-site/.installed", "SITE_VENV=/tmp/safari-recipe-site")
    assert any("uv pip install --quiet --python /tmp/safari-recipe-site/bin/python pip -r site-src/requirements.txt"
               in line for line in lines), lines
    assert any(line.endswith("pip uninstall --quiet --yes rfc3987-syntax") for line in lines), lines
