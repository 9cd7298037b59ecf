"""The kit's make commands let Python keep bytecode, also where the environment says not to (issue 28).

With PYTHONDONTWRITEBYTECODE set, every process compiles every module it imports again: on a fresh clone, whose
venv pip installs without bytecode (``--no-compile``), a kernel's first imports cost 2.0 CPU-s instead of 0.8.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHOW = 'show-bytecode-setting: ; @echo "[$$PYTHONDONTWRITEBYTECODE]"'


def _make_sees(env: dict[str, str]) -> str:
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    proc = subprocess.run(["make", "-s", "-f", str(REPO / "Makefile"), "--eval", SHOW, "show-bytecode-setting"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_make_unsets_pythondontwritebytecode_for_its_commands():
    assert _make_sees({**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}) == "[]"


def test_control_the_variable_reaches_a_command_without_the_makefile_line(tmp_path):
    plain = tmp_path / "Makefile"
    plain.write_text("\\n".join(line for line in (REPO / "Makefile").read_text().splitlines()
                               if line.strip() != "unexport PYTHONDONTWRITEBYTECODE"))
    proc = subprocess.run(["make", "-s", "-f", str(plain), "--eval", SHOW, "show-bytecode-setting"], cwd=REPO,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.strip() == "[1]", proc.stderr


@pytest.mark.skipif("MAKELEVEL" not in os.environ, reason="run by make (make test, make check)")
def test_the_tests_run_by_make_write_bytecode():
    assert not sys.dont_write_bytecode
