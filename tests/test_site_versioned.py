"""site-src/versioned_runtime.py: the runtime and Voici's scripts in folders named by their content (issue 18).

A browser keeps such a folder's files without asking (site-src/serve_site.py: ``immutable``), so what matters is
that the name follows the content: the same build gives the same name (a republished site whose runtime did not
change costs learners nothing), any changed file (a new kit wheel) gives a new one, and every page and config
that named the old folder names the new one, while paths that only look alike are left alone. A tiny stand-in
for a built site, no build, no browser (tests/browser/test_site_cache.py plays it in Chromium).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "site-src"))

import versioned_runtime as vr  # noqa: E402

APP = "voici/render/notebooks/app.html"


def fake_site(root: Path, kit: bytes = b"kit 1") -> Path:
    """The parts of a built site that name the two folders, as Voici and build_site.py write them."""
    runtime = root / "static" / "pyodide"
    runtime.mkdir(parents=True)
    (runtime / "pyodide-lock.json").write_text('{"packages": {}}')
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (runtime / "safari_kit-0.1.0-py3-none-any.whl").write_bytes(kit)
    build = root / "voici" / "build"
    build.mkdir(parents=True)
    (build / "voici.js").write_text("chunks")
    (build / "1043.js").write_text("chunk")
    (root / "voici" / "render" / "notebooks").mkdir(parents=True)
    settings = {"pyodideUrl": "./static/pyodide/pyodide.js", "lockFileURL": "./static/pyodide/pyodide-lock.json"}
    (root / APP).write_text(
        '<head><script id="jupyter-config-data" type="application/json">'
        + json.dumps({"fullStaticUrl": "../../build", "themesUrl": "./build/themes", "baseUrl": "../../../",
                      "schemas": "../../../build/schemas", "kernel": settings})
        + '</script></head><body><script src="../../build/voici.js"></script></body>')
    (root / "voici" / "tree").mkdir(parents=True)
    (root / "voici" / "tree" / "index.html").write_text('<script src="../build/treepage.js"></script>'
                                                        '<a href="../../build/schemas">x</a>')
    (root / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {"kernel": settings}}))
    return root


def version(root: Path) -> tuple[str, str]:
    return vr.version_runtime(root), vr.version_voici_build(root)


def test_folders_are_renamed_and_every_reference_follows(tmp_path):
    site = fake_site(tmp_path / "site")
    runtime, build = version(site)
    assert vr.VERSIONED.match(runtime.split("/")[-1]) and vr.VERSIONED.match(build.split("/")[-1])
    assert not (site / "static" / "pyodide").exists() and not (site / "voici" / "build").exists()
    assert (site / runtime / "safari_kit-0.1.0-py3-none-any.whl").read_bytes() == b"kit 1"
    assert vr.runtime_folder(site) == site / runtime
    page = (site / APP).read_text()
    name = build.split("/")[-1]
    assert f'src="../../{name}/voici.js"' in page and f'"fullStaticUrl": "../../{name}"' in page
    assert f'"./{runtime}/pyodide.js"' in page and f'"./{runtime}/pyodide-lock.json"' in page
    # JupyterLite's own build folder (themes, schemas) is another folder: untouched
    assert '"./build/themes"' in page and '"../../../build/schemas"' in page
    tree = (site / "voici" / "tree" / "index.html").read_text()
    assert f'"../{name}/treepage.js"' in tree and '"../../build/schemas"' in tree
    config = (site / "jupyter-lite.json").read_text()
    assert f"./{runtime}/pyodide-lock.json" in config and "static/pyodide/" not in config


def test_the_name_follows_the_content(tmp_path):
    same = version(fake_site(tmp_path / "a"))
    assert version(fake_site(tmp_path / "b")) == same            # rebuilt unchanged: learners keep their copy
    new_kit = version(fake_site(tmp_path / "c", kit=b"kit 2"))  # republished kit: a new runtime folder
    assert new_kit[0] != same[0] and new_kit[1] == same[1]


def test_a_gzip_copy_beside_its_file_does_not_change_the_name(tmp_path):
    """site-src/precompress.py writes ``pyodide.asm.wasm.gz`` after the folder is named: the same content, so
    the name stays (tests/browser/test_site_browser.py checks the built site's name against its files). A
    ``.gz`` with no file beside it is content of its own and counts."""
    folder = tmp_path / "runtime"
    folder.mkdir()
    (folder / "pyodide.asm.wasm").write_bytes(b"\0asm runtime")
    before = vr.folder_digest(folder)
    (folder / "pyodide.asm.wasm.gz").write_bytes(b"compressed")
    assert vr.folder_digest(folder) == before
    (folder / "files.bin.gz").write_bytes(b"a bundle")
    assert vr.folder_digest(folder) != before


def test_a_site_without_the_folders_stops_the_build_by_name(tmp_path):
    with pytest.raises(SystemExit, match="no pyodide-lock.json"):
        vr.version_runtime(tmp_path)
    with pytest.raises(FileNotFoundError, match="expected one Pyodide runtime folder"):
        vr.runtime_folder(tmp_path)
