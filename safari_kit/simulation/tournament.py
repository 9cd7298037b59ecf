"""Tournaments: N whole games between chosen bots, as pandas DataFrames, reproducible from a seed.

>>> res = tournament("knockout", players=2, bots="random,random", games=4, seed=1, workers=1)
>>> list(res.summary.index)
['random#1', 'random#2']
>>> res.games[["game", "seat0_bot", "seat1_bot"]].values.tolist()[:2]
[[0, 'random#1', 'random#2'], [1, 'random#2', 'random#1']]

How a tournament is played
--------------------------
- **Line-up.** ``bots`` names one bot per *entry* (specs of
  :mod:`safari_kit.simulation.registry`, e.g. ``"random,greedy,memory:0.5"``).
  Give one per seat, or fewer: the list is repeated to fill the seats
  (``"greedy,random"`` at 4 players is greedy, random, greedy, random).
  A custom bot class (or any zero-argument factory) may stand in for a spec;
  with worker processes it must be importable (defined in a module, not in a
  notebook cell), so use ``workers=1`` for a bot written in a notebook.
- **Seats rotate.** In game ``i`` seat ``s`` is played by entry
  ``(s + i) % players``: over any ``players`` consecutive games every entry
  sits in every seat once, so a first-player (or dealer) advantage cancels out
  of the entries' win rates. ``by_seat`` shows that advantage itself.
- **Seeds.** The games are cut into fixed chunks of ``chunk_size`` games
  (default 100, never depending on the workers). Chunk ``k`` draws its games'
  seeds from ``Chance(seed).generator("chunk", k)``, and the results are put
  back together in chunk order. So the same ``seed`` (and ``chunk_size``) gives
  the same games, row for row, serially, on 2 or 64 processes, or on a Dask
  cluster. Each game is then a pure function of (options, bots, game seed):
  ``play_game`` replays any row from its ``seed`` column.
- **Wins.** A victory shared by k players counts **1/k** to each of them
  (``win_rate`` is the mean win share, so the entries' win rates add up to 1);
  ``wins`` counts every game an entry won or shared, ``shared`` those it shared.
  The 95% interval is Wilson's, with the win shares as the success count.
- **Length** is counted in game turns (Witness turns; Knockout turns played,
  over all 7 rounds); ``actions`` counts every decision.
"""
from __future__ import annotations

import html
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from safari_kit.core.chance import Chance, fresh_seed
from safari_kit.probability.distributions import wilson  # it lives in probability now (issue 28)

CHUNK_SIZE = 100
GAMES = ("witness", "knockout")


# --------------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class ChunkTask:
    """One fixed chunk of a tournament: everything a worker needs, picklable."""

    game_name: str
    options: tuple  # sorted (key, value) pairs for the game's constructor
    lineup: tuple  # one bot spec (or factory) per entry
    chunk: int
    start: int  # global index of the chunk's first game
    count: int
    seed: int  # the tournament seed; chunk seeds derive from (seed, chunk)


def chunk_seeds(seed: int, chunk: int, count: int) -> list[int]:
    """The game seeds of chunk ``chunk``: ``count`` draws from ``Chance(seed).generator("chunk", chunk)``."""
    return Chance(seed).generator("chunk", chunk).integers(0, 2**62, size=count)


_GAME_CACHE: dict = {}


def make_game(game_name: str, options: dict | tuple):
    """The game object (cached per process: the card data is loaded once)."""
    key = (game_name, tuple(sorted(dict(options).items())))
    game = _GAME_CACHE.get(key)
    if game is None:
        opts = dict(options)
        if game_name == "witness":
            from safari_kit.witness import WitnessGame

            game = WitnessGame(**opts)
        elif game_name == "knockout":
            from safari_kit.knockout import KnockoutGame

            game = KnockoutGame(**opts)
        else:
            raise ValueError(f"unknown game {game_name!r}; expected one of {', '.join(GAMES)}")
        _GAME_CACHE[key] = game
    return game


def _make(game_name: str, entry):
    if isinstance(entry, str):
        from safari_kit.simulation.registry import make_bot

        return make_bot(game_name, entry)
    return entry()


def play_chunk(task: ChunkTask) -> list[tuple]:
    """Play one chunk; one row per game: (game, seed, scores, winners, turns, actions).

    Top level (so process pools and Dask can ship it by name).
    """
    from safari_kit.simulation.play import play_game

    game = make_game(task.game_name, task.options)
    n = len(task.lineup)
    entries = [_make(task.game_name, e) for e in task.lineup]
    rows = []
    for j, game_seed in enumerate(chunk_seeds(task.seed, task.chunk, task.count)):
        i = task.start + j
        seats = [entries[(s + i) % n] for s in range(n)]
        r = play_game(game, seats, game_seed)
        rows.append((i, game_seed, r.scores, r.winners, r.turns, r.actions))
    return rows


