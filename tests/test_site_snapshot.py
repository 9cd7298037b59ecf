"""The app page's kernel snapshot (issue 31, item 1): the guards that need no browser and no build.

* site-src/snapshot.py: the kernel worker's ``loadPyodide(...)`` call goes through site-src/snapshot_loader.js,
  and the build stops with the file's name and the pattern it looked for when a bundle, Pyodide's loader or
  Voici's page is not what it patches; a failing node run stops it too, naming what failed;
* site-src/snapshot_after_restore.py: every module-level ``random.Random`` is reseeded after a restore (a
  snapshot restores the same generator state on every visit);
* site-src/serve_site.py: a file with a ``.gz`` copy beside it (the snapshot) is sent compressed to a browser
  that accepts gzip, as is, with its own type, to one that does not.

tests/browser/test_site_snapshot.py restores the real snapshot (node and chromium).
"""
from __future__ import annotations

import gzip
import importlib.util
import json
import random
import sys
import threading
import types
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "site-src"))

import snapshot  # noqa: E402
from tests.test_site_serve import get, serve_site  # noqa: E402

#: the kernel worker's start of Python as jupyterlite-pyodide-kernel 0.7.0 ships it (minified)
WORKER = ('async initRuntime(e){let t,{pyodideUrl:n,indexUrl:s}=e;n.endsWith(".mjs")?t=(await r(476)(n)).loadPyodide'
          ':(importScripts(n),t=self.loadPyodide),this._pyodide=await t({indexURL:s,stdout:e=>{console.log(e),'
          'this._logMessage({type:"text",level:"info",data:e})},stderr:e=>{console.error(e),this._logMessage({type:'
          '"text",level:"critical",data:e})},...e.loadPyodideOptions}),this._pyodide._api.on_fatal=async e=>{}}')
PAGE = ('<html><head><script id="jupyter-config-data" type="application/json">{}</script></head><body></body></html>')


def test_the_worker_starts_python_through_the_snapshot_loader():
    patched = snapshot.patch_worker(WORKER, "static/352.js")
    assert "this._pyodide=await (" in patched and "safariLoadPyodide" in patched
    # the loader gets the worker's loadPyodide and its whole options object, page settings included
    assert ")(t,{indexURL:s,stdout:" in patched and "...e.loadPyodideOptions})," in patched
    assert patched.endswith(",this._pyodide._api.on_fatal=async e=>{}}")


def test_a_worker_without_the_call_stops_the_build_naming_file_and_pattern():
    with pytest.raises(snapshot.PatternMissing) as err:
        snapshot.patch_worker(WORKER.replace("this._pyodide=await t(", "this._pyodide=await t.load("),
                              "extensions/x/static/352.js")
    assert "extensions/x/static/352.js" in str(err.value) and snapshot.WORKER_PATTERN in str(err.value)
    assert isinstance(err.value, ValueError)


def test_a_site_without_a_kernel_bundle_stops_the_build(tmp_path):
    folder = tmp_path / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    folder.mkdir(parents=True)
    (folder / "1.js").write_text("console.log('no kernel here')")
    with pytest.raises(snapshot.PatternMissing, match="pyodide-kernel-extension"):
        snapshot.patch_workers(tmp_path)
    (folder / "352.js").write_text(WORKER)
    assert snapshot.patch_workers(tmp_path) == 1
    assert "safariLoadPyodide" in (folder / "352.js").read_text()


def test_a_pyodide_without_the_snapshot_options_stops_the_build(tmp_path):
    loader = tmp_path / "pyodide.js"
    loader.write_text('loadPyodide({_loadSnapshot:x, BUILD_ID:"1"})')
    with pytest.raises(snapshot.PatternMissing) as err:
        snapshot.check_pyodide(loader)
    assert str(loader) in str(err.value) and "_snapshotDeserializer" in str(err.value)
    loader.write_text('loadPyodide({_loadSnapshot:x,_snapshotDeserializer:y, BUILD_ID:"1"})')
    snapshot.check_pyodide(loader)


