"""Binder's environment, rebuilt without Docker, runs every notebook.

A fresh virtual environment is built from ``binder/requirements.txt`` alone
(pip run from the repository root, as repo2docker does, so ``-e .`` installs
the kit), preferably on Python 3.12 as ``binder/runtime.txt`` asks. Then, with
that environment's own nbclient and ipykernel (nothing from the development
venv), a probe notebook imports what the lessons rely on, and every lesson
Binder's ``binder/postBuild`` builds into the teacher's ``my-lessons/`` is executed
top to bottom; the learners' ``student/`` (README's other link) holds the same lessons
less the answers and the teachers' notes, so it needs nothing more: it is checked to
be there, and tests/browser/test_learner_lessons_browser.py runs each of its lessons
in JupyterLab (issue 28: each lesson run once per purpose). A dependency the
notebooks use but Binder lacks fails here. The lessons it ran are also the run that
tests/notebooks/test_run_notebooks.py checks for errors and printed tracebacks, in the
same process (tests/notebooks/lesson_runs.py; tests/conftest.py keeps the two files on
one pytest-xdist worker, this one first).

Uses pip's cache; the first run downloads the wheels (about a minute on a fast
link), later runs take about a minute on 2 cores plus the notebooks' own time.
A venv whose run passed is kept outside the repository and reused by later runs
while nothing it was built from changed (``binder_venv``: its key, its age limit,
``SAFARI_KIT_FRESH_BINDER=1``); a fresh clone on a new machine builds it from nothing.
"""
from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path

import nbformat
import pytest

from tests.make_lab import tracked_clone
from tests.notebooks import lesson_runs

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
REQUIREMENTS = REPO / "binder" / "requirements.txt"
NOTEBOOKS = REPO / "notebooks"
#: a kept Binder venv is built again after this many days
BINDER_VENV_DAYS = 7

PROBE = """\
import os, sys, importlib.metadata as md
import safari_kit, anywidget, ipywidgets, pandas, numpy, matplotlib, matplotlib.pyplot, jupytext
import IPython.display
assert os.path.realpath(sys.prefix) == os.path.realpath({prefix!r}), (sys.prefix, {prefix!r})
assert os.path.realpath(safari_kit.__file__).startswith(os.path.realpath({repo!r})), safari_kit.__file__
print({{n: md.version(n) for n in ["jupyterlab", "ipywidgets", "anywidget", "pandas",
                                   "numpy", "matplotlib", "ipykernel", "voila", "jupytext"]}})
"""

NODELAY_CHECK = """\
import os, sys
from jupyter_core.paths import jupyter_config_path
from jupyter_server.extension.config import ExtensionConfigManager
import safari_kit.server
f = os.path.join(sys.prefix, "etc", "jupyter", "jupyter_server_config.d", "safari_kit.json")
assert os.path.exists(f), f + " is missing"
assert os.path.join(sys.prefix, "etc", "jupyter") in jupyter_config_path(), jupyter_config_path()
on = ExtensionConfigManager(read_config_path=jupyter_config_path()).get_jpserver_extensions()
assert on.get("safari_kit.server") is True, on
"""

RUNNER = textwrap.dedent("""\
    # Runs inside the Binder venv: execute notebooks with its own nbclient/ipykernel.
    import json, sys, time, traceback
    from pathlib import Path
    import nbformat
    from nbclient import NotebookClient
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    results = {"kernel_argv": spec.argv, "python": sys.version, "notebooks": []}
    probe, out, paths = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    jobs = [("<probe>", nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(probe)]), Path.cwd())]
    for p in paths:
        jobs.append((p, nbformat.read(p, as_version=4), Path(p).parent))
    for name, nb, cwd in jobs:
        t0 = time.perf_counter()
        entry = {"notebook": name, "ok": True}
        try:
            NotebookClient(nb, timeout=600, kernel_name="python3",
                           resources={"metadata": {"path": str(cwd)}}).execute()
        except Exception as exc:  # CellExecutionError, DeadKernelError, timeouts
            entry["ok"] = False
            entry["error"] = "".join(traceback.format_exception_only(type(exc), exc))[-4000:]
        entry["seconds"] = round(time.perf_counter() - t0, 1)
        if name != "<probe>" and entry["ok"]:  # its outputs, for tests/notebooks/test_run_notebooks.py's checks
            nbformat.write(nb, out / Path(name).name)
        if name == "<probe>":
            entry["stdout"] = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", [])
                                      if o.get("output_type") == "stream")
        results["notebooks"].append(entry)
    print("RESULTS " + json.dumps(results))
""")