# --------------------------------------------------------------------------- result
@dataclass
class TournamentResult:
    """What a tournament returns.

    - ``games``: one row per game — ``game`` (0..N−1), ``seed`` (replay it
      with ``play_game``), ``chunk``, ``seat{s}_bot`` (the entry in seat s),
      ``score{s}``, ``winners`` (tuple of seats), ``n_winners``, ``turns``,
      ``actions``.
    - ``summary``: one row per entry (index: the entry's label, ``spec#k``
      when a spec appears more than once) — ``bot``, ``games``, ``wins``,
      ``shared``, ``win_rate`` (shared wins count 1/k), ``win_ci_low``,
      ``win_ci_high`` (95% Wilson), ``mean_score``, ``score_se``,
      ``mean_turns`` (the tournament's mean game length, the same on every row).
    - ``by_seat``: the same figures per seat, whoever sat there: the seat advantage.
    - ``config``: game, players, bots, games, seed, options, chunk_size;
      ``runner`` says where it ran; ``elapsed`` its wall time in seconds.
    """

    games: Any
    summary: Any
    by_seat: Any
    config: dict
    runner: str = "serial"
    elapsed: float = 0.0
    lengths: Any = field(default=None, repr=False)

    @property
    def win_rates(self):
        return self.summary["win_rate"]

    def to_dict(self) -> dict:
        """Plain JSON values: config, summary, by_seat, game lengths (not the per-game rows)."""
        def records(df, key):
            out = []
            for label, row in df.iterrows():
                rec = {key: label if not isinstance(label, np.integer) else int(label)}
                rec.update({c: _plain(v) for c, v in row.items()})
                out.append(rec)
            return out
        return {"config": {k: _plain(v) for k, v in self.config.items()},
                "runner": self.runner, "elapsed_s": round(self.elapsed, 4),
                "summary": records(self.summary, "entry"), "by_seat": records(self.by_seat, "seat"),
                "turns": {k: _plain(v) for k, v in self.lengths.items()}}

    def table(self) -> str:
        """The summary as aligned text (what ``safari-kit simulate`` prints)."""
        s = self.summary
        lines = [self.title(), ""]
        head = f"{'bot':<16} {'games':>6} {'wins':>6} {'win rate':>9}  {'95% CI':<15} {'mean score':>10} {'± SE':>6}"
        lines += [head, "-" * len(head)]
        for label, r in s.iterrows():
            ci = f"{r.win_ci_low:.3f}–{r.win_ci_high:.3f}"
            lines.append(f"{str(label):<16} {int(r.games):>6} {int(r.wins):>6} {r.win_rate:>9.3f}  {ci:<15} "
                         f"{r.mean_score:>10.2f} {r.score_se:>6.2f}")
        lines.append("")
        lines.append("by seat: " + ", ".join(f"seat {seat} {r.win_rate:.3f}" for seat, r in self.by_seat.iterrows()))
        L = self.lengths
        lines.append(f"game length (turns): mean {L['mean']:.1f}, sd {L['sd']:.1f}, min {L['min']}, "
                     f"median {L['median']:g}, max {L['max']}")
        lines.append("shared victories count 1/k to each of the k winners; seats rotate every game")
        return "\n".join(lines)

    def title(self) -> str:
        c = self.config
        opts = ", ".join(f"{k}" for k, v in c["options"].items() if v is True)
        return (f"{c['game'].title()} tournament: {c['games']} games, {c['players']} players, seed {c['seed']}"
                f"{' (' + opts + ')' if opts else ''} — {self.runner}, {self.elapsed:.2f} s")

    def __repr__(self) -> str:
        return self.table()

    def summary_html(self) -> str:
        """The summary as a table for a page, with headers in words: one row per entry (its label; the
        bot's spec is not repeated when it is the label), win rate with Wilson's 95% interval, mean score
        with its standard error. ``summary`` keeps the column names for code."""
        s = self.summary
        same = all(str(label) == str(bot) for label, bot in zip(s.index, s["bot"]))
        head = ["Entry"] + ([] if same else ["Bot"]) + [
            "Games", "Wins", "Shared", "Win rate", "95% interval", "Mean score", "± SE", "Mean turns"]
        rows = []
        for label, r in s.iterrows():
            cells = [str(label)] + ([] if same else [str(r.bot)]) + [
                f"{int(r.games):,}", f"{int(r.wins):,}", f"{int(r.shared):,}", f"{r.win_rate:.3f}",
                f"{r.win_ci_low:.3f}–{r.win_ci_high:.3f}", f"{r.mean_score:.2f}", f"{r.score_se:.2f}",
                f"{r.mean_turns:.1f}"]
            rows.append("<tr><th scope='row'>" + html.escape(cells[0]) + "</th>"
                        + "".join(f"<td>{html.escape(c)}</td>" for c in cells[1:]) + "</tr>")
        return ("<table class='sk-tournament'><thead><tr>"
                + "".join(f"<th scope='col'>{h}</th>" for h in head)
                + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")

    def seats_words(self) -> str:
        """The seat advantage and game length in one sentence (plain text)."""
        seats = ", ".join(f"seat {seat}: {r.win_rate:.3f}" for seat, r in self.by_seat.iterrows())
        L = self.lengths
        return (f"Win rate by seat (seat advantage): {seats}. Game length: mean {L['mean']:.1f} turns "
                f"(sd {L['sd']:.1f}). Shared victories count 1/k; seats rotate every game; the intervals are "
                "Wilson's.")

    def _repr_html_(self) -> str:
        return (f"<div class='sk-tournament'><p><b>{html.escape(self.title())}</b></p>{self.summary_html()}"
                f"<p style='color:#555'>{html.escape(self.seats_words())}</p></div>")


def _plain(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    return v


def _labels(lineup: Sequence) -> list[str]:
    names = [e if isinstance(e, str) else getattr(e, "name", None) or getattr(e, "__name__", repr(e))
             for e in lineup]
    out, seen = [], {}
    for nm in names:
        if names.count(nm) > 1:
            seen[nm] = seen.get(nm, 0) + 1
            out.append(f"{nm}#{seen[nm]}")
        else:
            out.append(nm)
    return out


def _stats(scores: np.ndarray, shares: np.ndarray, won: np.ndarray, shared: np.ndarray) -> dict:
    n = len(scores)
    share = float(shares.sum())
    lo, hi = wilson(share, n)
    se = float(scores.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"games": n, "wins": int(won.sum()), "shared": int(shared.sum()), "win_rate": share / n,
            "win_ci_low": lo, "win_ci_high": hi, "mean_score": float(scores.mean()), "score_se": se}


def _build(rows: list[tuple], players: int, labels: list[str], lineup: Sequence, chunk_size: int):
    import pandas as pd

    n_games = len(rows)
    idx = np.array([r[0] for r in rows], dtype=np.int64)
    scores = np.array([r[2] for r in rows], dtype=float).reshape(n_games, players)
    n_win = np.array([len(r[3]) for r in rows], dtype=np.int64)
    won = np.zeros((n_games, players), dtype=bool)
    for g, r in enumerate(rows):
        won[g, list(r[3])] = True
    shares = won / n_win[:, None]
    turns = np.array([r[4] for r in rows], dtype=np.int64)

    cols: dict = {"game": idx, "seed": np.array([r[1] for r in rows], dtype=np.int64),
                  "chunk": idx // chunk_size}
    seat_entry = (np.arange(players)[None, :] + idx[:, None]) % players  # entry in seat s of game g
    lab = np.array(labels, dtype=object)
    for s in range(players):
        cols[f"seat{s}_bot"] = lab[seat_entry[:, s]]
    for s in range(players):
        cols[f"score{s}"] = scores[:, s]
    cols["winners"] = [tuple(r[3]) for r in rows]
    cols["n_winners"] = n_win
    cols["turns"] = turns
    cols["actions"] = np.array([r[5] for r in rows], dtype=np.int64)
    games = pd.DataFrame(cols)

    mean_turns = float(turns.mean())
    summ = []
    g_idx = np.arange(n_games)
    for j in range(players):
        seat = (j - idx) % players  # the seat entry j sat in, per game
        st = _stats(scores[g_idx, seat], shares[g_idx, seat], won[g_idx, seat],
                    won[g_idx, seat] & (n_win > 1))
        bot = lineup[j] if isinstance(lineup[j], str) else labels[j].split("#")[0]
        summ.append({"bot": bot, **st, "mean_turns": mean_turns})
    summary = pd.DataFrame(summ, index=pd.Index(labels, name="entry"))
    by_seat = pd.DataFrame([_stats(scores[:, s], shares[:, s], won[:, s], won[:, s] & (n_win > 1))
                            for s in range(players)], index=pd.Index(range(players), name="seat"))
    lengths = {"mean": mean_turns, "sd": float(turns.std(ddof=1)) if n_games > 1 else 0.0,
               "min": int(turns.min()), "median": float(np.median(turns)), "max": int(turns.max())}
    return games, summary, by_seat, lengths


# --------------------------------------------------------------------------- entry point
def _game_options(game_name: str, players: int, elimination, items, case_module, advanced) -> dict:
    if game_name == "witness":
        if elimination:
            raise ValueError("elimination is a Safari Knockout option (Variation 1), not a Witness one")
        if items is not None:
            raise ValueError("items is a Safari Knockout option, not a Witness one")
        return {"players": players, "case_module": bool(case_module), "advanced": bool(advanced)}
    if case_module or advanced:
        raise ValueError("case_module and advanced are Safari Witness options, not Knockout ones")
    opts = {"players": players, "elimination": bool(elimination)}
    if items is not None:
        opts["items"] = (items,) if isinstance(items, str) else tuple(items)
    return opts


def tournament(game_name: str, players: int = 3, bots="random", games: int = 100,
               seed: int | None = 0, *, elimination: bool = False, items=None,
               case_module: bool = False, advanced: bool = False,
               workers: int | None = None, scheduler=None,
               progress: Callable[[int, int], Any] | None = None,
               chunk_size: int = CHUNK_SIZE) -> TournamentResult:
    """Play ``games`` games of ``game_name`` ("witness" or "knockout") between ``bots``.

    ``bots``: a comma-separated string or a list of specs/factories (see the
    module docstring: one per seat, or repeated to fill the seats).
    Options: ``elimination``, ``items`` (Knockout); ``case_module``,
    ``advanced`` (Witness). ``workers``: processes on this machine (default
    all cores; 1 runs here, serially). ``scheduler``: a Dask scheduler
    address or ``distributed.Client`` (then ``workers`` is ignored).
    ``progress(done_games, total_games)`` is called as chunks finish.
    The result depends only on (options, bots, games, seed, chunk_size).
    """
    from safari_kit.simulation.registry import BotSpecError, canonical_spec, parse_bots
    from safari_kit.simulation.runners import check_workers, run

    if game_name not in GAMES:
        raise ValueError(f"unknown game {game_name!r}; expected one of {', '.join(GAMES)}")
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise ValueError(f"players must be a whole number, got {players!r}")
    players = int(players)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {games!r}")
    games = int(games)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a whole number >= 1, got {chunk_size!r}")
    check_workers(workers)
    if seed is None:
        seed = fresh_seed()
    seed = Chance(seed).seed  # checks it

    entries = parse_bots(bots) if isinstance(bots, str) else list(bots)
    if not entries:
        raise BotSpecError("no bots given")
    lineup = []
    for e in entries:
        if isinstance(e, str):
            lineup.append(canonical_spec(game_name, e))
        elif callable(e):
            lineup.append(e)
        else:
            raise BotSpecError(f"a bot must be a spec such as 'random' or a bot class/factory, got {e!r}")
    if len(lineup) > players:
        raise BotSpecError(f"{len(lineup)} bots for {players} seats; give at most one per seat")
    lineup = [lineup[s % len(lineup)] for s in range(players)]

    options = _game_options(game_name, players, elimination, items, case_module, advanced)
    make_game(game_name, options)  # check the options here, before any worker starts
    for e in dict.fromkeys(x for x in lineup if isinstance(x, str)):
        _make(game_name, e)  # and that every bot can be built (e.g. its module is installed)
    opt_items = tuple(sorted(options.items()))

    tasks = [ChunkTask(game_name, opt_items, tuple(lineup), k, start, min(chunk_size, games - start), seed)
             for k, start in enumerate(range(0, games, chunk_size))]
    local = [e for e in lineup if not isinstance(e, str) and getattr(e, "__module__", None) == "__main__"]
    if local and scheduler is None and workers != 1:
        import warnings

        warnings.warn(f"{_labels(local)[0]} is defined in __main__ (a notebook or script), which worker "
                      f"processes cannot import: playing serially (same results, one core)", stacklevel=2)
        workers = 1
    t0 = time.perf_counter()
    parts = run(play_chunk, tasks, workers=workers, scheduler=scheduler, progress=progress,
                weights=[t.count for t in tasks])
    elapsed = time.perf_counter() - t0
    rows = [row for part in parts for row in part]

    labels = _labels(lineup)
    games_df, summary, by_seat, lengths = _build(rows, players, labels, lineup, chunk_size)
    if scheduler is not None:
        runner = f"dask ({scheduler if isinstance(scheduler, str) else type(scheduler).__name__})"
    else:
        from safari_kit.simulation.runners import default_workers

        n = min(workers or default_workers(), len(tasks))
        runner = "serial" if n == 1 else f"{n} processes"
    config = {"game": game_name, "players": players,
              "bots": [e if isinstance(e, str) else lab for e, lab in zip(lineup, labels)],
              "games": games, "seed": seed, "options": {k: v for k, v in options.items() if k != "players"},
              "chunk_size": chunk_size}
    return TournamentResult(games_df, summary, by_seat, config, runner, elapsed, lengths)


__all__ = ["tournament", "TournamentResult", "ChunkTask", "play_chunk", "chunk_seeds", "make_game",
           "wilson", "CHUNK_SIZE"]
