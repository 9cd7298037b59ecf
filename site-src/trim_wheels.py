"""Wheels trimmed of what the browser kernel never reads (issue 18, item 3). Build time only.

Why: every visit, the kernel's worker unpacks each start-up wheel file by file (Pyodide's package loader:
Python's ``zipfile`` in WebAssembly), so files no import ever reads still cost CPU on every visit; at a quarter
of a core the start-up wheels' unpacking took about 7 s (tools/profile_site_kernel.py). The biggest of them:

* pygments' 260 lexer modules (4 MB): the kernel uses only the Python lexers (IPython's tracebacks and ``?``),
  and ipython_pygments_lexers imports a few others; ``PYGMENTS_LEXERS`` keeps those and what they import
  (found by importing them: tests/test_site_trim_wheels.py checks the kept set still imports);
* anywidget's bundled JavaScript (1.1 MB, in the wheel for Jupyter servers to serve): the site serves
  anywidget's front end from its own labextensions folder, never from the kernel's files;
* ``tests`` folders;
* the kit's lessons in its own wheel (``safari_kit/data/lessons/``, for ``safari-kit lessons`` on a server).

The wheel's RECORD is rewritten for the files kept. A rule that removes nothing from the wheel it names stops
the build (the wheel changed: update this list), so a rule cannot silently stop working.
"""
from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

from kernel_startup import _fix_record

#: pygments.lexers modules kept: the Python lexers and what IPython's own lexers (ipython_pygments_lexers:
#: bash, html, javascript, ruby, perl, tex) import; ``special`` holds the plain-text lexer pygments falls back on
PYGMENTS_LEXERS = {"__init__", "_mapping", "python", "special", "shell", "html", "javascript", "ruby", "perl",
                   "markup", "css", "data", "jvm", "lilypond", "lisp", "_css_builtins", "_lilypond_builtins",
                   "_scheme_builtins"}
_LEXER = re.compile(r"pygments/lexers/(?:__pycache__/)?([A-Za-z0-9_]+)\.(?:py|cpython-\d+\.pyc)$")


def _pygments_unused(name: str) -> bool:
    m = _LEXER.match(name)
    return bool(m) and m.group(1) not in PYGMENTS_LEXERS


def _anywidget_bundles(name: str) -> bool:
    return name.startswith(("anywidget/labextension/", "anywidget/nbextension/")) or \
        re.match(r"anywidget-[^/]+\.data/", name) is not None


def _tests(name: str) -> bool:
    return "/tests/" in f"/{name}" and ".dist-info/" not in name


def _kit_lessons(name: str) -> bool:
    """The kit's lessons as its wheel carries them for ``safari-kit lessons`` on a server (issue 29): the site
    serves its own copies of the lessons as files, and no import reads these."""
    return name.startswith("safari_kit/data/lessons/")


#: (distribution, what its wheel does without); ``tests`` applies to every wheel (none is required to have one)
RULES = {"pygments": _pygments_unused, "anywidget": _anywidget_bundles, "safari-kit": _kit_lessons}


def trim_wheel(wheel: Path, dist: str, out: Path) -> tuple[Path, int, int]:
    """A copy of ``wheel`` (distribution ``dist``) in ``out`` without the files the kernel never reads;
    returns (the copy, files dropped, bytes dropped uncompressed)."""
    rule = RULES.get(dist)
    with zipfile.ZipFile(wheel) as zin:
        infos = zin.infolist()
        drop = [i for i in infos if _tests(i.filename) or (rule is not None and rule(i.filename))]
        if rule is not None and not any(rule(i.filename) for i in infos):
            sys.exit(f"{wheel.name}: trimming found none of the files it drops for {dist} (the wheel changed?): "
                     "update site-src/trim_wheels.py")
        if not drop:
            return wheel, 0, 0
        out.mkdir(parents=True, exist_ok=True)
        target = out / wheel.name
        dropped = {i.filename for i in drop}
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in infos:
                if info.filename not in dropped:
                    zout.writestr(info, zin.read(info))
    _fix_record(target)
    return target, len(drop), sum(i.file_size for i in drop)