def _python_for_binder() -> str:
    """A Python 3.12 (binder/runtime.txt) if this machine has one, else this one (3.11+)."""
    candidates = [shutil.which("python3.12"),
                  *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12"))),
                  "/usr/local/bin/python3.12", "/usr/bin/python3.12"]
    for cand in filter(None, candidates):
        try:
            ok = subprocess.run([cand, "-c", "import sys, venv, ensurepip; sys.exit(sys.version_info[:2] != (3, 12))"],
                                capture_output=True, timeout=30).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return cand
    return sys.executable


def _notebooks() -> list[Path]:
    return sorted(p for p in NOTEBOOKS.glob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _run(cmd, *, env, cwd, timeout, what):
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{what} failed (rc={proc.returncode}):\n{proc.stdout[-6000:]}\n{proc.stderr[-6000:]}"
    return proc


def _cache_key(base_python: str) -> str:
    """What a fresh Binder venv depends on: the pinned lists, the kit's own dependencies (``-e .``), the Python."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    version = subprocess.run([base_python, "-c", "import sys; print(sys.version)"], capture_output=True,
                             text=True, timeout=30).stdout
    parts = [REQUIREMENTS.read_bytes(), (REPO / "binder" / "runtime.txt").read_bytes(),
             json.dumps([project.get("dependencies", []), project.get("requires-python")]).encode(),
             os.path.realpath(base_python).encode(), version.encode()]
    return hashlib.sha256(b"\0".join(parts)).hexdigest()[:16]


def cache_root() -> Path:
    """Where kept venvs live: ``$SAFARI_KIT_TEST_CACHE``, else ``~/.cache/safari-kit-tests`` (not in the repo)."""
    return Path(os.environ.get("SAFARI_KIT_TEST_CACHE") or Path.home() / ".cache" / "safari-kit-tests")


def _freeze(py: Path) -> str:
    proc = subprocess.run([str(py), "-m", "pip", "freeze", "--all", "--exclude-editable"], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    return proc.stdout if proc.returncode == 0 else ""


@pytest.fixture
def binder_venv(tmp_path, request):
    """The venv the test installs binder/requirements.txt into: a new one, or the one an earlier run left.

    Building it is most of the test's install time (issue 28), so a venv whose install passed is kept in
    ``$SAFARI_KIT_TEST_CACHE`` (default ``~/.cache/safari-kit-tests``), outside the repository, under a key
    of everything a fresh one depends on (binder/requirements.txt, runtime.txt, the kit's dependencies, the
    Python), for at most ``BINDER_VENV_DAYS`` days (a fresh one may get newer patch releases of the pins).
    It is reused only if ``pip freeze`` still lists exactly what it listed when kept; the test still runs
    ``pip install -r`` into it (which reinstalls ``-e .`` from this checkout). A fresh clone on a new machine
    has no cache, so its first run builds the venv from nothing; ``SAFARI_KIT_FRESH_BINDER=1`` always does.
    """
    base_python = _python_for_binder()
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    cached = root / f"binder-venv-{_cache_key(base_python)}"
    marker = cached / "kept-after-a-passing-run.txt"
    with open(root / "binder-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two suites at once: one at a time in the cached venv
        fresh = os.environ.get("SAFARI_KIT_FRESH_BINDER", "") not in ("", "0")
        fresh = fresh or not marker.exists() or time.time() - marker.stat().st_mtime > BINDER_VENV_DAYS * 86400
        if not fresh and marker.read_text(encoding="utf-8") != _freeze(cached / "bin" / "python"):
            fresh = True  # changed since it was kept: build it again
        if fresh:
            shutil.rmtree(cached, ignore_errors=True)
            subprocess.run([base_python, "-m", "venv", str(cached)], check=True, timeout=120)
        failed = request.session.testsfailed
        yield cached
        if request.session.testsfailed == failed:
            if fresh or not marker.exists():
                marker.write_text(_freeze(cached / "bin" / "python"), encoding="utf-8")
        else:
            shutil.rmtree(cached, ignore_errors=True)  # no venv of a failed run is reused


def test_binder_requirements_alone_run_every_notebook(tmp_path, binder_venv):
    venv = binder_venv
    t0 = time.perf_counter()
    py = venv / "bin" / "python"

    # An environment that sees nothing of the development venv or the user's
    # Jupyter setup (kernelspecs, config, user site-packages).
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "PYTHONHOME", "JUPYTER_PATH", "JUPYTER_CONFIG_PATH",
                        "VIRTUAL_ENV", "PYTHONSTARTUP"}}
    env.update(VIRTUAL_ENV=str(venv), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               PYTHONNOUSERSITE="1", JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"),
               IPYTHONDIR=str(tmp_path / "ipython"), MPLBACKEND="Agg",
               PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_PROGRESS_BAR="off")

    # --no-compile: bytecode only for what the notebooks import (issue 28; Binder's own build compiles it all)
    _run([str(py), "-m", "pip", "install", "-q", "--no-compile", "-r", str(REQUIREMENTS.relative_to(REPO))],
         env=env, cwd=REPO, timeout=900, what="pip install -r binder/requirements.txt")
    t_install = time.perf_counter() - t0

    # ipykernel is in the requirements; register its kernelspec inside the venv
    # so the kernel nbclient starts is this venv's Python, whatever else is on the machine.
    _run([str(py), "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"],
         env=env, cwd=tmp_path, timeout=120, what="ipykernel install --sys-prefix")

    # Nagle off (safari_kit.server, README "Quick clicks"): `-e .` put the extension's config
    # where this environment's Jupyter server reads it, and the extension imports.
    _run([str(py), "-c", NODELAY_CHECK], env=env, cwd=tmp_path, timeout=120,
         what="safari_kit.server enabled in the Binder environment")

    # Binder's build step (binder/postBuild) in a clone of the kit, with this environment's safari-kit:
    # the folders the README's two links open, the teacher's copies and the learners'. The teacher's are
    # run below (tests/binder/test_binder_doors.py checks that student/ gives no answer away).
    clone = tmp_path / "kit"
    clone.mkdir()
    tracked_clone(clone)
    _run(["bash", "binder/postBuild"], env=env, cwd=clone, timeout=300, what="binder/postBuild")
    notebooks = sorted((clone / "my-lessons").glob("*.ipynb"))
    learners = sorted((clone / "student").glob("*.ipynb"))
    assert [p.name for p in notebooks] == [p.name for p in learners] == [p.name for p in _notebooks()], \
        (notebooks, learners)

    runner = tmp_path / "run_notebooks.py"
    runner.write_text(RUNNER, encoding="utf-8")
    probe = PROBE.format(prefix=str(venv), repo=str(REPO))
    ran = tmp_path / "executed"
    ran.mkdir()
    proc = subprocess.run([str(py), str(runner), probe, str(ran), *map(str, notebooks)],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    marker = [line for line in proc.stdout.splitlines() if line.startswith("RESULTS ")]
    assert proc.returncode == 0 and marker, f"runner failed:\n{proc.stdout[-6000:]}\n{proc.stderr[-6000:]}"
    results = json.loads(marker[-1][len("RESULTS "):])

    kernel_python = results["kernel_argv"][0]
    assert kernel_python in {"python", "python3", str(py)} or kernel_python.startswith(str(venv)), \
        results["kernel_argv"]
    # each lesson this venv ran without an error, for test_run_notebooks.py's checks of its outputs in this
    # process (tests/notebooks/lesson_runs.py: one execution of each lesson a run, not one per test file)
    python = results["python"].split()[0]
    for entry in results["notebooks"][1:]:
        if entry["ok"]:
            name = Path(entry["notebook"]).name
            lesson_runs.record(name, nbformat.read(ran / name, as_version=4),
                               f"the Binder venv's kernel (Python {python}, tests/binder/test_binder_env.py)")

    summary = "\n".join(f"  {e['notebook'].replace(str(clone) + '/', '')}: "
                        f"{'ok' if e['ok'] else 'FAILED'} ({e['seconds']} s)"
                        for e in results["notebooks"])
    print(f"\nBinder venv on {results['python'].split()[0]}: install {t_install:.0f} s\n{summary}")
    probe_entry = results["notebooks"][0]
    assert probe_entry["ok"], f"the Binder environment lacks something the kit needs:\n{probe_entry.get('error')}"
    print("  versions:", probe_entry["stdout"].strip())
    failed = [e for e in results["notebooks"][1:] if not e["ok"]]
    assert not failed, "notebooks fail in the Binder environment:\n" + "\n\n".join(
        f"{e['notebook']}:\n{e['error']}" for e in failed)
