"""Precompiled Python for the static site's browser kernel (issue 18, item 3), at build time.

Why: the wheels from PyPI (and the npm package's standard library) hold only ``.py`` sources, so the browser
kernel compiled every module it imports (IPython, ipywidgets, anywidget, the kit, much of the standard library)
on every visit: about half of the kernel's start-up. The build compiles them once, with the same interpreter
the browser runs (Pyodide of the site, in node: the bytecode must match that exact CPython build), into
**unchecked hash-based** ``.pyc`` files (PEP 552): the import system uses them without looking at the sources'
times, which unpacked wheels do not keep. The sources stay beside them, so tracebacks still show their lines.

* a wheel: ``pkg/__pycache__/mod.cpython-313.pyc`` for each ``pkg/mod.py`` (the place CPython's source loader
  looks), with the wheel's RECORD completed;
* the standard library zip: ``mod.pyc`` beside ``mod.py`` (the place zipimport looks).

Only what a start-up imports is compiled (site-src/precompile_in_pyodide.py says why).
``precompile(jobs, pyodide_dir, work, warm, every)`` runs node once for all of them; it needs node
(``make site OFFLINE=1`` already needs npm).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent
RUNNER = SRC / "precompile.mjs"
IN_PYODIDE = SRC / "precompile_in_pyodide.py"


def precompile(jobs: list[tuple[Path, Path, str]], pyodide_dir: Path, work: Path, warm: list[str],
               every: list[str]) -> str:
    """Compile ``(source archive, destination archive, "wheel" | "stdlib")`` jobs with the site's Pyodide: the
    modules that importing ``warm`` loads, and all of the packages ``every``. Returns node's report."""
    if not shutil.which("node"):
        sys.exit("precompiling the site's Python needs node (apt-get install nodejs)")
    shutil.rmtree(work, ignore_errors=True)
    (work / "in").mkdir(parents=True)
    (work / "out").mkdir()
    listed = []
    for i, (src, dst, kind) in enumerate(jobs):
        name = f"{i:03d}-{src.name}"
        shutil.copy(src, work / "in" / name)
        listed.append({"name": name, "kind": kind})
    (work / "jobs.json").write_text(json.dumps({"jobs": listed, "warm": warm, "all": every}))
    proc = subprocess.run(["node", str(RUNNER), str(pyodide_dir / "pyodide.mjs"), str(work), str(IN_PYODIDE)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode:
        sys.exit(f"precompiling the site's Python failed (rc={proc.returncode}):\n{proc.stdout[-3000:]}")
    for (src, dst, _kind), job in zip(jobs, listed):
        out = work / "out" / job["name"]
        if not out.is_file():
            sys.exit(f"precompiling {src.name}: no output ({proc.stdout[-2000:]})")
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(out, dst)
    return proc.stdout