def test_the_snapshot_is_named_in_the_app_page_only(tmp_path):
    page = tmp_path / "app.html"
    options = {"lockFileURL": "./static/pyodide-0123456789ab/pyodide-lock.json", "packages": ["ipython", "safari-kit"]}
    page.write_text(PAGE.replace("{}", json.dumps(
        {"litePluginSettings": {snapshot.KERNEL_PLUGIN: {"loadPyodideOptions": options}}})))
    assert snapshot.app_packages(page) == ["ipython", "safari-kit"]
    snapshot.set_page_snapshot(page, "./static/snapshot-0123456789ab/app-kernel.bin", {"bytes": 4, "x": "</script>"})
    config = json.loads(snapshot.CONFIG.search(page.read_text()).group(2))
    got = config["litePluginSettings"][snapshot.KERNEL_PLUGIN]["loadPyodideOptions"]
    assert got["safariSnapshotURL"].endswith("app-kernel.bin") and got["safariSnapshot"]["x"] == "</script>"
    assert page.read_text().count("</script>") == 1  # the settings cannot end the page's script
    page.write_text("<html><body>no config</body></html>")
    with pytest.raises(snapshot.PatternMissing, match="app.html"):
        snapshot.app_packages(page)


def test_a_failing_node_run_stops_the_build_with_its_message(tmp_path, monkeypatch):
    node = snapshot.shutil.which("node")
    monkeypatch.setattr(snapshot.shutil, "which", lambda name: None)
    with pytest.raises(snapshot.SnapshotFailed, match="needs node"):
        snapshot.run_node({"out": str(tmp_path / "x.bin")}, tmp_path)
    if not node:
        pytest.skip("node is not installed")
    monkeypatch.setattr(snapshot.shutil, "which", lambda name: node)
    monkeypatch.setattr(snapshot, "MAKER", tmp_path / "maker.mjs")
    (tmp_path / "maker.mjs").write_text('console.error("make_snapshot: Python holds a JavaScript object that '
                                        'cannot be saved: a Map"); process.exit(1);')
    with pytest.raises(snapshot.SnapshotFailed, match="cannot be saved: a Map"):
        snapshot.run_node({"out": str(tmp_path / "x.bin")}, tmp_path)


