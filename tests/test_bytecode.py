"""The kit's make commands let Python keep bytecode, also where the environment says not to (issue 28).

With PYTHONDONTWRITEBYTECODE set, every process compiles every module it imports again: on a fresh clone, whose
venv pip installs without bytecode (``--no-compile``), a kernel's first imports cost 2.0 CPU-s instead of 0.8.
And ``make test`` collects once before its four workers start, so they read the compiled (and assertion-rewritten)
test modules instead of each writing them at the same time: 22 CPU-s a worker on a fresh clone, 6 cached.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
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


def _started_at() -> float:
    """When this process started, in seconds since the epoch (Linux's /proc)."""
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    since_boot = int(fields[19]) / os.sysconf("SC_CLK_TCK")
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return time.time() - uptime + since_boot


@pytest.mark.skipif(os.environ.get("SAFARI_TEST_COLLECTED_FIRST") != "1" or not Path("/proc/uptime").exists(),
                    reason="make test's workers after its first collection (Linux)")
def test_make_tests_workers_find_this_module_compiled_before_they_started():
    """On a fresh clone, without the first collection, the worker that imports this file writes its rewritten
    bytecode itself: after the worker started, and this fails."""
    cached = list((Path(__file__).parent / "__pycache__").glob(f"{Path(__file__).stem}.*-pytest-*.pyc"))
    assert cached, "no assertion-rewritten bytecode of this file in tests/__pycache__"
    started = _started_at()
    assert min(p.stat().st_mtime for p in cached) < started, (cached, started)
