"""The online site's app page loads numpy in the background (site-src/safari_site/later.py, issue 18): until it is
there, the Simulation lab says numpy is still loading (not the offline sentence, false there) and opens by itself
when the load ends; a failed load says so; the offline copy keeps its sentence.

No browser and no CDN: numpy's absence is faked where the app imports a lab's module, and Pyodide's
``loadPackage`` by a coroutine that ends the absence (or fails).
"""
from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

import safari_kit.widgets.app as app_module
from safari_kit.presentation import offline
from safari_kit.widgets.app import LabChooser

REPO = Path(__file__).resolve().parents[1]
LAB = "Simulation"


def _later():
    spec = importlib.util.spec_from_file_location("safari_site_later", REPO / "site-src/safari_site/later.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # schedule() does nothing outside Pyodide
    return module


@pytest.fixture
def numpy_absent(monkeypatch):
    """numpy missing for the app's lab imports until ``state['there']`` is set; the kit's state reset."""
    state = {"there": False}
    real = app_module.import_module

    def import_module(name, *a, **kw):
        if not state["there"] and "simulation" in name:
            raise ModuleNotFoundError("No module named 'numpy'", name="numpy")
        return real(name, *a, **kw)

    monkeypatch.setattr(app_module, "import_module", import_module)
    monkeypatch.setattr(offline, "_loading", set())
    monkeypatch.setattr(offline, "_failed", set())
    monkeypatch.setattr(offline, "_waiting", [])
    return state


def _stage_text(chooser) -> str:
    return " ".join(getattr(w, "value", "") for w in chooser.stage.children if isinstance(getattr(w, "value", ""), str))


def _simulation_title(chooser) -> str:
    return next(t for t in (e.title for e in chooser.entries()) if LAB in t)


def _open_simulation(chooser):
    for game in chooser.game.options:  # (words, value) pairs since the chooser speaks the learner's language
        chooser.game.value = game[1] if isinstance(game, tuple) else game
        titles = [e.title for e in chooser.entries()]
        if any(LAB in t for t in titles):
            return chooser.open(lab=_simulation_title(chooser))
    raise AssertionError("no Simulation lab in any game")


def test_offline_the_simulation_lab_keeps_the_offline_sentence(numpy_absent):
    chooser = LabChooser(seed=1)
    assert _open_simulation(chooser) is None
    assert "offline copy of the site does not have" in _stage_text(chooser)


def test_online_the_simulation_lab_waits_for_numpy_then_opens_by_itself(numpy_absent, monkeypatch):
    later = _later()
    monkeypatch.setattr(later, "DELAY", 0.0)
    chooser = LabChooser(seed=1)
    said = {}

    async def load_package(names):
        said["before"] = _stage_text(chooser)  # the learner opened the lab during the load
        numpy_absent["there"] = True

    async def scenario():
        task = asyncio.ensure_future(later.load(["numpy", "pandas"], load_package))
        await asyncio.sleep(0)  # the loader has said what it loads
        assert _open_simulation(chooser) is None
        said["during"] = _stage_text(chooser)
        await task

    asyncio.run(scenario())
    assert "still loading" in said["during"] and "does not have" not in said["during"], said["during"]
    assert chooser.current is not None and "still loading" not in _stage_text(chooser)


def test_online_a_failed_load_says_so(numpy_absent, monkeypatch):
    later = _later()
    monkeypatch.setattr(later, "DELAY", 0.0)
    chooser = LabChooser(seed=1)

    async def load_package(names):
        raise OSError("the CDN cannot be reached")

    async def scenario():
        task = asyncio.ensure_future(later.load(["numpy"], load_package))
        await asyncio.sleep(0)
        _open_simulation(chooser)
        await task

    asyncio.run(scenario())
    text = _stage_text(chooser)
    assert chooser.current is None and "could not be loaded" in text and "does not have" not in text, text
