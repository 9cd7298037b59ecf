"""Many whole Safari Knockout games at once, vectorised with numpy across games.

The rules are the engine's (K2–K5); the players are simple policies that
never look at the cards already played this turn, which is what lets one numpy
step play a whole turn for tens of thousands of games:

- ``lead="random"``: the lead plays a uniformly random card and names a
  uniformly random item (exactly :class:`~safari_kit.simulation.bots.RandomBot`);
- ``lead="greedy"``: the lead plays the card × item with the best rank in the
  deck (fewest strictly higher cards; ties by deck order, then item order),
  exactly :class:`~safari_kit.simulation.knockout_bots.HighCardBot`;
- ``follow="random"``: each follower plays a uniformly random card of its hand;
- ``follow="best"``: each follower plays its highest card on the named item
  (ties by deck order), like ``HighCardBot(follow="best")``.

How it is fast: cards are integers, each item's values are replaced by dense
integer ranks (equal values, equal ranks, so K3 ties stay ties); a round's deal
is a partial Fisher–Yates shuffle done one position at a time for all games
together; hands are compact arrays where a played card is swapped with the
last live one; a turn's winner is the first maximum in play order
(``argmax`` returns the first one, which is exactly "the earlier card wins a
tie"). With elimination (K5) the finished games are dropped between rounds.

>>> res = simulate_knockout(1000, players=4, seed=1)
>>> res.scores.shape, int(res.scores.sum(axis=1).min()), int(res.rounds.max())
((1000, 4), 28, 7)
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from safari_kit.probability.distributions import Estimate
from safari_kit.probability.knockout import follow_keys, lead_keys

__all__ = ["BatchResult", "simulate_knockout", "bench"]

LEADS = ("random", "greedy")
FOLLOWS = ("random", "best")


@dataclass(frozen=True)
class BatchResult:
    """Per-game outcomes: ``scores`` (games × seats, int16) and ``rounds`` played (int8)."""

    scores: np.ndarray
    rounds: np.ndarray
    players: int
    elimination: bool
    lead: str
    follow: str

    @property
    def games(self) -> int:
        return len(self.rounds)

    @property
    def wins(self) -> np.ndarray:
        """games × seats, True for every seat with the highest total (K4: ties share the win)."""
        return self.scores == self.scores.max(axis=1, keepdims=True)

    def win_rate(self, seat: int) -> Estimate:
        return Estimate.from_samples(self.wins[:, seat].astype(bool), label=f"P(seat {seat} wins)")

    def mean_score(self, seat: int) -> Estimate:
        return Estimate.from_samples(self.scores[:, seat].astype(float), label=f"mean score of seat {seat}")

    def rounds_distribution(self) -> np.ndarray:
        """Fraction of games lasting 1..7 rounds (index 0 = one round)."""
        return np.bincount(self.rounds, minlength=8)[1:] / self.games


def _tables(game):
    """Dense integer ranks per item (K, C), best lead key/item per card, follower keys (K, C),
    the next active seat ``nxt[mask, seat]`` for every set of active seats (a bit mask) and
    the tie-break bonus ``tie[lead, seat]`` (earlier in play order = larger)."""
    values = np.asarray(game.values, dtype=float)                 # (K, C)
    ranks = np.empty(values.shape, dtype=np.int16)
    for k in range(values.shape[0]):
        _, inv = np.unique(values[k], return_inverse=True)
        ranks[k] = inv
    lk = np.asarray(lead_keys(game), dtype=np.int64)              # (K, C), distinct
    best_item = lk.argmax(axis=0).astype(np.intp)
    best_key = lk.max(axis=0)
    n = game.players
    nxt = np.zeros((1 << n, n), dtype=np.intp)
    for mask in range(1, 1 << n):
        for s in range(n):
            nxt[mask, s] = next((s + d) % n for d in range(1, n + 1) if mask >> ((s + d) % n) & 1)
    tie = np.array([[n - 1 - (s - lead) % n for s in range(n)] for lead in range(n)], dtype=np.int16)
    return ranks, best_key, best_item, np.asarray(follow_keys(game), dtype=np.int64), nxt, tie


def _deal(rng, G: int, C: int, n: int, h: int) -> np.ndarray:
    """(n, h, G) hands (int8 card indices): the first n·h positions of a Fisher–Yates shuffle, per game."""
    need = n * h
    perm = np.empty((C, G), dtype=np.int8)
    perm[:] = np.arange(C, dtype=np.int8)[:, None]
    flat = perm.reshape(-1)
    rows = np.arange(G, dtype=np.intp)
    draws = rng.random((need, G))
    for i in range(need):
        idx = (draws[i] * (C - i)).astype(np.intp)
        idx += i
        idx *= G
        idx += rows
        tmp = flat[idx]
        flat[idx] = perm[i]
        perm[i] = tmp
    return perm[:need].reshape(n, h, G)


def _simulate_batch(game, G: int, rng, lead: str, follow: str, tables):
    """One batch. Hands are (seat, slot, game); every seat plays its last live slot.

    A random player's hand is in random order (the shuffle), so its last live
    card is a uniformly random one. A chooser first swaps its chosen card into
    the last live slot; a swap keeps the rest of the hand in uniformly random
    order, so random players stay uniform whatever the others do.
    """
    ranks, best_key, best_item, fkeys, nxt, tie = tables
    n = game.players
    K, C = ranks.shape
    elim = game.elimination
    scores_out = np.zeros((G, n), dtype=np.int16)
    rounds_out = np.full(G, 7, dtype=np.int8)
    gi = np.arange(G)                                  # the games still running
    mask = np.full(G, (1 << n) - 1, dtype=np.intp)     # active seats as bits
    scores = np.zeros((n, G), dtype=np.int16)
    dealer = np.full(G, game.first_dealer, dtype=np.intp)
    seats = np.arange(n, dtype=np.intp)
    bits = (1 << seats)[:, None]
    for r in range(1, 8):
        g = len(gi)
        rows = np.arange(g)
        h = 8 - r
        if r > 1:
            dealer = nxt[mask, dealer]
        L = nxt[mask, dealer]
        hands = _deal(rng, g, C, n, h)
        won = np.zeros((n, g), dtype=bool)
        if elim:
            inactive = (mask & bits) == 0                   # (n, g)
        for t in range(h):
            last = h - t - 1
            if lead == "greedy":
                lh = hands[L, :last + 1, rows]                  # (g, live)
                ls = best_key[lh].argmax(axis=1)
                lc = lh[rows, ls]
                item = best_item[lc]
                if last:
                    hands[L, ls, rows] = hands[L, last, rows]
                    hands[L, last, rows] = lc
            else:
                item = (rng.random(g) * K).astype(np.intp)
            if follow == "best" and last:
                fh = hands[:, :last + 1, :]                     # (n, live, g)
                fs = fkeys[item, fh].argmax(axis=1)             # (n, g)
                fs[L, rows] = last                              # the lead has chosen already
                chosen = np.take_along_axis(fh, fs[:, None, :], axis=1)[:, 0, :]
                np.put_along_axis(fh, fs[:, None, :], fh[:, last:last + 1, :].copy(), axis=1)
                hands[:, last, :] = chosen
            cards = hands[:, last, :]                           # (n, g)
            key = ranks[item, cards] * 8 + tie[L].T             # K3: earlier in play order wins ties
            if elim:
                key[inactive] = -1
            winner = key.argmax(axis=0)
            scores[winner, rows] += 1
            won[winner, rows] = True
            L = nxt[mask, L]
        if elim:
            mask &= (won * bits).sum(axis=0)
            done = (mask & (mask - 1)) == 0                     # one player (or none) left
            if r == 7:
                done[:] = True
            if done.any():
                scores_out[gi[done]] = scores[:, done].T
                rounds_out[gi[done]] = r
                keep = ~done
                gi, mask, scores, dealer = gi[keep], mask[keep], scores[:, keep], dealer[keep]
            if not len(gi):
                break
    if not elim:
        scores_out[:] = scores.T
    return scores_out, rounds_out


def simulate_knockout(n_games: int, players: int = 4, elimination: bool = False, *, lead: str = "random",
                      follow: str = "random", game=None, seed=None, batch_size: int = 20_000) -> BatchResult:
    """Play ``n_games`` whole games of Safari Knockout with numpy; returns per-game scores and lengths.

    ``game``: a :class:`~safari_kit.knockout.KnockoutGame` (its deck, items,
    players, elimination and first dealer are used); default: the shipped
    deck with ``players`` and ``elimination``. ``seed``: for
    ``numpy.random.default_rng``. ``lead``/``follow``: the policies above
    (every seat plays the same policy).
    """
    if lead not in LEADS:
        raise ValueError(f"lead must be one of {LEADS}, got {lead!r}")
    if follow not in FOLLOWS:
        raise ValueError(f"follow must be one of {FOLLOWS}, got {follow!r}")
    if game is None:
        from safari_kit.knockout import KnockoutGame

        game = KnockoutGame(players=players, elimination=elimination)
    n_games = int(n_games)
    if n_games <= 0:
        raise ValueError(f"n_games must be positive, got {n_games!r}")
    rng = np.random.default_rng(seed)
    tables = _tables(game)
    scores, rounds = [], []
    done = 0
    while done < n_games:
        G = min(batch_size, n_games - done)
        s, r = _simulate_batch(game, G, rng, lead, follow, tables)
        scores.append(s)
        rounds.append(r)
        done += G
    return BatchResult(np.concatenate(scores), np.concatenate(rounds), game.players, game.elimination,
                       lead, follow)


def bench(n_games: int = 200_000, players: int = 4, batch_size: int = 20_000, quiet: bool = False) -> dict:
    """Games per second of :func:`simulate_knockout` for each policy, with and without elimination.

    ``python -c "from safari_kit.simulation.knockout_batch import bench; bench()"``
    """
    from safari_kit.knockout import KnockoutGame

    out = {}
    for elimination in (False, True):
        game = KnockoutGame(players=players, elimination=elimination)
        simulate_knockout(1000, game=game, seed=0)            # warm up
        for lead, follow in (("random", "random"), ("greedy", "random"), ("greedy", "best")):
            t0 = time.perf_counter()
            simulate_knockout(n_games, game=game, lead=lead, follow=follow, seed=1, batch_size=batch_size)
            dt = time.perf_counter() - t0
            key = (lead, follow, elimination)
            out[key] = n_games / dt
            if not quiet:
                print(f"{players} players, lead={lead:6s} follow={follow:6s} elimination={elimination!s:5s}: "
                      f"{n_games / dt:10,.0f} games/s")
    return out


if __name__ == "__main__":  # pragma: no cover
    bench()
