"""Tournaments: reproducible whatever runs them, rotating seats, honest summaries."""
from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from safari_kit.simulation.registry import BotSpecError, canonical_spec, make_bot, parse_bots
from safari_kit.simulation.tournament import TournamentResult, chunk_seeds, tournament, wilson


def _small(game="knockout", **kw):
    args = dict(players=3, bots="random", games=24, seed=11, workers=1, chunk_size=5)
    args.update(kw)
    return tournament(game, **args)


def test_games_frame_columns_and_summary_columns():
    res = _small()
    assert isinstance(res, TournamentResult)
    g = res.games
    assert list(g.columns) == ["game", "seed", "chunk", "seat0_bot", "seat1_bot", "seat2_bot",
                               "score0", "score1", "score2", "winners", "n_winners", "turns", "actions"]
    assert len(g) == 24 and g["game"].tolist() == list(range(24))
    assert g["chunk"].tolist() == [i // 5 for i in range(24)]
    assert all(isinstance(w, tuple) and 1 <= len(w) <= 3 for w in g["winners"])
    assert (g["n_winners"] == g["winners"].map(len)).all()
    s = res.summary
    for col in ("bot", "games", "wins", "shared", "win_rate", "win_ci_low", "win_ci_high",
                "mean_score", "score_se", "mean_turns"):
        assert col in s.columns
    assert list(s.index) == ["random#1", "random#2", "random#3"]
    assert list(res.by_seat.index) == [0, 1, 2]


def test_win_rates_add_up_and_intervals_contain_them():
    res = _small("witness", games=30, seed=3)
    s = res.summary
    assert math.isclose(s["win_rate"].sum(), 1.0)  # shared victories count 1/k
    assert math.isclose(res.by_seat["win_rate"].sum(), 1.0)
    for frame in (s, res.by_seat):
        assert ((frame.win_ci_low <= frame.win_rate) & (frame.win_rate <= frame.win_ci_high)).all()
        assert ((0 <= frame.win_ci_low) & (frame.win_ci_high <= 1)).all()
    assert (s["wins"] >= s["shared"]).all()


def test_wilson_interval():
    for k, n in [(0, 10), (10, 10), (3, 7), (2.5, 9), (50, 100)]:
        lo, hi = wilson(k, n)
        assert 0 <= lo <= k / n <= hi <= 1
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-3) and math.isclose(hi, 0.5962, abs_tol=1e-3)


def test_seats_rotate_so_each_entry_plays_each_seat_equally():
    res = tournament("knockout", players=4, bots="random,random,random,random", games=8, seed=1, workers=1)
    g = res.games
    for label in res.summary.index:
        counts = [(g[f"seat{s}_bot"] == label).sum() for s in range(4)]
        assert counts == [2, 2, 2, 2]
    # game i: seat s is entry (s + i) % 4
    assert g.loc[1, "seat0_bot"] == "random#2" and g.loc[3, "seat1_bot"] == "random#1"


def test_fewer_bots_than_seats_repeat_and_too_many_fail():
    res = tournament("knockout", players=4, bots=["random"], games=4, seed=0, workers=1)
    assert res.config["bots"] == ["random"] * 4
    with pytest.raises(BotSpecError, match="at most one per seat"):
        tournament("knockout", players=2, bots="random,random,random", games=2, workers=1)


def test_same_seed_same_games_other_seed_other_games():
    a, b = _small(seed=5), _small(seed=5)
    pd.testing.assert_frame_equal(a.games, b.games)
    pd.testing.assert_frame_equal(a.summary, b.summary)
    c = _small(seed=6)
    assert a.games["seed"].tolist() != c.games["seed"].tolist()


def test_chunk_seeds_do_not_depend_on_anything_but_seed_and_chunk():
    assert chunk_seeds(7, 2, 5) == chunk_seeds(7, 2, 10)[:5]
    assert chunk_seeds(7, 2, 5) != chunk_seeds(7, 3, 5)


def test_every_row_replays_from_its_seed():
    from safari_kit.simulation.play import play_game
    from safari_kit.simulation.tournament import make_game

    res = _small("witness", games=6, case_module=True)
    game = make_game("witness", {"players": 3, "case_module": True, "advanced": False})
    for row in res.games.itertuples():
        bots = [make_bot("witness", "random") for _ in range(3)]
        r = play_game(game, bots, row.seed)
        assert r.scores == (row.score0, row.score1, row.score2)
        assert r.winners == row.winners and r.turns == row.turns


def test_serial_equals_two_processes():
    serial = _small(games=23, seed=42)
    pooled = _small(games=23, seed=42, workers=2)
    assert pooled.runner == "2 processes"
    pd.testing.assert_frame_equal(serial.games, pooled.games)
    pd.testing.assert_frame_equal(serial.summary.drop(columns=[]), pooled.summary)


