"""The play path needs only the standard library, ipywidgets and anywidget (issue 13, part 1).

* ``test_every_lab_plays_in_a_venv_without_numpy_pandas_matplotlib``: a fresh
  virtual environment (``python -m venv``, no system site-packages) gets
  ipywidgets, anywidget and traitlets with their own dependencies, and the kit
  with ``--no-deps -e .`` (uv installs, as the Makefile does; pip where uv is
  not in the venv): no numpy, no pandas, no matplotlib.
  There ``tests/play_every_lab.py`` plays a whole game in every lab (the
  Identification, Challenge, Knockout and Full game labs, both rules
  tutorials, every lab of the app's chooser but the Simulation lab), computing
  every exact chance those labs show, and checks that the three are neither
  importable nor imported (the chooser's Simulation lab says in one sentence
  that it needs numpy). The installer runs as in ``tests/binder`` (its own
  configuration and cache, nothing of the development venv).
  The environment is kept in ``.test-venvs/`` (git-ignored), keyed by the
  Python, the repository's path and ``pyproject.toml``: the first run installs
  (a few seconds with uv, about half a minute with pip), later runs only play.
* ``test_importing_and_one_move_leave_numpy_pandas_matplotlib_unimported``:
  the same in this venv, in a subprocess: importing the kit and the labs, and
  playing one move in each game, imports none of them.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "tests" / "play_every_lab.py"
VENVS = REPO / ".test-venvs"
PLAY_PATH_PACKAGES = ["ipywidgets>=8.1", "anywidget>=0.9", "traitlets"]
HEAVY = ("numpy", "pandas", "matplotlib")


def _clean_env(venv: Path | None = None) -> dict:
    """The environment of ``tests/binder``: pip's own configuration, nothing of the development venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "JUPYTER_PATH",
                        "JUPYTER_CONFIG_PATH"}}
    env.update(PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_PROGRESS_BAR="off")
    if venv is not None:
        env.update(VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return env


def _base_python() -> str:
    """The Python this venv was made from (a venv of a venv would still be plain)."""
    return getattr(sys, "_base_executable", None) or sys.executable


def _uv() -> str | None:
    """The development venv's uv (the Makefile installs with it), else None: pip installs, as before (issue 28,
    session 14: this file 22.7 -> 5-6 CPU-s on a fresh clone). A venv uv made has no pip in it."""
    uv = Path(sys.executable).parent / "uv"
    return str(uv) if uv.is_file() else None


def _installed(py: str, env: dict) -> set[str]:
    """The names of the packages installed in the venv of ``py`` (uv's list, or pip's where uv is not here)."""
    uv = _uv()
    cmd = [uv, "pip", "list", "--python", py, "--format=json"] if uv else [py, "-m", "pip", "list", "--format=json"]
    listed = _run(cmd, env=env, cwd=REPO, timeout=120, what="list the installed packages")
    return {p["name"].lower() for p in json.loads(listed.stdout)}


def _key() -> str:
    words = json.dumps([sys.version, str(REPO), (REPO / "pyproject.toml").read_text(encoding="utf-8"),
                        PLAY_PATH_PACKAGES, "uv" if _uv() else "pip"])  # uv's venv has no pip to list it
    return hashlib.sha256(words.encode()).hexdigest()[:16]


def _run(cmd, *, env, cwd, timeout, what):
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{what} failed (rc={proc.returncode}):\n{proc.stdout[-6000:]}\n{proc.stderr[-6000:]}"
    return proc


def _stdlib_venv() -> Path:
    """A cached venv with the kit (no dependencies), ipywidgets, anywidget and traitlets."""
    venv = VENVS / f"play-path-{_key()}"
    ready = venv / "READY"
    if ready.exists():
        return venv
    VENVS.mkdir(exist_ok=True)
    building = VENVS / f"building-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    uv = _uv()
    subprocess.run([_base_python(), "-m", "venv", *(["--without-pip"] if uv else []), str(building)], check=True,
                   timeout=300)
    py = str(building / "bin" / "python")
    env = _clean_env(building)
    install = [uv, "pip", "install", "-q", "--python", py] if uv else [py, "-m", "pip", "install", "-q", "--no-compile"]
    _run([*install, *PLAY_PATH_PACKAGES], env=env, cwd=REPO, timeout=900,
         what="install " + " ".join(PLAY_PATH_PACKAGES))
    _run([*install, "--no-deps", "-e", "."], env=env, cwd=REPO, timeout=900, what="install --no-deps -e .")
    (building / "READY").write_text("ok\n", encoding="utf-8")
    try:
        building.rename(venv)  # python -m ... works from the new path (only the bin/ scripts' shebangs do not)
    except OSError:  # another run built it first: use that one
        shutil.rmtree(building, ignore_errors=True)
    return venv


@pytest.mark.slow
def test_every_lab_plays_in_a_venv_without_numpy_pandas_matplotlib():
    venv = _stdlib_venv()
    py = str(venv / "bin" / "python")
    env = _clean_env(venv)
    names = _installed(py, env)
    assert {"safari-kit", "safari_kit"} & names and {"ipywidgets", "anywidget", "traitlets"} <= names, names
    assert not names & set(HEAVY), f"the play-path venv must not hold {sorted(names & set(HEAVY))}"
    for name in HEAVY:
        probe = subprocess.run([py, "-c", f"import {name}"], env=env, cwd=REPO, capture_output=True, text=True,
                               timeout=60)
        assert probe.returncode != 0 and "ModuleNotFoundError" in probe.stderr, (name, probe.stderr[-500:])
    proc = _run([py, str(SCRIPT)], env=env, cwd=REPO, timeout=900, what="tests/play_every_lab.py")
    marker = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert marker, proc.stdout[-4000:]
    report = json.loads(marker[-1][len("RESULT "):])
    assert Path(report["kit"]).resolve().is_relative_to(REPO), report["kit"]  # this checkout, not a copy
    assert report["heavy_modules"] == []
    labs = {key.split("-")[0] for key in report}
    assert {"identification", "challenge", "knockout", "fullgame", "tutorial", "app"} <= labs, report
    # every lab of the chooser but the Simulation lab: 6 labs and the 2 rules pages (issue 27)
    assert len(report["app"]) == 8 and "Safari Witness: Rules of Safari Witness" in report["app"], report["app"]
    assert "needs numpy" in report["simulation_without_numpy"]  # which says so in one sentence, no traceback
    print("\nplay path without numpy/pandas/matplotlib:", json.dumps(report))


IMPORT_AND_MOVE = textwrap.dedent("""\
    import sys
    import safari_kit
    from safari_kit import WitnessGame, KnockoutGame, load_record
    from safari_kit.widgets.app import LabChooser
    from safari_kit.widgets.labs import (IdentificationLab, ChallengeLab, KnockoutLab, FullGameLab,
                                         RulesTutorial)
    w = WitnessGame(players=3).new_initial_state(seed=1)
    w.apply(w.legal_actions()[0])
    k = KnockoutGame(players=4).new_initial_state(seed=1)
    k.apply(k.legal_actions()[0])
    assert load_record(w.to_record()) == w and load_record(k.to_record()) == k
    lab = IdentificationLab(seed=4)
    lab.identify_button.click()
    ko = KnockoutLab(seed=1)
    ko.table.click = {"kind": "card", "id": ko.best.action.card, "seq": 1}
    ko.table.click = {"kind": "item", "id": ko.best.action.item, "seq": 2}
    ko.play_button.click()
    assert len(ko.history) >= 1 and lab.errors == [] and ko.errors == []
    ChallengeLab(); FullGameLab(seed=2); RulesTutorial("knockout"); LabChooser().open("Safari Witness", "Full game")
    print(sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "pandas", "matplotlib")))
""")


def test_importing_and_one_move_leave_numpy_pandas_matplotlib_unimported():
    proc = subprocess.run([sys.executable, "-c", IMPORT_AND_MOVE], cwd=REPO, capture_output=True, text=True,
                          timeout=300, env=_clean_env())
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout[-2000:]


NO_SQLITE = textwrap.dedent("""
    import sys

    class NoSqlite:  # Python in the browser (the static site's kernel) has no sqlite3 until it is loaded
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("sqlite3", "_sqlite3"):
                raise ImportError("no " + name + " in this Python")

    sys.meta_path.insert(0, NoSqlite())
    from safari_kit.widgets.app import LabChooser
    from safari_kit.widgets.class_join import JoinPanel

    chooser = LabChooser()
    chooser.open("Safari Witness", "Identification")
    panel = JoinPanel(from_env=False)
    assert panel.join("Zed") is not None  # joining without a class server keeps the records in the page
    print("ok")
""")


def test_the_app_and_joining_need_no_sqlite3():
    """The static site's app page failed to start when the join row imported the class store (sqlite3)."""
    proc = subprocess.run([sys.executable, "-c", NO_SQLITE], cwd=REPO, capture_output=True, text=True,
                          timeout=300, env=_clean_env())
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.strip().splitlines()[-1] == "ok", proc.stdout[-2000:]
