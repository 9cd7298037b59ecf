"""Shared test fixtures: paths, and small card CSVs written to tmp_path.

``card_csv(witness=None, knockout=None, *, header=..., name="cards.csv")``
writes a CSV whose witness part defaults to the committed 75 witness lines and
whose knockout part defaults to 49 generated, valid Safari Pals.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CARDS_CSV = REPO / "data" / "cards.csv"
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


#: fixtures that hold one fixed folder or one build for the whole run: the tests using them share one xdist
#: worker (``--dist loadgroup``), so two workers never build the static site into .site-build/ at once
SHARED_PATH_FIXTURES = {"offline_site": "static-site", "online_site": "static-site"}
#: test files that read what those builds leave (.site-build/wheels): in the same group, after the build
SHARED_PATH_FILES = {"tests/test_site_trim_wheels.py": "static-site"}


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


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


def _group(item: pytest.Item) -> str | None:
    """The xdist group a test needs: its own mark, or the group of a fixed path it shares (None: any worker)."""
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    groups = {SHARED_PATH_FIXTURES[f] for f in getattr(item, "fixturenames", ()) if f in SHARED_PATH_FIXTURES}
    groups |= {g for path, g in SHARED_PATH_FILES.items() if item.nodeid.startswith(path + "::")}
    return sorted(groups)[0] if groups else None


def _longest_first(items: list, unit, seconds: dict[str, float]) -> list:
    """``items`` with each unit's tests together, the units longest first (their order inside kept).

    pytest-xdist (``--dist loadgroup --no-loadscope-reorder``) hands the units to its workers in this order, so
    the longest ones start first and the two workers end close together (longest-processing-time-first).
    """
    units: dict[str, list] = {}
    for item in items:
        units.setdefault(unit(item), []).append(item)
    weight = {u: sum(seconds.get(f, 1.0) for f in {_file(i) for i in its}) for u, its in units.items()}
    order = sorted(units, key=lambda u: -weight[u])  # stable: equal weights keep their collected order
    return [item for u in order for item in units[u]]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Browser tests run last; each test file is one xdist unit (a module's servers start once), longest first;
    tests sharing a fixed path share a unit.

    The browser tests' session-wide Playwright (sync API) leaves its event loop registered as the running loop
    of the main thread until the session ends, so a test run after it that calls ``asyncio.run`` (the class
    server's tests, the load test) fails with "asyncio.run() cannot be called from a running event loop".
    Every browser test is therefore moved after every other test; xdist hands each worker its units in this
    order too. The one exception: a file that reads what a build left (``SHARED_PATH_FILES``, no event loop
    there) runs after the build, at the end of the build's unit (on a fresh clone it would otherwise find no
    build and skip).
    """
    groups = {item.nodeid: _group(item) for item in items}
    seconds = _durations()

    def reads_a_build(item) -> bool:
        return any(item.nodeid.startswith(path + "::") for path in SHARED_PATH_FILES)

    def unit(item) -> str:
        return groups[item.nodeid] or _file(item)

    others = [i for i in items if not uses_browser(i) and not reads_a_build(i)]
    browser = [i for i in items if uses_browser(i)]
    readers = [i for i in items if reads_a_build(i) and not uses_browser(i)]
    items[:] = _longest_first(others, unit, seconds) + _longest_first(browser + readers, unit, seconds)
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(unit(item)))