def _after_restore():
    spec = importlib.util.spec_from_file_location("snapshot_after_restore", REPO / "site-src/snapshot_after_restore.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_module_level_generator_is_reseeded_after_a_restore(monkeypatch):
    after = _after_restore()
    fake = types.ModuleType("fake_dealer")
    fake.rng = random.Random(7)
    fake.system = random.SystemRandom()
    monkeypatch.setitem(sys.modules, "fake_dealer", fake)
    state = fake.rng.getstate()
    random.seed(7)
    module_state = random.getstate()
    assert after.reseed() >= 2
    # a restore's generators held the same state on every visit: they do not now
    assert fake.rng.getstate() != state and random.getstate() != module_state
    import tempfile

    assert tempfile._name_sequence is None  # type: ignore[attr-defined]


def test_micropip_gets_the_pages_lockfile_address_after_a_restore(monkeypatch):
    """micropip (in the snapshot for the lessons) copied Pyodide's lockfileBaseUrl at import, in node: the
    build's folder. After a restore it has the page's (what ``micropip.freeze`` writes)."""
    after = _after_restore()
    assert after.rebase_micropip() is False  # no micropip here: nothing to do
    compat = types.ModuleType("micropip._compat._compat_in_pyodide")
    compat.lockfileBaseUrl = "/build/static/pyodide-0123456789ab/"
    compat.CompatibilityInPyodide = type("CompatibilityInPyodide", (), {"lockfile_base_url": compat.lockfileBaseUrl})
    package = types.ModuleType("micropip._compat")
    package.lockfile_base_url = compat.lockfileBaseUrl
    page = types.SimpleNamespace(lockfileBaseUrl="http://school.example/site/static/pyodide-0123456789ab/")
    monkeypatch.setitem(sys.modules, "micropip._compat._compat_in_pyodide", compat)
    monkeypatch.setitem(sys.modules, "micropip._compat", package)
    monkeypatch.setitem(sys.modules, "pyodide_js", page)
    assert after.rebase_micropip() is True
    assert compat.lockfileBaseUrl == compat.CompatibilityInPyodide.lockfile_base_url == page.lockfileBaseUrl
    assert package.lockfile_base_url == page.lockfileBaseUrl


# ----------------------------------------------------------------------------- serving the snapshot compressed
@pytest.fixture
def served(tmp_path):
    site = tmp_path / "site"
    folder = site / "static" / "snapshot-0123456789ab"
    folder.mkdir(parents=True)
    (site / "jupyter-lite.json").write_text("{}")
    (site / "index.html").write_text("<title>site</title>")
    body = bytes(range(256)) * 400
    (folder / "app-kernel.bin").write_bytes(body)
    (folder / "app-kernel.bin.gz").write_bytes(gzip.compress(body))
    server = serve_site.make_server(site, "127.0.0.1", 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", body
    finally:
        server.shutdown()
        server.server_close()


def test_the_snapshot_is_sent_gzip_compressed_to_a_browser_that_accepts_it(served):
    url, body = served
    snap = url + "static/snapshot-0123456789ab/app-kernel.bin"
    status, headers, data = get(snap, {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(data) == body
    assert len(data) < len(body) and int(headers["Content-Length"]) == len(data)
    assert headers["Content-Type"] == "application/octet-stream" and headers["Vary"] == "Accept-Encoding"
    assert headers["Cache-Control"] == serve_site.IMMUTABLE
    # revalidated like any file
    status, _, data = get(snap, {"Accept-Encoding": "gzip", "If-Modified-Since": headers["Last-Modified"]})
    assert status == 304 and data == b""
    # a client that takes no gzip gets the file itself
    for accept in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0, br"}):
        status, headers, data = get(snap, accept)
        assert status == 200 and data == body and headers["Content-Encoding"] is None, accept
    # other files: as before, on the same kept-alive server
    status, headers, data = get(url + "index.html", {"Accept-Encoding": "gzip"})
    assert data == b"<title>site</title>" and headers["Content-Encoding"] is None and headers["Vary"] is None


@pytest.mark.parametrize("header, expected", [
    ("gzip", True), ("gzip, deflate, br, zstd", True), ("br;q=1.0, gzip;q=0.8", True), ("*", True),
    ("", False), ("identity", False), ("br", False), ("gzip;q=0", False), ("deflate, gzip;q=0.000", False),
])
def test_accept_encoding(header, expected):
    assert serve_site.accepts_gzip(header) is expected


def test_the_online_build_has_no_snapshot_when_the_app_loads_from_the_cdn(tmp_path):
    lock = {"packages": {
        "ipython": {"file_name": "ipython-9.0.2-py3-none-any.whl", "depends": ["traitlets"]},
        "traitlets": {"file_name": "https://cdn.jsdelivr.net/pyodide/v0.29.0/full/traitlets.whl", "depends": []},
        "safari-kit": {"file_name": "safari_kit-0.1.0-py3-none-any.whl", "depends": []}}}
    assert snapshot.remote_packages(lock, ["ipython", "safari_kit"]) == ["traitlets"]
    assert snapshot.remote_packages(lock, ["safari-kit"]) == []
    runtime = tmp_path / "static" / "pyodide-0123456789ab"
    runtime.mkdir(parents=True)
    (runtime / "pyodide-lock.json").write_text(json.dumps(lock))
    npm = tmp_path / "npm"
    npm.mkdir()
    (npm / "pyodide.js").write_text("_loadSnapshot _snapshotDeserializer BUILD_ID")
    page = tmp_path / "app.html"
    page.write_text(PAGE.replace("{}", json.dumps({"litePluginSettings": {snapshot.KERNEL_PLUGIN: {
        "loadPyodideOptions": {"packages": ["ipython", "safari-kit"]}}}})))
    lessons = {"jupyter-config-data": {"litePluginSettings": {snapshot.KERNEL_PLUGIN: {
        "loadPyodideOptions": {"packages": ["ipython", "safari-kit"]}}}}}
    (tmp_path / snapshot.LESSON_CONFIG).write_text(json.dumps(lessons))
    line = snapshot.build(tmp_path, runtime, npm, page)
    assert line.startswith("no snapshot for the app page and the lessons") and "traitlets" in line
    assert "safariSnapshot" not in page.read_text() and not list(tmp_path.glob("static/snapshot-*"))
    assert "safariSnapshot" not in (tmp_path / snapshot.LESSON_CONFIG).read_text()


def test_the_snapshot_is_named_in_the_lessons_config(tmp_path):
    """Issue 31: the lessons (JupyterLite's pages read the site's jupyter-lite.json) restore the same snapshot."""
    config = tmp_path / "jupyter-lite.json"
    options = {"lockFileURL": "./static/pyodide-0123456789ab/pyodide-lock.json", "packages": ["micropip", "jedi"]}
    config.write_text(json.dumps({"jupyter-config-data": {"appName": "safari_kit", "litePluginSettings": {
        snapshot.KERNEL_PLUGIN: {"loadPyodideOptions": options}}}}))
    assert snapshot.lesson_packages(config) == ["micropip", "jedi"]
    snapshot.set_lessons_snapshot(config, "./static/snapshot-0123456789ab/kernel.bin", {"first": ["jedi"]})
    data = json.loads(config.read_text())["jupyter-config-data"]
    got = data["litePluginSettings"][snapshot.KERNEL_PLUGIN]["loadPyodideOptions"]
    assert got["safariSnapshotURL"].endswith("/kernel.bin") and got["safariSnapshot"] == {"first": ["jedi"]}
    assert got["lockFileURL"] == options["lockFileURL"] and data["appName"] == "safari_kit"


def test_a_lessons_restore_writes_its_packages_files_from_the_bundle(tmp_path):
    """Session 9: the lessons' settings name the files bundle (its URL, size, checksum, Pyodide's loadedPackages)
    and load no wheel with the restore; the wheels' names stay for a browser that cannot read the bundle."""
    made = {"bytes": 23_000_000, "checksum": "abc", "count": 3089,
            "loaded": {"micropip": "default channel", "packaging": "default channel", "jedi": "default channel",
                       "pyodide-kernel": "default channel"}}
    settings = snapshot.lesson_files(["micropip", "jedi", "pyodide_kernel"], made)
    assert settings["first"] == [] and settings["later"] == []
    assert settings["bundle"] == {"bytes": 23_000_000, "checksum": "abc", "loaded": made["loaded"],
                                  "packages": ["micropip", "jedi", "pyodide_kernel"]}
    # without a bundle (an older make_snapshot.mjs run): the wheels with the restore, as before
    assert snapshot.lesson_files(["micropip", "jedi"], None) == {"first": ["micropip", "jedi"], "later": []}
    config = tmp_path / "jupyter-lite.json"
    config.write_text(json.dumps({"jupyter-config-data": {"litePluginSettings": {
        snapshot.KERNEL_PLUGIN: {"loadPyodideOptions": {"packages": ["micropip", "jedi"]}}}}}))
    snapshot.set_lessons_snapshot(config, "./static/snapshot-0123456789ab/kernel.bin", settings,
                                  f"./static/snapshot-0123456789ab/{snapshot.BUNDLE}")
    options = json.loads(config.read_text())["jupyter-config-data"]["litePluginSettings"][snapshot.KERNEL_PLUGIN][
        "loadPyodideOptions"]
    # a ...URL key: the kernel makes it absolute, as it does the snapshot's
    assert options["safariFilesURL"] == "./static/snapshot-0123456789ab/files.bin.gz"
    assert options["safariSnapshot"]["bundle"]["packages"] == ["micropip", "jedi", "pyodide_kernel"]


def test_the_app_pages_restore_writes_its_first_packages_files_from_its_own_bundle(tmp_path):
    """Session 13: the app page's settings name a bundle of its first packages' files (the kit, safari_site) and
    load no wheel with the restore; its other packages still come later; the wheels' names stay as the fallback."""
    made = {"bytes": 5_900_000, "checksum": "def", "count": 460,
            "loaded": {"safari-kit": "default channel", "safari-site": "default channel"}}
    settings = snapshot.app_files(["safari-kit", "safari-site"], ["ipython", "numpy"], made)
    assert settings == {"first": [], "later": ["ipython", "numpy"],
                        "bundle": {"bytes": 5_900_000, "checksum": "def", "loaded": made["loaded"],
                                   "packages": ["safari-kit", "safari-site"]}}
    assert snapshot.app_files(["safari-kit"], ["ipython"], None) == {"first": ["safari-kit"], "later": ["ipython"]}
    page = tmp_path / "app.html"
    page.write_text(PAGE.replace("{}", json.dumps(
        {"litePluginSettings": {snapshot.KERNEL_PLUGIN: {"loadPyodideOptions": {"packages": ["safari-kit"]}}}})))
    snapshot.set_page_snapshot(page, "./static/snapshot-0123456789ab/kernel.bin", settings,
                               f"./static/snapshot-0123456789ab/{snapshot.APP_BUNDLE}")
    got = json.loads(snapshot.CONFIG.search(page.read_text()).group(2))["litePluginSettings"][
        snapshot.KERNEL_PLUGIN]["loadPyodideOptions"]
    assert got["safariFilesURL"] == "./static/snapshot-0123456789ab/files-app.bin.gz"
    # what the bundle holds: the top folders of the two wheels (their modules and their dist-info)
    import zipfile

    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for name, files in (("kit.whl", ["safari_kit/__init__.py", "safari_kit/cards/x.py",
                                     "safari_kit-0.1.0.dist-info/RECORD"]), ("site.whl", ["safari_site.py"])):
        with zipfile.ZipFile(runtime / name, "w") as wheel:
            for f in files:
                wheel.writestr(f, "")
    lock = {"packages": {"safari-kit": {"file_name": "kit.whl"}, "safari-site": {"file_name": "site.whl"}}}
    assert snapshot.wheel_tops(runtime, lock, ["safari-kit", "safari-site"]) == [
        "safari_kit", "safari_kit-0.1.0.dist-info", "safari_site.py"]


def test_a_bundle_without_a_package_the_lessons_load_stops_the_build():
    with pytest.raises(snapshot.SnapshotFailed, match="lacks safari-kit"):
        snapshot.lesson_files(["jedi", "safari-kit"], {"bytes": 1, "checksum": "0", "count": 1,
                                                       "loaded": {"jedi": "default channel"}})


FIRST_LABS = """
import importlib, json, sys
import comm
from comm.base_comm import BaseComm


class Quiet(BaseComm):  # no kernel here: widgets' messages go nowhere
    def publish_msg(self, *args, **kwargs):
        pass


comm.create_comm = lambda *a, **k: Quiet(*a, **k)
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except ImportError:  # the kernel's own packages (pyodide_kernel, safari_site) exist in the browser only
        pass
before = set(sys.modules)
from safari_kit.widgets.labs import challenge, fullgame, identification, knockout, tutorial
identification.IdentificationLab(seed=1), knockout.KnockoutLab(seed=1), challenge.ChallengeLab(seed=1)
fullgame.FullGameLab(seed=1), tutorial.RulesTutorial()
print(json.dumps(sorted(m for m in set(sys.modules) - before if m.startswith("safari_kit"))))
"""


def test_the_first_lab_of_each_kind_imports_nothing_the_snapshot_lacks():
    """Issue 31: a module imported after a restore is read and compiled again in the browser (the first lab opened
    slower after a restore than after a cold start): the snapshot imports what building each kind of lab imports
    (the kit's modules here; the standard library's differ between this Python and Pyodide's)."""
    import subprocess

    proc = subprocess.run([sys.executable, "-c", FIRST_LABS, json.dumps(snapshot.IMPORTS)], capture_output=True,
                          text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
