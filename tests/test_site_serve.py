"""site-src/serve_site.py (``python3 site/serve.py``) sends the cache headers a class needs (issue 18, item 5).

A server on 127.0.0.1 (a free port) over a tiny stand-in for a built site: hashed assets are cached for a
year without asking, everything else is revalidated (``no-cache``) and an unchanged file answers 304 with no
body; the wasm runtime gets its MIME type; a folder that is not a site is refused by name. Fast, no browser:
tests/browser/test_site_subpath.py plays the real site through the same handler under a sub-path.
"""
from __future__ import annotations

import gzip
import importlib.util
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "site-src" / "serve_site.py"


def load_serve_site():
    spec = importlib.util.spec_from_file_location("serve_site", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


serve_site = load_serve_site()


@pytest.mark.parametrize("path, expected", [
    ("/build/5691.235bc0a.js", serve_site.IMMUTABLE),
    ("/extensions/anywidget/static/remoteEntry.698dcaf7.js", serve_site.IMMUTABLE),
    ("/voici/build/721921bab0d001ebff02.woff", serve_site.IMMUTABLE),
    ("/", serve_site.REVALIDATE),
    ("/index.html", serve_site.REVALIDATE),
    ("/voici/render/notebooks/app.html", serve_site.REVALIDATE),
    ("/jupyter-lite.json", serve_site.REVALIDATE),
    ("/files/notebooks/02-identification.ipynb", serve_site.REVALIDATE),
    ("/api/contents/all.json", serve_site.REVALIDATE),
    # the runtime in a folder named by its content (site-src/versioned_runtime.py): kept without asking
    ("/static/pyodide-eb6244930b54/pyodide-lock.json", serve_site.IMMUTABLE),
    ("/static/pyodide-eb6244930b54/safari_kit-0.1.0-py3-none-any.whl", serve_site.IMMUTABLE),
    ("/static/pyodide-eb6244930b54/pyodide.asm.wasm", serve_site.IMMUTABLE),
    ("/voici/build-5be610a41e68/1043.js", serve_site.IMMUTABLE),
    ("/sub/path/voici/build-5be610a41e68/voici.js", serve_site.IMMUTABLE),
    # ... but not under a plain name (a site built before, or a folder that only looks like one)
    ("/static/pyodide/safari_kit-0.1.0-py3-none-any.whl", serve_site.REVALIDATE),  # same name, new kit
    ("/static/pyodide/pyodide.asm.wasm", serve_site.REVALIDATE),
    ("/static/pyodide-eb62449/pyodide.asm.wasm", serve_site.REVALIDATE),
    ("/files/notebooks-eb6244930b54.ipynb", serve_site.REVALIDATE),
    ("/voici/build/5828.js", serve_site.REVALIDATE),        # a chunk id, not a hash: may change with Voici
    ("/bootstrap.js", serve_site.REVALIDATE),
    ("/service-worker.js", serve_site.REVALIDATE),
])
def test_cache_control_by_name(path, expected):
    assert serve_site.cache_control(path) == expected


@pytest.fixture
def served(tmp_path):
    site = tmp_path / "site"
    (site / "build").mkdir(parents=True)
    (site / "static").mkdir()
    (site / "jupyter-lite.json").write_text("{}")
    (site / "index.html").write_text("<!doctype html><title>site</title>")
    (site / "build" / "5691.235bc0a.js").write_text("console.log(1)")
    (site / "static" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    server = serve_site.make_server(site, "127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def get(url: str, headers: dict | None = None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as exc:  # 304 and 404 arrive as errors
        return exc.code, exc.headers, exc.read()


def test_the_server_sends_the_headers(served):
    status, headers, body = get(served)
    assert status == 200 and b"<title>site</title>" in body
    assert headers["Cache-Control"] == "no-cache"
    status, headers, _ = get(served + "build/5691.235bc0a.js?v=1")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=31536000, immutable"
    status, headers, _ = get(served + "static/pyodide.asm.wasm")
    assert headers["Content-Type"] == "application/wasm" and headers["Cache-Control"] == "no-cache"
    # revalidation: an unchanged page answers 304 with no body (what no-cache costs a learner)
    _, headers, _ = get(served + "index.html")
    status, _, body = get(served + "index.html", {"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304 and body == b""
    status, headers, _ = get(served + "missing.html")
    assert status == 404


def test_a_folder_that_is_not_a_site_is_refused_by_name(tmp_path):
    proc = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), "--port", "0"], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode != 0 and f"{tmp_path} is not a built site" in proc.stderr, proc.stderr


# ----------------------------------------------------------------------------- gzip copies of scripts and pages
def load_precompress():
    spec = importlib.util.spec_from_file_location("precompress", REPO / "site-src" / "precompress.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


precompress = load_precompress()


def test_precompress_writes_reproducible_copies_of_scripts_pages_and_the_runtime_only(tmp_path):
    """site-src/precompress.py (issue 31): a gzip copy beside each script, style sheet, page, SVG and the wasm
    runtime of 1 KB or more that gzip shrinks; none for the lessons, configs, wheels, small files or what does
    not shrink; the copy inflates to the file; two runs give the same bytes; a copy a copied build left for a
    file that is gone is removed."""
    text = ("function f(x) { return x + 1; }\n" * 200).encode()
    files = {"build/1259.js": text, "voici/render/app.html": text, "static/x/pyodide.asm.wasm": b"\0asm" + text,
             "a.css": text, "pic.svg": text, "lesson.ipynb": text, "jupyter-lite.json": text, "k.whl": text,
             "small.js": b"let y;", "random.js": os.urandom(2048)}
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    (tmp_path / "gone.js.gz").write_bytes(b"left by a copied build")
    done, raw, packed = precompress.precompress(tmp_path)
    copies = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.gz"))
    assert copies == ["a.css.gz", "build/1259.js.gz", "pic.svg.gz", "static/x/pyodide.asm.wasm.gz",
                      "voici/render/app.html.gz"], copies
    assert done == 5 and raw == 5 * len(text) + 4 and packed < raw / 5
    for name in copies:
        assert gzip.decompress((tmp_path / name).read_bytes()) == files[name[:-3]]
    first = {name: (tmp_path / name).read_bytes() for name in copies}
    precompress.precompress(tmp_path)
    assert {name: (tmp_path / name).read_bytes() for name in copies} == first


def test_a_gzip_copy_older_than_its_file_is_not_sent(tmp_path):
    """serve.py sends a script's gzip copy; once the script is edited after the build (its copy older), the
    script itself, and the copy again when it is made anew."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "jupyter-lite.json").write_text("{}")
    script = site / "app.js"
    script.write_text("let built = 1;\n" * 200)
    precompress.precompress(site)
    server = serve_site.make_server(site, "127.0.0.1", 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/app.js"
    try:
        status, headers, data = get(url, {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(data) == script.read_bytes() and headers["Content-Type"] == "text/javascript"
        script.write_text("let edited = 2;\n" * 200)
        os.utime(script, (time.time() + 5, time.time() + 5))  # edited after its copy was made
        status, headers, data = get(url, {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] is None and data == script.read_bytes()
        assert headers["Vary"] is None
        precompress.precompress(site)
        os.utime(f"{script}.gz", (time.time() + 6, time.time() + 6))
        status, headers, data = get(url, {"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] == "gzip" and gzip.decompress(data) == script.read_bytes()
    finally:
        server.shutdown()
        server.server_close()
