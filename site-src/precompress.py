"""Gzip copies of the site's scripts, pages and Python runtime, for servers that send precompressed files.

Why (issue 31, a first visit on a school network): a learner's first visit to the app page downloaded 33 MB,
and a class of 30 downloads it 30 times over the school's network at once. The snapshot already had a gzip copy
(site-src/snapshot.py: 36 -> 11.5 MB); Pyodide's runtime (``pyodide.asm.wasm``, 8.6 MB) and the scripts and
pages were sent as they are, though they shrink to about a third. ``make site`` now writes ``<file>.gz`` beside
each of them. ``python3 site/serve.py`` sends the ``.gz`` to every browser that accepts gzip (all do), with the
original's type; nginx does the same with ``gzip_static on``; Apache needs a few lines (docs/teachers.md). A
server that knows none of this sends the originals, as before.

Only build outputs nobody edits by hand: scripts, style sheets, pages, pictures in SVG and WebAssembly. Not the
lessons (``.ipynb``), ``jupyter-lite.json`` or the wheels and zips (compressed already). A ``.gz`` goes stale if
its original is edited afterwards: serve.py then sends the original (it sends a ``.gz`` only when it is not
older); on nginx, delete the ``.gz`` of a file you edit, or build again.

The copies are reproducible (no time stamp or name inside): two builds of the same files give the same bytes.

>>> import tempfile, pathlib
>>> site = pathlib.Path(tempfile.mkdtemp())
>>> _ = (site / "app.js").write_text("let x = 1;\\n" * 500)
>>> _ = (site / "tiny.js").write_text("let y;")
>>> precompress(site)
(1, 5500, 62)
>>> sorted(p.name for p in site.iterdir())
['app.js', 'app.js.gz', 'tiny.js']
"""
from __future__ import annotations

import gzip
import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

#: the kinds of file that get a gzip copy: build outputs that shrink (never edited by a teacher)
SUFFIXES = (".js", ".mjs", ".wasm", ".css", ".html", ".svg")
#: smaller files are sent as they are (a gzip copy saves less than a request's headers)
MIN_BYTES = 1024
#: a copy is kept only when it is at most this share of the original
MAX_RATIO = 0.9
LEVEL = 6


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzip-compressed at LEVEL, with no time stamp and no file name in the header (reproducible)."""
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", compresslevel=LEVEL, fileobj=out, mtime=0) as f:
        f.write(data)
    return out.getvalue()


def _one(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    packed = gzip_bytes(data)
    if len(packed) > MAX_RATIO * len(data):
        return 0, 0
    Path(f"{path}.gz").write_bytes(packed)
    return len(data), len(packed)


def precompress(site: Path, workers: int = 2) -> tuple[int, int, int]:
    """Write ``<file>.gz`` beside every file of ``site`` with one of SUFFIXES and at least MIN_BYTES that gzip
    shrinks to MAX_RATIO or less; first remove the ``.gz`` copies of such files that a copied build left. Returns
    (files compressed, their bytes, the copies' bytes). zlib lets go of Python's lock: ``workers`` threads."""
    for stale in site.rglob("*.gz"):
        if stale.name[:-3].endswith(SUFFIXES):
            stale.unlink()
    files = [p for p in site.rglob("*") if p.name.endswith(SUFFIXES) and p.is_file() and not p.is_symlink()
             and p.stat().st_size >= MIN_BYTES]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = [r for r in pool.map(_one, sorted(files)) if r[0]]
    return len(done), sum(r[0] for r in done), sum(r[1] for r in done)
