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
