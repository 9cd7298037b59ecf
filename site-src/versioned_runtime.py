"""Give the site's Python runtime a folder named by its content, so a learner's browser keeps it without asking.

The runtime (``static/pyodide/``: Pyodide's core files, the lock and some thirty wheels) is the bulk of what the
app page loads, and none of its names carries a content hash: Pyodide asks for ``pyodide.asm.wasm`` and the
kit's wheel keeps its name (``safari_kit-0.1.0-py3-none-any.whl``) from build to build. Served ``no-cache``
(site-src/serve_site.py), every return visit asks for each again and waits for a ``304``; served with no
header at all (``python -m http.server``), the browser guesses, so a freshly republished site is asked again
file by file, an old one not at all, and a republished kit may be hidden behind a guess.

After the build the folder becomes ``static/pyodide-<hash>/``, the hash a digest of every file in it (names and
contents), and every page and config that names the folder is rewritten. A server may then keep such a
folder's files for a year without revalidation (serve_site.py's ``immutable``): a republished site with a new
kit wheel, a new lock or a new Pyodide has a new folder name, which the pages (always revalidated) name, so it
reaches every learner at their next visit; a republished site whose runtime did not change keeps the name, and
learners download nothing again.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

RUNTIME = "static/pyodide"
#: Voici's own scripts: ``voici.js`` and some eighty chunks named by number (``1043.js``), not by content
VOICI_BUILD = "voici/build"
#: a quoted relative path in a Voici page (``"../../build/voici.js"``, ``"../../build"``)
RELATIVE = re.compile(r'"((?:\.\./|\./)+[^"]*)"')
#: a folder named by its content: ``pyodide-3f9a2c1d7e0b`` (serve_site.py matches the same shape)
VERSIONED = re.compile(r"^[A-Za-z0-9_.]+-[0-9a-f]{12}$")


def folder_digest(folder: Path) -> str:
    """12 hex digits of a SHA-256 over every file's path (relative) and contents, in a fixed order. A gzip copy
    beside its file (``pyodide.asm.wasm.gz``: site-src/precompress.py, written after the folder is named) is the
    same content and does not count."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not _gzip_copy(p)):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:12]


def _gzip_copy(path: Path) -> bool:
    return path.name.endswith(".gz") and path.with_name(path.name[:-3]).is_file()


def runtime_folder(site: Path) -> Path:
    """The runtime folder of a built site (``static/pyodide-<hash>``; ``static/pyodide`` in older builds)."""
    found = sorted(p for p in (site / "static").glob("pyodide*")
                   if p.is_dir() and (p.name == "pyodide" or VERSIONED.match(p.name)))
    if len(found) != 1:
        raise FileNotFoundError(f"{site}: expected one Pyodide runtime folder in static/, found "
                                f"{[p.name for p in found] or 'none'} (build the site with `make site`)")
    return found[0]


def version_runtime(out: Path) -> str:
    """Rename ``out/static/pyodide`` to ``static/pyodide-<hash>`` and point every page and config at it.

    Returns the new folder's path relative to ``out``. Stops the build (SystemExit) when nothing names the
    folder: the kernel would look for its runtime where there is none."""
    source = out / RUNTIME
    if not (source / "pyodide-lock.json").is_file():
        raise SystemExit(f"{source}: no pyodide-lock.json; version_runtime runs after the runtime is written")
    target = f"{RUNTIME}-{folder_digest(source)}"
    shutil.rmtree(out / target, ignore_errors=True)
    source.rename(out / target)
    renamed = 0
    for path in [*out.rglob("*.html"), *out.rglob("jupyter-lite.json")]:
        text = path.read_text(encoding="utf-8")
        if f"{RUNTIME}/" in text:
            path.write_text(text.replace(f"{RUNTIME}/", f"{target}/"), encoding="utf-8")
            renamed += 1
    if not renamed:
        raise SystemExit(f"no page or config names {RUNTIME}/: the kernel settings changed? (site-src/build_site.py)")
    return target


def version_voici_build(out: Path) -> str:
    """Rename ``out/voici/build`` to ``voici/build-<hash>`` and rewrite the Voici pages' paths to it.

    Voici's pages name the folder relatively (``"../../build/voici.js"``, ``fullStaticUrl`` ``"../../build"``,
    from which its scripts load their chunks); only paths that lead to that folder change (``"./build/themes"``
    and ``"../../../build/schemas"`` are JupyterLite's). Returns the new path relative to ``out``."""
    source = out / VOICI_BUILD
    if not (source / "voici.js").is_file():
        raise SystemExit(f"{source}: no voici.js (Voici's build layout changed?)")
    target = out / f"{VOICI_BUILD}-{folder_digest(source)}"
    shutil.rmtree(target, ignore_errors=True)
    source.rename(target)
    renamed = 0
    for page in (out / "voici").rglob("*.html"):
        if target in page.parents:
            continue

        def move(m: re.Match) -> str:
            nonlocal renamed
            ref = m.group(1)
            resolved = Path(os.path.normpath(page.parent / ref))
            if resolved != source and source not in resolved.parents:
                return m.group(0)
            renamed += 1
            new = (target / resolved.relative_to(source)).as_posix() if resolved != source else target.as_posix()
            tail = "/" if ref.endswith("/") else ""
            return '"' + os.path.relpath(new, page.parent).replace(os.sep, "/") + tail + '"'

        text = page.read_text(encoding="utf-8")
        new = RELATIVE.sub(move, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
    if not renamed:
        raise SystemExit(f"no Voici page names {VOICI_BUILD}/: Voici's page template changed? (site-src/build_site.py)")
    return target.relative_to(out).as_posix()
