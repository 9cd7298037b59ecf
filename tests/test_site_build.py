"""The static site's two test builds, made first in a test run (tests/site_builds.py, issue 28).

With pytest-xdist this file is the first unit a worker gets (tests/conftest.py), so the builds run while the
other workers test the engine, and the site's browser tests, spread over every worker, find them made. The
tests also say what each build cost. The lock's own behaviour is tested without ``make``: two builders at once,
one build.
"""
from __future__ import annotations

import os
import shutil
import threading
import time

import pytest

from tests import site_builds


def _need_npm() -> None:
    if not shutil.which("npm"):  # make site OFFLINE=1 packs the Pyodide runtime with npm
        what = "npm is not installed (apt-get install npm; .ci/run installs it as root)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{what} (CI=true: the site's tests must run in CI)")
        pytest.skip(what)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["offline", "online"])
def test_the_site_builds(request, which):
    _need_npm()
    build = {"offline": site_builds.build_offline, "online": site_builds.build_online}[which]
    try:
        seconds = build(request.config)
    except site_builds.SiteBuildError as exc:
        pytest.fail(str(exc), pytrace=False)
    out = {"offline": site_builds.OFFLINE_DIR, "online": site_builds.ONLINE_DIR}[which]
    print(f"\nmake site ({which}) into {out.relative_to(site_builds.REPO)}: {seconds:.0f} s")
    assert (out / "index.html").is_file() and (out / "jupyter-lite.json").is_file()


