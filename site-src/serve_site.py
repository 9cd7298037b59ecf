"""Serve the static site with cache headers: ``python3 serve.py`` in the built site (standard library only).

    python3 site/serve.py                       # http://localhost:8000/ (this computer only)
    python3 site/serve.py --bind 0.0.0.0        # the class: http://<this computer's address>:8000/
    python3 site-src/serve_site.py site --port 8080

``make site`` copies this file into the site as ``serve.py``, so a copy of the site (a USB stick, a laptop
with no network) serves itself. It is ``python3 -m http.server`` plus the two headers a class needs
(issue 18): ``python -m http.server`` sends no ``Cache-Control``, so each learner's browser asks again for
files it already holds (over a hundred requests a visit) or, by its own guess, keeps an old copy of a page
after the teacher republishes.

* a file whose name carries a content hash (``build/5691.235bc0a.js``, ``remoteEntry.5cbb9d23….js``, the
  fonts), or that sits in a folder named by its content (the Python runtime, ``static/pyodide-3f9a2c1d7e0b/``:
  Pyodide's core files, the lock, the wheels; site-src/versioned_runtime.py):
  ``Cache-Control: public, max-age=31536000, immutable``. A new build gives new content a new name, so a
  kept copy is never stale: the browser does not even ask. A new kit wheel makes a new runtime folder, which
  the (revalidated) pages name;
* everything else (pages, ``jupyter-lite.json``, the lessons, un-hashed scripts): ``Cache-Control: no-cache``.
  The browser keeps them but asks each time, and the server answers ``304 Not Modified`` (no body) unless the
  file changed: a republished lesson reaches every learner at the next visit.

A file with a gzip copy beside it (the Python snapshot ``kernel.bin.gz``, 36 MB -> 11.5 MB: site-src/snapshot.py;
the scripts, pages and ``pyodide.asm.wasm``: site-src/precompress.py) is sent compressed to a browser that
accepts gzip (every browser does): the ``.gz`` file's bytes with ``Content-Encoding: gzip`` and the original's
type, as nginx's ``gzip_static on`` does. Nothing is compressed on the fly. A copy older than its file (the file
was edited after the build) is not used: the file goes as it is.

A school web server can send the same (docs/teachers.md, "Serving the site with cache headers").
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import sys
from pathlib import Path

#: a dot-separated part of the name that is a content hash (7+ hex digits): webpack's chunks, fonts
HASHED = re.compile(r"(?:^|\.)[0-9a-f]{7,}\.[A-Za-z0-9]+$")
#: a folder named by its content (site-src/versioned_runtime.py, VERSIONED: this file stands alone in the site)
VERSIONED_FOLDER = re.compile(r"^[A-Za-z0-9_.]+-[0-9a-f]{12}$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".ipynb": "application/json",
         ".md": "text/markdown; charset=utf-8", ".whl": "application/zip", ".json": "application/json"}


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (``gzip;q=0`` refuses it)."""
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip().lower()
            return not (q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"))
    return False


def cache_control(path: str) -> str:
    """The Cache-Control for a URL path (its query and fragment already cut off)."""
    *folders, name = path.rstrip("/").split("/")
    if HASHED.search(name) or any(VERSIONED_FOLDER.match(folder) for folder in folders):
        return IMMUTABLE
    return REVALIDATE


def _older(copy: str, original: str) -> bool:
    """Whether ``copy`` is older than ``original`` (by whole seconds): a gzip copy left from before someone
    edited the original, which must not be sent for it."""
    return int(os.stat(copy).st_mtime) < int(os.stat(original).st_mtime)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    #: the request is answered from the file's gzip copy (set by translate_path)
    gzipped = False
    #: a gzip copy exists for the requested file (whether or not this browser takes it)
    has_gzip = False

    def parse_request(self) -> bool:
        self.gzipped = self.has_gzip = False  # per request: a connection is kept for several
        return super().parse_request()

    def translate_path(self, path: str) -> str:
        """The requested file, or its ``.gz`` copy where one exists and the browser accepts gzip."""
        local = super().translate_path(path)
        self.has_gzip = os.path.isfile(local) and os.path.isfile(local + ".gz") and not _older(local + ".gz", local)
        self.gzipped = self.has_gzip and accepts_gzip(self.headers.get("Accept-Encoding", ""))
        return local + ".gz" if self.gzipped else local

    def guess_type(self, path) -> str:
        return super().guess_type(str(path)[:-3] if self.gzipped else path)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", cache_control(self.path.split("?", 1)[0].split("#", 1)[0]))
        if self.has_gzip:
            self.send_header("Vary", "Accept-Encoding")
        if self.gzipped:
            self.send_header("Content-Encoding", "gzip")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        if not self.server.quiet:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def make_server(directory: Path, bind: str = "127.0.0.1", port: int = 8000,
                quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A threading server of ``directory`` (one learner's slow download does not hold the others up)."""
    if not (directory / "jupyter-lite.json").is_file():
        raise SystemExit(f"{directory} is not a built site (no jupyter-lite.json): build it with `make site`")
    server = http.server.ThreadingHTTPServer((bind, port), functools.partial(Handler, directory=str(directory)))
    server.quiet = quiet  # type: ignore[attr-defined]
    return server


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description="Serve the safari_kit static site with cache headers.")
    ap.add_argument("directory", nargs="?", default=str(here),
                    help="the built site (default: this file's folder, for the copy make site puts in it)")
    ap.add_argument("--bind", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: the network)")
    ap.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    ap.add_argument("--quiet", action="store_true", help="do not log each request")
    args = ap.parse_args(argv)
    try:
        server = make_server(Path(args.directory).resolve(), args.bind, args.port, args.quiet)
    except OSError as exc:
        print(f"cannot listen on {args.bind}:{args.port}: {exc.strerror} (another server there? try --port)",
              file=sys.stderr)
        return 1
    host = "localhost" if args.bind in ("127.0.0.1", "localhost") else (
        "<this computer's address>" if args.bind in ("0.0.0.0", "::") else args.bind)
    print(f"Serving {args.directory} at http://{host}:{args.port}/ with cache headers (Ctrl+C stops it)",
          flush=True)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
