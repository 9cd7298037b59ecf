"""The Simulation lab's runs without widgets (issue 28): presses and runs, pooling, rounds of intervals and their
tally, the tournaments kept, and the words: "run k" and where it is the same draw, never a secret seed.

Nothing here imports ipywidgets: :mod:`safari_kit.presentation.simulation_runs` keeps what the lab drew and writes
it (the lab, ``safari_kit.widgets.labs.simulation``, draws and lays out; its tests are in tests/widgets/).
"""
from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction

from safari_kit.presentation import simulation_runs as R
from safari_kit.probability.distributions import Estimate, Exact

WIDGET_PACKAGES = ("ipywidgets", "anywidget", "IPython", "traitlets")


def test_the_runs_import_no_widget_package_nor_numpy():
    code = ("import sys\nimport safari_kit.presentation.simulation_runs\n"
            f"print([m for m in {WIDGET_PACKAGES + ('numpy', 'pandas', 'matplotlib')!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


@dataclass
class Q:  # the fields of a Simulation lab question the runs read
    key: str = "q"
    exact: Exact = Exact(Fraction(1, 4))
    about: str = "One card <b>drawn</b>."


WORDS = ("25 of 100 cards", "")


def _path(*points: tuple[int, int]) -> dict:
    """A run's running estimate, as ``running_estimate`` returns it: (trials, successes) checkpoints."""
    return {"n": [n for n, _ in points], "estimates": [Estimate(k, n) for n, k in points]}


def test_presses_key_the_runs_and_a_stopped_press_is_taken_back():
    runs = R.SimulationRuns()
    assert [runs.press("run", "q", 100) for _ in range(3)] == [1, 2, 3]
    assert runs.press("run", "q", 1000) == 1 and runs.press("tournament", "witness") == 1
    runs.unpress("tournament", "witness")
    assert runs.press("tournament", "witness") == 1
    runs.clear()
    assert runs.press("run", "q", 100) == 1 and runs.history == {} and runs.rounds == {}


def test_a_run_its_note_and_its_numbers():
    runs, q = R.SimulationRuns(), Q()
    runs.add_run(q.key, 100, 1, _path((10, 3), (100, 27)), "as it opened")
    view = runs.convergence(q, WORDS, pool=False, screens="on every screen with seed 28")
    assert runs.results["run"] == 1 and runs.results["estimate"] == Estimate(27, 100) and runs.results["covers"]
    assert "the lab drew these 100 trials as it opened. Press Simulate for run 2" in view.summary
    assert "Run 1 is the same on every screen with seed 28." in view.summary and "Pooled" not in view.summary
    assert view.about == "<p style='margin:4px 0'>One card &lt;b&gt;drawn&lt;/b&gt;.</p>"
    assert view.spoken.startswith("Run 1 with N = 100: estimate 0.2700")
    assert "covers the exact value 0.2500" in view.spoken
    assert view.plot.startswith("<svg") and view.plot.endswith(R.PICTURE_WORDS) and runs.figures["convergence"]

    runs.add_run(q.key, 100, 2, _path((10, 2), (100, 23)), None)
    view = runs.convergence(q, WORDS, pool=True, screens=None)
    assert "your press of Simulate drew 100 new trials. Run 1 was drawn by the lab as it opened." in view.summary
    assert "Another screen draws its own runs." in view.summary and "seed" not in view.summary
    assert "All 2 runs pooled" in view.summary and runs.results["pooled"] == Estimate(50, 200)
    assert runs.results["runs"] == 2 and runs.results["pool"]


def test_pooled_path_puts_the_runs_one_after_the_other():
    xs, ests = R.pooled_path([{"xs": [10, 100], "estimates": [Estimate(3, 10), Estimate(27, 100)], "n": 100,
                               "estimate": Estimate(27, 100)},
                              {"xs": [10, 100], "estimates": [Estimate(2, 10), Estimate(23, 100)], "n": 100,
                               "estimate": Estimate(23, 100)}])
    assert xs == [10, 100, 110, 200] and [e.successes for e in ests] == [3, 27, 29, 50]


def test_rounds_of_intervals_are_tallied_per_setting_and_say_why_below_0():
    runs, q = R.SimulationRuns(), Q()
    c1 = {"covered": 2, "total": 3, "intervals": [(-0.05, 0.2, True), (0.1, 0.4, True), (0.3, 0.5, False)]}
    summary, svg = runs.count_round(q, 1, 20, 3, "normal", c1, 0.93, (2, 3))
    assert "Round 1: 2 of 3</b>" in summary and "usually covers between 2 and 3" in summary
    assert "Of these 3 simple intervals, 1 reach below 0" in summary and svg.startswith("<svg")
    assert runs.coverage is c1 and (c1["below_0"], c1["above_1"], c1["tally"]) == (1, 0, (2, 3, 1))
    c2 = {"covered": 3, "total": 3, "intervals": [(0.1, 0.4, True)] * 3}
    summary, _ = runs.count_round(q, 2, 20, 3, "normal", c2, 0.93, (2, 3))
    assert c2["tally"] == (5, 6, 2) and "Your 2 rounds with these settings together: <b>5 of 6</b>" in summary
    c3 = {"covered": 1, "total": 1, "intervals": [(-0.1, 0.3, True)]}
    summary, _ = runs.count_round(q, 1, 20, 1, "wilson", c3, 0.95, (1, 1))
    assert c3["tally"] == (1, 1, 1) and "below 0" not in summary  # Wilson's never leaves 0 to 1


def test_a_tournament_is_kept_and_said_as_run_k_never_its_seed():
    from safari_kit.simulation.tournament import tournament

    runs = R.SimulationRuns()
    res = tournament("knockout", players=2, bots=["greedy", "random"], games=10, seed=987654321, workers=1)
    summary, svg, status = runs.show_tournament(res, 2, ("key", 1), screens=None)
    assert "<b>Run 2</b> of this line-up: 10 games. Another screen plays its own games." in summary
    assert "987654321" not in summary + svg + status and svg.startswith("<svg")
    assert status.startswith("The tournament is over: run 2, 10 games played. Most wins: ")
    assert runs.tournament_result is res and runs.tournament_run == 2 and runs.figures["tournament"] == svg
    for i in range(R.TOURNAMENTS_KEPT + 2):
        runs.show_tournament(res, 1, ("more", i), screens="on every screen with seed 5")
    assert len(runs.tournaments) == R.TOURNAMENTS_KEPT and runs.kept_tournament(("key", 1)) is None
    assert runs.kept_tournament(("more", i)) is res and runs.kept_tournament(("more", i)) is None


def test_where_run_k_is_the_same_and_a_stop_in_words():
    assert R.same_on_screens(True, True, 123) is None
    assert R.same_on_screens(False, True, 123) == "on every screen with the class seed"
    assert R.same_on_screens(False, False, 123) == "on every screen with seed 123"

    @dataclass
    class Stopped:
        reason: str = "you pressed Stop"
        done: int = 20
        total: int = 500

    assert R.stopped_words(Stopped()).startswith("Stopped after 20 of 500 games: you pressed Stop. Nothing is shown")
