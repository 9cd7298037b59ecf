"""The numpy batch simulator agrees with the real engine played by equivalent bots."""
from __future__ import annotations

import math

import numpy as np
import pytest

from safari_kit.knockout import KnockoutGame
from safari_kit.simulation import RandomBot, play_game
from safari_kit.simulation.knockout_batch import bench, simulate_knockout
from safari_kit.simulation.knockout_bots import HighCardBot

BOTS = {("random", "random"): RandomBot,
        ("greedy", "random"): lambda: HighCardBot("random"),
        ("greedy", "best"): lambda: HighCardBot("best")}


def engine_games(game, lead, follow, n, seed0=10_000):
    scores, rounds = [], []
    for seed in range(seed0, seed0 + n):
        result, state = play_game(game, [BOTS[lead, follow]() for _ in range(game.players)], seed,
                                  keep_state=True)
        scores.append(result.scores)
        rounds.append(state.round)
    return np.array(scores), np.array(rounds)


def close(a: np.ndarray, b: np.ndarray, k: float = 4.0) -> bool:
    """Means of two independent samples within k combined standard errors."""
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return abs(a.mean() - b.mean()) <= k * max(se, 1e-9)


CASES = [
    (4, True, "random", "random", 2500),
    (4, False, "greedy", "best", 800),
    (4, True, "greedy", "random", 800),
    (3, False, "random", "random", 1200),
]


@pytest.mark.parametrize("players,elimination,lead,follow,n", CASES)
def test_batch_matches_engine(players, elimination, lead, follow, n):
    game = KnockoutGame(players=players, elimination=elimination)
    e_scores, e_rounds = engine_games(game, lead, follow, n)
    batch = simulate_knockout(40_000, game=game, lead=lead, follow=follow, seed=7)
    b_scores = batch.scores.astype(float)
    e_wins = e_scores == e_scores.max(axis=1, keepdims=True)
    for seat in range(players):
        assert close(e_wins[:, seat].astype(float), batch.wins[:, seat].astype(float)), seat
        assert close(e_scores[:, seat], b_scores[:, seat]), seat
    if elimination:
        # chi-square on game length (rounds ≤ 4, 5, 6, 7) against the batch's frequencies
        def bins(r):
            return np.array([(r <= 4).sum(), (r == 5).sum(), (r == 6).sum(), (r == 7).sum()], float)
        p = bins(batch.rounds) / batch.games
        observed = bins(e_rounds)
        expected = p * n
        chi2 = ((observed - expected) ** 2 / expected).sum()
        assert chi2 < 21.1, (observed, expected)        # 3 degrees of freedom, p = 0.0001
    else:
        assert (e_rounds == 7).all() and (batch.rounds == 7).all()
        assert (batch.scores.sum(axis=1) == 28).all()


def test_batch_results_are_consistent_and_seeded():
    a = simulate_knockout(3000, players=5, elimination=True, seed=3, batch_size=700)
    b = simulate_knockout(3000, players=5, elimination=True, seed=3, batch_size=700)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.rounds, b.rounds)
    assert a.scores.shape == (3000, 5)
    # with elimination a game scores at most the turns of the rounds it lasted, and at least 1 per round
    turns = np.array([sum(8 - r for r in range(1, k + 1)) for k in range(8)])
    total = a.scores.sum(axis=1)
    assert (total == turns[a.rounds]).all()
    # K5 pigeonhole: 5 players → someone is out by round 4 at the latest... the game ends by round 7
    assert a.rounds.min() >= 1 and a.rounds.max() <= 7
    full = simulate_knockout(2000, players=7, seed=1)
    assert (full.scores.sum(axis=1) == 28).all()
    assert full.wins.any(axis=1).all() and 0 < full.win_rate(0).mean < 1
    assert full.mean_score(0).mean == 4.0 * 0 + full.scores[:, 0].mean()
    with pytest.raises(ValueError):
        simulate_knockout(10, lead="clever")


def test_bench_runs():
    out = bench(n_games=2000, batch_size=1000, quiet=True)
    assert all(v > 0 for v in out.values())
