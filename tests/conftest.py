"""Shared test fixtures: paths, and small card CSVs written to tmp_path.

``card_csv(witness=None, knockout=None, *, header=..., name="cards.csv")``
writes a CSV whose witness part defaults to the committed 75 witness lines and
whose knockout part defaults to 49 generated, valid Safari Pals.
"""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import pytest

from safari_kit.classroom.quick_start import skip_unused_format_checkers

REPO = Path(__file__).resolve().parents[1]
CARDS_CSV = REPO / "data" / "cards.csv"
#: a folder whose sitecustomize makes the servers the tests start skip 38 unused grammars (its docstring)
QUICK_SERVERS = REPO / "tests" / "quick_servers"


def quick_server_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` with :data:`QUICK_SERVERS` first on ``PYTHONPATH``: for a server the tests start themselves."""
    paths = [str(QUICK_SERVERS), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]]
    return {**env, "PYTHONPATH": os.pathsep.join(paths)}


# the test processes themselves (nbformat, jupyter_client) skip them too
skip_unused_format_checkers()

HEADER = "id,deck,name,animal,texture,color,weight_kg,size_cm,top_speed_kmh,lifespan_years"


def _witness_lines() -> list[str]:
    lines = CARDS_CSV.read_text(encoding="utf-8").splitlines()[1:]
    return [line for line in lines if next(csv.reader([line]))[1] == "witness"]


def _knockout_lines(n: int = 49) -> list[str]:
    return [f"K{i:02d},knockout,Test Animal {i},,,,{10 + i}.5,{50 + i},{20 + i % 50},{5 + i % 40}"
            for i in range(1, n + 1)]


@pytest.fixture
def repo_root() -> Path:
    return REPO


@pytest.fixture
def witness_lines() -> list[str]:
    """The witness lines of data/cards.csv, exactly as committed."""
    return _witness_lines()


@pytest.fixture
def knockout_lines():
    """``knockout_lines(n=49)``: valid made-up Safari Pals K01.. (distinct names, stats in range)."""
    return _knockout_lines


@pytest.fixture
def card_csv(tmp_path):
    def write(witness=None, knockout=None, *, header=HEADER, name="cards.csv") -> Path:
        w = _witness_lines() if witness is None else list(witness)
        k = _knockout_lines() if knockout is None else list(knockout)
        path = tmp_path / name
        path.write_text("\n".join([header, *w, *k]) + "\n", encoding="utf-8")
        return path
    return write


#: the files of one unit that goes first (tests/site_builds.py): the static site's two builds, then the test that
#: reads the wheels they leave in .site-build/wheels (on a fresh clone it would otherwise find none and skip). The
#: site's browser tests are each their own unit, on any worker: the builds are made once a run, under a lock.
SITE_BUILD = "site-build"
SITE_BUILD_FILES = {"tests/test_site_build.py": SITE_BUILD, "tests/test_site_trim_wheels.py": SITE_BUILD}
#: the Binder test executes every lesson; test_run_notebooks, after it on the same worker, checks that run's outputs
#: instead of executing the lessons again (tests/notebooks/lesson_runs.py)
LESSON_RUNS = "lesson-runs"
SHARED_UNITS = {**SITE_BUILD_FILES, "tests/binder/test_binder_env.py": LESSON_RUNS,
                "tests/notebooks/test_run_notebooks.py": LESSON_RUNS}


def uses_browser(item: pytest.Item) -> bool:
    """A test that starts (or shares) the session's Playwright: marked ``browser`` or using its fixtures."""
    return item.get_closest_marker("browser") is not None or "browser" in getattr(item, "fixturenames", ())


#: seconds per test file from a CI run (``python tools/suite_times.py --write-durations tests/suite_durations.json``)
SUITE_DURATIONS = REPO / "tests" / "suite_durations.json"


def _durations() -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in json.loads(SUITE_DURATIONS.read_text(encoding="utf-8")).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def _file(nodeid: str) -> str:
    return nodeid.split("::")[0]


def unit_of(nodeid: str) -> str:
    """The unit of work pytest-xdist hands one worker whole: the test's file, or the group of files that share a
    fixed path. From the test's id alone, because the xdist controller that hands out the units has no items."""
    file = _file(nodeid.split("@")[0])
    return SHARED_UNITS.get(file, file)


def _longest_first(items: list, seconds: dict[str, float]) -> list:
    """``items`` with each unit's tests together, the units longest first (their order inside kept).

    pytest-xdist (``--no-loadscope-reorder`` and the scheduler below) hands the units to its workers in this
    order, so the longest start first and the two workers end close together (longest-processing-time-first).
    """
    units: dict[str, list] = {}
    for item in items:
        units.setdefault(unit_of(item.nodeid), []).append(item)
    weight = {u: sum(seconds.get(f, 1.0) for f in {_file(i.nodeid) for i in its}) for u, its in units.items()}
    # stable: equal weights keep their collected order; the site's builds first, whatever they weigh
    order = sorted(units, key=lambda u: (u != SITE_BUILD, -weight[u]))
    return [item for u in order for item in units[u]]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Browser tests run last; each test file is one unit of pytest-xdist's work (a module's servers start
    once), longest first, after the unit that builds the static site (``SITE_BUILD``).

    The browser tests' session-wide Playwright (sync API) leaves its event loop registered as the running loop
    of the main thread until the session ends, so a test run after it that calls ``asyncio.run`` (the class
    server's tests, the load test) fails with "asyncio.run() cannot be called from a running event loop".
    Every browser test is therefore moved after every other test; xdist hands each worker its units in this
    order too.
    """
    seconds = _durations()
    others = [i for i in items if not uses_browser(i)]
    browser = [i for i in items if uses_browser(i)]
    items[:] = _longest_first(others, seconds) + _longest_first(browser, seconds)


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's workers get whole units (``unit_of``) in the order above. Its own ``--dist loadgroup``
    cannot do this with pytest 9: it marks a group by rewriting ``item._nodeid``, which pytest 9 no longer
    reads (``nodeid`` comes from ``_id``), so every test was handed out on its own."""
    from xdist.scheduler import LoadScopeScheduling

    class FileUnits(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return FileUnits(config, log)
