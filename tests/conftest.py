"""Shared test fixtures: paths, and small card CSVs written to tmp_path.

``card_csv(witness=None, knockout=None, *, header=..., name="cards.csv")``
writes a CSV whose witness part defaults to the committed 75 witness lines and
whose knockout part defaults to 49 generated, valid Safari Pals.
"""
from __future__ import annotations

import asyncio
import csv
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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Run every test that is not a browser test with no event loop marked as running.

    The browser tests' session-wide Playwright (sync API) leaves its event loop registered as the running
    loop of the main thread for the rest of the session, so a later test calling ``asyncio.run`` (the class
    server's tests, the load test) failed with "asyncio.run() cannot be called from a running event loop"
    in ``make test``, though each passed on its own. Playwright's loop is put back afterwards.
    """
    loop = asyncio._get_running_loop()
    if loop is None or item.get_closest_marker("browser") is not None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)
