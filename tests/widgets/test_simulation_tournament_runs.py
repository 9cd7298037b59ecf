"""Simulation lab, Tournament tab: every press plays fresh games, reproducibly; Reset shows its progress.

Driven from Python through the handlers a click calls (``button.click()``).
Timings are measured by tools/bench_simulation_lab.py, never asserted here;
what is asserted is the rule for slow actions: buttons disabled and a moving
progress bar for as long as the games are played.
"""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from safari_kit.simulation.tournament import tournament  # noqa: E402
from safari_kit.widgets.labs import simulation as S  # noqa: E402
from safari_kit.widgets.labs.simulation import SimulationLab, tournament_seed  # noqa: E402

SMALL = dict(game="knockout", bots="greedy,random", games=10)


@pytest.fixture
def lab():
    return SimulationLab(seed=1, run_tournament=False)


def seeds(res) -> list[int]:
    return res.games["seed"].tolist()


def buttons(lab) -> list[bool]:
    return [lab.run_button.disabled, lab.cov_button.disabled, lab.tour_button.disabled, lab.reset_button.disabled]


def test_each_press_plays_fresh_games_and_says_which_run(lab):
    first = lab.run_tournament(**SMALL)
    assert lab.tournament_run == 1 and "Run 1</b> of this line-up" in lab.tour_summary.value
    assert "run 1" in lab.figures["tournament"]
    played = [seeds(first)]
    for k in (2, 3):
        lab.tour_button.click()
        assert lab.errors == [] and lab.tournament_run == k
        assert f"Run {k}</b> of this line-up" in lab.tour_summary.value and f"run {k}:" in lab.figures["tournament"]
        assert lab.tournament_result.config["seed"] == tournament_seed(1, k)
        played.append(seeds(lab.tournament_result))
        assert played[-1] != played[-2]
    assert len({tuple(p) for p in played}) == 3
    assert lab.progress.bar.value == lab.progress.bar.max == 10


def test_run_1_is_the_labs_seed_as_in_python(lab):
    res = lab.run_tournament(**SMALL)
    same = tournament("knockout", players=2, bots="greedy,random", games=10, seed=1, workers=1,
                      chunk_size=S.TOURNAMENT_CHUNK)
    assert seeds(res) == seeds(same) and res.summary.equals(same.summary)


def test_the_kth_press_is_the_same_games_in_every_classroom():
    a = SimulationLab(seed=1, run_tournament=False)
    b = SimulationLab(seed=1, run_tournament=False)
    # b wanders first: another line-up, Simulate, intervals; none of it changes run k of a line-up
    b.run_tournament(game="knockout", bots="greedy,random,highcard", games=10)
    b.run_button.click()
    b.cov_button.click()
    a.run_tournament(**SMALL)
    b.run_tournament(**SMALL)
    for _ in range(2):
        a.tour_button.click()
        b.tour_button.click()
        assert a.tournament_run == b.tournament_run
        assert seeds(a.tournament_result) == seeds(b.tournament_result)
        assert a.tournament_result.summary.equals(b.tournament_result.summary)
    c = SimulationLab(seed=2, run_tournament=False)
    c.run_tournament(**SMALL)
    c.tour_button.click()
    assert seeds(c.tournament_result) != seeds(a.tournament_result)  # another seed, other games
    assert a.errors == b.errors == c.errors == []


def test_each_line_up_counts_its_own_runs(lab):
    lab.run_tournament(**SMALL)
    lab.tour_button.click()
    assert lab.tournament_run == 2
    lab.run_tournament(game="knockout", bots="greedy,highcard", games=10)  # another line-up: its run 1
    assert lab.tournament_run == 1
    lab.run_tournament(**SMALL)  # back: run 3 of the first line-up
    assert lab.tournament_run == 3 and lab.tournament_result.config["seed"] == tournament_seed(1, 3)


def test_tournament_seed():
    assert tournament_seed(5, 1) == 5
    assert len({tournament_seed(5, k) for k in range(1, 20)}) == 19
    assert tournament_seed(5, 2) != tournament_seed(6, 2)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            tournament_seed(5, bad)


def test_a_tournament_disables_the_buttons_and_moves_its_bar(lab):
    seen = []
    real = lab.progress.update

    def spy(done, total):
        real(done, total)
        seen.append((done, total, buttons(lab), lab.status.value))

    lab.progress.update = spy
    lab.run_tournament(game="witness", bots="greedy,random", games=30)
    assert [d for d, *_ in seen] == [0, 10, 20, 30]  # a step every TOURNAMENT_CHUNK games
    assert all(b == [True] * 4 and "Playing 30 games, run 1" in st for _, _, b, st in seen)
    assert buttons(lab) == [False] * 4 and "Playing" not in lab.status.value


def test_reset_replays_the_tournament_with_its_progress_above_the_tabs():
    lab = SimulationLab(seed=1)
    lab.run_tournament(game="witness", bots="greedy,random", games=20)
    lab.tour_button.click()
    assert lab.tournament_run == 2
    bar = lab.reset_progress
    assert bar.widget.layout.display == "none" and lab.body.children[0] is bar.widget  # above the tabs, hidden
    seen = []

    def watch(change):
        seen.append((change["new"], bar.widget.layout.display, buttons(lab), bar.label.value))

    bar.bar.observe(watch, names="value")
    lab.reset(2)  # a new seed: the tournament is really replayed
    assert lab.errors == [] and lab.seed == 2 and lab.tournament_run == 1
    assert lab.tournament_result.config["seed"] == 2 and lab.tournament_result.config["games"] == 20
    values = [v for v, *_ in seen]
    assert values == sorted(values) and values[-1] == bar.bar.max == 3 + 20  # questions, run, round, then games
    assert len([v for v in values if v > 3]) >= 2  # it moves while the games are played
    assert all(d is None and b == [True] * 4 for _, d, b, _ in seen)  # shown, buttons disabled, all along
    assert any("games" in label for *_, label in seen)
    assert bar.widget.layout.display == "none" and buttons(lab) == [False] * 4


def test_reset_at_the_same_seed_shows_run_1_again_without_replaying(monkeypatch):
    import safari_kit.simulation.tournament as T

    lab = SimulationLab(seed=1)
    first = lab.run_tournament(**SMALL)
    lab.tour_button.click()
    played = []
    real_tournament = T.tournament

    def spy(*a, **k):
        played.append(k.get("seed"))
        return real_tournament(*a, **k)

    monkeypatch.setattr(T, "tournament", spy)
    lab.reset(1)
    assert lab.tournament_run == 1 and lab.tournament_result is first and played == []
    lab.tour_button.click()  # run 2 again: kept too
    assert played == [] and lab.tournament_run == 2
    lab.tour_button.click()  # run 3: new games, played
    assert played == [tournament_seed(1, 3)]
