"""The suite's order and units (tests/conftest.py, issue 28): the site's builds first, browser tests last.

Playwright's sync API leaves its event loop registered as running for the rest of the session, so a test
without a browser run after the first browser test cannot call ``asyncio.run``. The suite used to unregister
that loop around every other test (a private asyncio call); now no such test runs after a browser test.
The control is pytest's own order (files alphabetically: tests/browser before tests/server), which fails.
"""
from __future__ import annotations

import pytest

from tests import conftest
from tests.conftest import SITE_BUILD, pytest_collection_modifyitems, unit_of, uses_browser


class FakeItem:
    """What the hook reads of a collected test: its markers and the fixtures it uses."""

    def __init__(self, nodeid: str, fixtures=(), marks=()):
        self.nodeid, self.fixturenames = nodeid, list(fixtures)
        self.own_marks = [getattr(pytest.mark, m).mark for m in marks]

    def get_closest_marker(self, name):
        return next((m for m in self.own_marks if m.name == name), None)

    def add_marker(self, mark):
        self.own_marks.append(mark.mark if hasattr(mark, "mark") else mark)

    def __repr__(self):
        return self.nodeid


def suite() -> list[FakeItem]:
    """In pytest's order: tests/browser/... before tests/server/..., as the real suite collects."""
    return [
        FakeItem("tests/browser/test_app_voila.py::test_app", ["browser", "page", "voila_app"], ["browser"]),
        FakeItem("tests/browser/test_site_browser.py::test_offline", ["browser", "offline_site"], ["browser"]),
        FakeItem("tests/browser/test_site_startup.py::test_online", ["online_site"], ["browser"]),
        FakeItem("tests/browser/test_site_links.py::test_links", ["offline_site", "chromium_path"], ["browser"]),
        FakeItem("tests/server/test_class_load.py::test_load", ["tmp_path"]),
        FakeItem("tests/test_site_build.py::test_build", ["request"], ["slow"]),
        FakeItem("tests/test_site_trim_wheels.py::test_trim", ["tmp_path"]),
        FakeItem("tests/witness/test_w1.py::test_w1", []),
    ]


def assert_no_test_without_a_browser_after_one_with(items) -> None:
    first = next((n for n, item in enumerate(items) if uses_browser(item)), len(items))
    late = [item.nodeid for item in items[first:] if not uses_browser(item)]
    assert not late, f"run after Playwright started, with its event loop marked running: {late}"


def test_browser_tests_run_after_every_other_test_each_in_its_order(monkeypatch):
    monkeypatch.setattr(conftest, "_durations", lambda: {})  # every file 1 s: collected order but the builds
    items = suite()
    pytest_collection_modifyitems(None, items)
    assert_no_test_without_a_browser_after_one_with(items)
    # the builds first, then the test that reads the wheels they leave (before them, on a fresh clone, it skipped)
    assert [i.nodeid.split("::")[1] for i in items] == [
        "test_build", "test_trim", "test_load", "test_w1", "test_app", "test_offline", "test_online", "test_links"]


def test_control_pytests_own_order_runs_a_server_test_after_a_browser_test():
    with pytest.raises(AssertionError, match="test_class_load"):
        assert_no_test_without_a_browser_after_one_with(suite())


def test_the_builds_and_their_reader_are_one_unit_and_every_other_file_is_its_own():
    units = {i.nodeid.split("::")[1]: unit_of(i.nodeid) for i in suite()}
    assert units == {"test_app": "tests/browser/test_app_voila.py",
                     "test_offline": "tests/browser/test_site_browser.py",
                     "test_online": "tests/browser/test_site_startup.py",
                     "test_links": "tests/browser/test_site_links.py",
                     "test_build": SITE_BUILD, "test_trim": SITE_BUILD,
                     "test_load": "tests/server/test_class_load.py", "test_w1": "tests/witness/test_w1.py"}
    # a parametrized id with "@" in it (as pytest-xdist's loadgroup named groups) is still its file
    assert unit_of("tests/browser/test_site_links.py::test_links[a@b]") == "tests/browser/test_site_links.py"


def test_the_scheduler_hands_out_whole_units():
    from xdist.scheduler import LoadScopeScheduling

    class Config:
        class option:
            loadscopereorder = False
            maxschedchunk = None

        def getvalue(self, name):
            return {"tx": ["2*popen"]}.get(name)

    sched = conftest.pytest_xdist_make_scheduler(Config(), None)
    assert isinstance(sched, LoadScopeScheduling)
    assert sched._split_scope("tests/test_site_trim_wheels.py::test_trim") == SITE_BUILD
    assert sched._split_scope("tests/witness/test_w1.py::test_w1[3]") == "tests/witness/test_w1.py"


def test_the_longest_files_go_first_each_unit_whole_and_browser_tests_still_last(monkeypatch):
    """The order pytest-xdist hands out (longest first), from tests/suite_durations.json's seconds."""
    seconds = {"tests/witness/test_w1.py": 30.0, "tests/server/test_class_load.py": 5.0,
               "tests/browser/test_app_voila.py": 200.0, "tests/browser/test_site_browser.py": 10.0,
               "tests/browser/test_site_startup.py": 10.0, "tests/browser/test_site_links.py": 1.0,
               "tests/test_site_build.py": 2.0, "tests/test_site_trim_wheels.py": 1.0}
    monkeypatch.setattr(conftest, "_durations", lambda: seconds)
    items = suite()
    pytest_collection_modifyitems(None, items)
    assert [i.nodeid.split("::")[1] for i in items] == [
        "test_build", "test_trim", "test_w1", "test_load", "test_app", "test_offline", "test_online", "test_links"]
    assert_no_test_without_a_browser_after_one_with(items)
    # the site's browser files are weighed each on its own: the links' 500 s before the app's 200 s
    seconds["tests/browser/test_site_links.py"] = 500.0
    items = suite()
    pytest_collection_modifyitems(None, items)
    assert [i.nodeid.split("::")[1] for i in items][4:] == ["test_links", "test_app", "test_offline", "test_online"]


def test_the_durations_file_names_files_that_exist():
    """A renamed test file would silently lose its place (it weighs 1 s): tools/suite_times.py rewrites it."""
    seconds = conftest._durations()
    assert len(seconds) > 100
    missing = [f for f in seconds if not (conftest.REPO / f).exists()]
    assert len(missing) <= len(seconds) // 10, f"rewrite tests/suite_durations.json; gone: {missing[:10]}"