def test_serial_equals_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    serial = _small(games=23, seed=42)
    with distributed.LocalCluster(n_workers=2, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = _small(games=23, seed=42, scheduler=client)
        by_address = _small(games=7, seed=42, scheduler=cluster.scheduler_address)
    assert on_dask.runner.startswith("dask")
    pd.testing.assert_frame_equal(serial.games, on_dask.games)
    pd.testing.assert_frame_equal(serial.games.iloc[:5], by_address.games.iloc[:5])


def test_progress_is_reported_in_games():
    calls = []
    _small(games=12, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(5, 12), (10, 12), (12, 12)]


def test_options_reach_the_game_and_wrong_options_fail():
    res = _small(players=2, elimination=True, games=4)
    assert res.config["options"] == {"elimination": True}
    res = _small("witness", games=4, advanced=True, case_module=True)
    assert res.config["options"] == {"case_module": True, "advanced": True}
    with pytest.raises(ValueError, match="Knockout option"):
        _small("witness", elimination=True)
    with pytest.raises(ValueError, match="Witness options"):
        _small("knockout", advanced=True)
    with pytest.raises(ValueError, match="players"):
        _small("witness", players=9)
    with pytest.raises(ValueError, match="unknown game"):
        _small("poker")
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError):
            _small(games=bad)
    with pytest.raises(ValueError, match="workers"):
        _small(workers=0)
    with pytest.raises(ValueError, match="seed"):
        _small(seed=-1)


def test_custom_bot_factory_runs_serially():
    from safari_kit.simulation.bots import RandomBot

    class FirstBot(RandomBot):
        name = "first"

        def choose(self, observation, legal_actions):
            return legal_actions[0]

    res = tournament("knockout", players=2, bots=[FirstBot, "random"], games=4, seed=2, workers=1)
    assert list(res.summary.index) == ["first", "random"]


def test_html_table_and_json():
    res = _small(games=6)
    html = res._repr_html_()
    assert "<table" in html and "random#1" in html and "95% interval" in html and "Win rate" in html
    data = json.loads(json.dumps(res.to_dict()))
    assert data["config"]["seed"] == 11 and len(data["summary"]) == 3
    assert "win rate" in res.table() and "seats rotate" in repr(res)


def test_registry_specs():
    assert parse_bots(" random , greedy ") == ["random", "greedy"]
    assert canonical_spec("witness", "LASTK:3") == "lastk:3"
    assert canonical_spec("witness", "memory:.5") == "memory:0.5"
    for spec, msg in [("foo", "unknown bot"), ("memory", "needs an argument"), ("memory:2", "from 0 to 1"),
                      ("memory:x", "not a number"), ("lastk:-1", ">= 0"), ("random:3", "no argument")]:
        with pytest.raises(BotSpecError, match=msg):
            canonical_spec("witness", spec)
    with pytest.raises(BotSpecError, match="does not play knockout"):
        canonical_spec("knockout", "lastk:2")
    with pytest.raises(BotSpecError):
        parse_bots("random,,greedy")


@pytest.mark.parametrize("game, bots", [("witness", "greedy,memory:0.5,lastk:3"), ("knockout", "greedy,random")])
def test_strategy_bots_play_tournaments(game, bots):
    module = "witness_bots" if game == "witness" else "knockout_bots"
    pytest.importorskip(f"safari_kit.simulation.{module}")
    players = 3 if game == "witness" else 2
    res = tournament(game, players=players, bots=bots, games=players * 2, seed=4, workers=1)
    assert len(res.games) == players * 2
    assert math.isclose(res.summary["win_rate"].sum(), 1.0)


def test_highcard_specs():
    assert canonical_spec("knockout", "highcard") == "highcard"
    assert canonical_spec("knockout", "highcard:random") == "highcard"
    assert canonical_spec("knockout", "HighCard:Best") == "highcard:best"
    with pytest.raises(BotSpecError, match="'random' or 'best'"):
        canonical_spec("knockout", "highcard:worst")
    with pytest.raises(BotSpecError, match="does not play witness"):
        canonical_spec("witness", "highcard")


def test_summary_html_says_each_column_in_words_once():
    """The page's table: one header row in words, one row per entry with its numbers (no empty index row,
    the bot column only when an entry's label is not its spec)."""
    import re

    res = _small(games=6)
    page = res.summary_html()
    rows = re.findall(r"<tr>(.*?)</tr>", page)
    assert len(rows) == 1 + len(res.summary), page
    assert "<th scope='col'>Bot</th>" in page  # labels like random#1 differ from their spec "random"
    for label, r in res.summary.iterrows():
        row = next(x for x in rows if f">{label}<" in x)
        cells = re.findall(r"<td>(.*?)</td>", row)
        assert cells[:4] == [str(r.bot), str(int(r.games)), str(int(r.wins)), str(int(r.shared))], row
        assert cells[4] == f"{r.win_rate:.3f}" and cells[5] == f"{r.win_ci_low:.3f}–{r.win_ci_high:.3f}"
    plain = tournament("knockout", players=2, bots=["greedy", "random"], games=4, seed=2, workers=1)
    assert "Bot</th>" not in plain.summary_html() and "Win rate" in plain.summary_html()