def test_two_builders_at_once_make_one_build_and_both_find_it(tmp_path):
    out, lock = tmp_path / "site", tmp_path / "builds.lock"
    builds: list[float] = []

    def build(where):
        builds.append(time.perf_counter())
        time.sleep(0.3)  # long enough for the other thread to reach the lock
        where.mkdir()

    found = []
    threads = [threading.Thread(target=lambda: found.append(site_builds.build_once(out, build, "run-1", lock=lock)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 1 and len(found) == 2 and out.is_dir()
    # a later run builds again: its code may have changed
    shutil.rmtree(out)
    site_builds.build_once(out, build, "run-2", lock=lock)
    assert len(builds) == 2


def test_a_failed_build_is_tried_again_by_the_next_builder(tmp_path):
    out, lock = tmp_path / "site", tmp_path / "builds.lock"

    def failing(where):
        raise site_builds.SiteBuildError("make site failed (rc=2):\nno npm")

    with pytest.raises(site_builds.SiteBuildError, match="rc=2"):
        site_builds.build_once(out, failing, "run-1", lock=lock)
    site_builds.build_once(out, lambda where: where.mkdir(), "run-1", lock=lock)
    assert out.is_dir()


def test_control_without_the_lock_both_builders_build(tmp_path, monkeypatch):
    """The lock is what keeps the second builder out: without it, two builds."""
    from contextlib import nullcontext

    monkeypatch.setattr(site_builds, "one_build_at_a_time", lambda lock: nullcontext())
    out, builds = tmp_path / "site", []

    def build(where):
        builds.append(1)
        time.sleep(0.3)
        where.mkdir(exist_ok=True)

    threads = [threading.Thread(target=site_builds.build_once, args=(out, build, "run-1"),
                                kwargs={"lock": tmp_path / "l"}) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(builds) == 2


@pytest.fixture(scope="module")
def build_site():
    import importlib.util
    import sys

    if str(site_builds.REPO / "site-src") not in sys.path:  # build_site imports its neighbours
        sys.path.insert(0, str(site_builds.REPO / "site-src"))
    spec = importlib.util.spec_from_file_location("build_site", site_builds.REPO / "site-src" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sources_digest_follows_every_source_file_and_not_bytecode(build_site, tmp_path):
    """The kit's wheel and the staged contents are reused between the two builds only while it is unchanged."""
    for top in build_site.SOURCES:
        (tmp_path / top).parent.mkdir(parents=True, exist_ok=True)
    for top in ("safari_kit", "data", "docs", "notebooks"):
        (tmp_path / top).mkdir(exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    (tmp_path / "safari_kit" / "cards.py").write_text("A = 1\n")
    (tmp_path / "notebooks" / "01.md").write_text("# one\n")
    first = build_site.sources_digest(tmp_path)
    (tmp_path / "safari_kit" / "__pycache__").mkdir()
    (tmp_path / "safari_kit" / "__pycache__" / "cards.cpython-311.pyc").write_bytes(b"\0")
    assert build_site.sources_digest(tmp_path) == first
    (tmp_path / "safari_kit" / "cards.py").write_text("A = 2\n")
    assert build_site.sources_digest(tmp_path) != first
    (tmp_path / "safari_kit" / "cards.py").write_text("A = 1\n")
    (tmp_path / "notebooks" / "02.md").write_text("")
    assert build_site.sources_digest(tmp_path) != first


def test_the_second_build_copies_the_staged_contents_and_a_changed_source_stages_again(build_site, tmp_path,
                                                                                        monkeypatch):
    staged, digest = [], ["sources-1"]

    def stage(lite, teacher=False):
        staged.append(teacher)
        contents = lite / "contents"
        shutil.rmtree(lite, ignore_errors=True)
        (contents / "notebooks").mkdir(parents=True)
        (contents / "notebooks" / "01.ipynb").write_text(f"copy {len(staged)}")
        return contents

    monkeypatch.setattr(build_site, "stage", stage)
    monkeypatch.setattr(build_site, "sources_digest", lambda: digest[0])
    lite, cache = tmp_path / "lite", tmp_path / "cache"
    first = build_site.stage_once(lite, cache)
    (first / "notebooks" / "01.ipynb").write_text("changed by the build after staging")  # set_kernel_metadata
    again = build_site.stage_once(lite, cache)
    assert staged == [False] and (again / "notebooks" / "01.ipynb").read_text() == "copy 1"
    build_site.stage_once(lite, cache, teacher=True)  # another site: the teacher's copies too
    assert staged == [False, True]
    digest[0] = "sources-2"
    assert (build_site.stage_once(lite, cache, teacher=True) / "notebooks" / "01.ipynb").read_text() == "copy 3"
    assert staged == [False, True, True]


# --- the online build reuses the offline build's `voici build` output (build_site.voici_build) ---------------

OFFLINE = {"disablePyPIFallback": True, "pyodideUrl": "./static/pyodide/pyodide.js",
           "loadPyodideOptions": {"lockFileURL": "./static/pyodide/pyodide-lock.json", "packages": ["a"]}}
ONLINE = {"loadPyodideOptions": {"lockFileURL": "./static/pyodide/pyodide-lock.json", "packages": ["a", "numpy"]}}
PAGES = ("voici/tree/index.html", "voici/tree/docs/index.html", "voici/render/notebooks/01.html",
         "voici/render/notebooks/es/01.html")


def _voici_urls(config, prefix):
    """Voici 0.10's patch_relative_urls, written out here apart from build_site's copy."""
    for key, value in config.items():
        if key in ("licensesUrl", "themesUrl", "federated_extensions"):
            continue
        if isinstance(value, dict):
            _voici_urls(value, prefix)
        elif key.endswith("Url") and isinstance(value, str) and value.startswith("./"):
            config[key] = prefix + value[2:]
        elif key.endswith("Urls") and isinstance(value, list):
            config[key] = [prefix + v[2:] if v.startswith("./") else v for v in value]


def _fake_voici_build(build_site, out, settings):
    """What `voici build` writes that depends on the kernel's settings and the output's name: jupyter-lite.json
    (the settings and what the kernel's addon adds), each page's config (``| tojson``, URLs made relative) and
    the top tree page's title; and a file that does not depend on them."""
    import copy
    import json

    import jinja2

    plugin = {**settings, "pipliteUrls": ["./extensions/pypi/all.json?sha256=1"]}
    config = {"jupyter-config-data": {"appName": "safari_kit", "baseUrl": "./", "themesUrl": "./build/themes",
                                      "litePluginSettings": {build_site.KERNEL_PLUGIN: plugin, "other": {"x": 1}}}}
    out.mkdir(parents=True)
    (out / "jupyter-lite.json").write_text(json.dumps(config, sort_keys=True, indent=2))
    (out / "lab").mkdir()
    (out / "lab" / "index.html").write_text("<html>the lab</html>")
    page = jinja2.Environment(autoescape=True).from_string(
        '<html><head><title>\n      {{ title }}\n    </title>\n  <script id="jupyter-config-data" '
        'type="application/json">\n    {{ page_config | tojson }}\n  </script></head><body>a page</body></html>')
    for rel in PAGES:
        depth = len(rel.split("/")) - 1
        page_config = copy.deepcopy(config["jupyter-config-data"])
        _voici_urls(page_config, "../" * depth)
        page_config["baseUrl"] = "../" * depth
        title = f"{out.name}/files/" if rel == "voici/tree/index.html" else "files/docs/"
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(page.render(title=title, page_config=page_config))


def _files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_second_voici_build_reuses_the_first_with_its_own_settings_and_a_changed_input_builds_again(
        build_site, tmp_path, monkeypatch):
    """The reused output is what `voici build` writes with the second build's settings into its own folder,
    byte for byte, in jupyter-lite.json and every page, both ways (offline -> online, online -> offline)."""
    builds, key = [], ["inputs-1"]

    def run(cmd, **kw):
        out = build_site.Path(cmd[cmd.index("--output-dir") + 1])
        builds.append(out.name)
        _fake_voici_build(build_site, out, current[0])

    current = [OFFLINE]
    monkeypatch.setattr(build_site, "run", run)
    monkeypatch.setattr(build_site, "voici_key", lambda lite, bindir, out: key[0])
    cache, sites = tmp_path / "cache", tmp_path / "sites"
    build_site.voici_build(tmp_path / "venv" / "bin", tmp_path / "lite", sites / "test-site", cache, OFFLINE)
    assert builds == ["test-site"]
    for name, settings in (("test-site-online", ONLINE), ("test-site", OFFLINE), ("test-site", ONLINE)):
        out = sites / name
        build_site.shutil.rmtree(out, ignore_errors=True)
        current[0] = settings
        build_site.voici_build(tmp_path / "venv" / "bin", tmp_path / "lite", out, cache, settings)
        assert builds == ["test-site"], "the same inputs but the kernel's settings: not reused"
        _fake_voici_build(build_site, tmp_path / "fresh" / name, settings)
        assert _files(out) == _files(tmp_path / "fresh" / name), f"the reused output into {name} is not a fresh one"
        build_site.shutil.rmtree(tmp_path / "fresh")
    key[0] = "inputs-2"  # a changed input: voici build again
    build_site.shutil.rmtree(sites / "test-site-online")
    build_site.voici_build(tmp_path / "venv" / "bin", tmp_path / "lite", sites / "test-site-online", cache, ONLINE)
    assert builds == ["test-site", "test-site-online"]


def test_the_voici_key_follows_every_input_but_the_kernel_settings_and_the_output_name(build_site, tmp_path):
    import json

    venv, lite = tmp_path / "venv", tmp_path / "lite"
    (venv / "bin").mkdir(parents=True)
    (venv / "lib" / "python3.11" / "site-packages" / "voici-0.10.dist-info").mkdir(parents=True)
    (venv / "share" / "jupyter" / "labextensions").mkdir(parents=True)
    (venv / "share" / "jupyter" / "labextensions" / "ext.js").write_text("one")
    (lite / "contents" / "notebooks").mkdir(parents=True)
    (lite / "contents" / "notebooks" / "01.ipynb").write_text("{}")

    def config(settings, app="safari_kit"):
        data = {"jupyter-config-data": {"appName": app, "litePluginSettings": {build_site.KERNEL_PLUGIN: settings}}}
        (lite / "jupyter-lite.json").write_text(json.dumps(data, indent=2))

    def key(out="sites/test-site"):
        return build_site.voici_key(lite, venv / "bin", tmp_path / out)

    config(OFFLINE)
    first = key()
    config(ONLINE)
    assert key() == first and key("sites/test-site-online") == first
    assert key("elsewhere/test-site") != first, "another parent folder"
    assert key("sites/a site") == "", "a name the reuse does not write: not reused"
    config(ONLINE, app="another")
    assert key() != first, "the rest of the config"
    config(ONLINE)
    (lite / "contents" / "notebooks" / "01.ipynb").write_text('{"cells": []}')
    assert key() != first, "a lesson"
    (lite / "contents" / "notebooks" / "01.ipynb").write_text("{}")
    assert key() == first
    (venv / "share" / "jupyter" / "labextensions" / "ext.js").write_text("two")
    assert key() != first, "an extension of the build venv"
    second = key()
    (venv / "lib" / "python3.11" / "site-packages" / "voici-0.11.dist-info").mkdir()
    assert key() != second, "a package of the build venv"


@pytest.mark.parametrize("broken", ["no config", "other settings", "no title"])
def test_the_rewrite_fails_loudly_when_a_page_is_not_as_voici_writes_it(build_site, tmp_path, broken):
    out = tmp_path / "test-site"
    _fake_voici_build(build_site, out, OFFLINE)
    page = out / ("voici/tree/index.html" if broken == "no title" else "voici/render/notebooks/es/01.html")
    text = page.read_text()
    if broken == "no config":
        text = build_site.CONFIG_DATA.sub("", text)
    elif broken == "other settings":
        text = text.replace('"disablePyPIFallback": true', '"disablePyPIFallback": false')
    else:
        text = text.replace("test-site/files/", "files/")
    page.write_text(text)
    with pytest.raises(build_site.VoiciReuseError, match=page.relative_to(out).as_posix()):
        build_site.reuse_voici_output(out, OFFLINE, ONLINE, "test-site", "test-site-online")


def test_make_tests_run_id_names_the_builds_it_made_first(monkeypatch, tmp_path):
    """``make test`` builds the sites before pytest starts (Makefile, tests/site_builds.py as a script); its
    workers take those builds only because they share its run id, and a plain pytest run keeps xdist's."""
    class Config:
        workerinput = {"testrunuid": "xdist-run"}

    monkeypatch.delenv(site_builds.EARLY_RUN, raising=False)
    assert site_builds.run_id(Config()) == "xdist-run"
    monkeypatch.setenv(site_builds.EARLY_RUN, "make-test-run")
    assert site_builds.run_id(Config()) == "make-test-run"
    out, lock = tmp_path / "site", tmp_path / "builds.lock"
    builds = []
    site_builds.build_once(out, lambda where: (builds.append(where), where.mkdir()), "make-test-run", lock=lock)
    site_builds.build_once(out, lambda where: builds.append(where), site_builds.run_id(Config()), lock=lock)
    assert builds == [out]  # the worker found the early build


def test_the_early_build_script_refuses_to_build_without_a_run_id(monkeypatch):
    monkeypatch.delenv(site_builds.EARLY_RUN, raising=False)
    assert site_builds.main() == 2


def test_make_test_starts_the_site_builds_before_the_venv():
    recipe = (site_builds.REPO / "Makefile").read_text(encoding="utf-8").split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("tests/site_builds.py") < recipe.index("hub-proxy") < recipe.index("pytest -n")
    assert "export SAFARI_TEST_SITE_RUN=" in recipe and site_builds.EARLY_RUN == "SAFARI_TEST_SITE_RUN"
