"""``safari-kit bench``: every speed figure of the kit beside its target, measured on one core.

Each figure runs in this process (one core), timed with ``time.perf_counter``,
as the best of a few repeats after a warm-up; ``quick=True`` uses small counts
(seconds, not minutes: fine for a smoke test, noisier). Figures whose code is
not installed print ``n/a (not available)``. Nothing here is asserted by a test:
speed depends on the machine and on what else it is doing.

>>> fig = Figure("demo", "a demo", "games/s", 1000, "min", value=1500.0)
>>> fig.status
'meets'
>>> fig.target_text
'≥ 1,000'
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from typing import Callable

TARGETS = {  # key: (label, unit, target, kind)   kind "min": value >= target; "max": value <= target
    "identify_query": ("exact identification query (Witness, P(match))", "µs", 50, "max"),
    "next_reveal_query": ("exact next-reveal query (Witness, P(next safe))", "µs", 50, "max"),
    "knockout_engine": ("random 4-player Knockout games, engine loop", "games/s", 3_000, "min"),
    "knockout_play_game": ("random 4-player Knockout games, play_game", "games/s", 3_000, "min"),
    "knockout_vector_random": ("vectorised 4-player Knockout, random play", "games/s", 200_000, "min"),
    "knockout_vector_greedy": ("vectorised 4-player Knockout, greedy lead", "games/s", 200_000, "min"),
    "witness_loop": ("random 3-player Witness games, engine loop", "games/s", 1_000, "min"),
    "witness_engine": ("random 3-player Witness games, play_game", "games/s", 1_000, "min"),
    "challenge_vector": ("challenge streaks, vectorised", "trials/s", 1_000_000, "min"),
    "knockout_clone": ("Knockout state.clone()", "µs", 9.99, "max"),
}


class NotAvailable(Exception):
    """The code a figure measures is not installed (yet)."""


@dataclass
class Figure:
    key: str
    label: str
    unit: str
    target: float
    kind: str  # "min": higher is better; "max": lower is better
    value: float | None = None
    note: str = ""

    @property
    def status(self) -> str:
        if self.value is None:
            return "n/a"
        ok = self.value >= self.target if self.kind == "min" else self.value <= self.target
        return "meets" if ok else "misses"

    @property
    def target_text(self) -> str:
        if self.key == "knockout_clone":
            return "< 10 (single digit)"
        return ("≥ " if self.kind == "min" else "≤ ") + _num(self.target)

    @property
    def value_text(self) -> str:
        if self.value is None:
            return "n/a (error)" if self.note.startswith("error") else "n/a (not available)"
        return _num(self.value)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.update(status=self.status, target_text=self.target_text)
        return d


def _num(x: float) -> str:
    if float(x).is_integer() and x >= 10:
        return f"{x:,.0f}"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def _best(fn: Callable[[], object], repeats: int) -> float:
    """Best wall time of ``fn()`` over ``repeats`` runs (after one warm-up run)."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


# ---------------------------------------------------------------- figures
def _witness_knowledge():
    """A mid-game Witness position (3 players, turn >= 8, a clue on the table) and its Knowledge."""
    try:
        from safari_kit.probability.knowledge import Knowledge
        from safari_kit.probability import witness as pw  # noqa: F401
    except ImportError as exc:
        raise NotAvailable(str(exc)) from None
    from safari_kit.simulation.bots import RandomBot
    from safari_kit.core.chance import Chance
    from safari_kit.witness import WitnessGame

    game = WitnessGame(players=3)
    for seed in range(100):
        state = game.new_initial_state(seed=seed)
        bots = [RandomBot() for _ in range(3)]
        for s, b in enumerate(bots):
            b.start(game, s, Chance(seed).generator("bot", s))
        while not state.is_terminal():
            if state.phase == "choose" and state.turn >= 8 and len(state.available_places()) >= 4:
                p = state.current_player
                kn = Knowledge.from_observation(state.observation(p), game=game)
                if kn.clue and kn.available:
                    return game, kn
            seat = state.current_player
            state.apply(bots[seat].choose(None, state.legal_sequence()))
    raise NotAvailable("no mid-game Witness position found")  # pragma: no cover


def identify_query(quick: bool) -> float:
    """µs per exact P(match) query (one clue, one place, one clue type) in a mid-game position."""
    from safari_kit.probability.witness import p_match

    game, kn = _witness_knowledge()
    clue = kn.clue[0]
    queries = [(p, t) for p in kn.available for t in ("animal", "texture", "color", "name")]
    reps = 20 if quick else 200

    def run():
        for _ in range(reps):
            for p, t in queries:
                p_match(kn, clue, p, t)
    return _best(run, 3 if quick else 5) / (reps * len(queries)) * 1e6


def next_reveal_query(quick: bool) -> float:
    """µs per exact P(next reveal safe) query for a Challenge of the turn's clue."""
    from safari_kit.probability.witness import p_safe_next

    game, kn = _witness_knowledge()
    clue = kn.clue[0]
    reps = 200 if quick else 3000

    def run():
        for _ in range(reps):
            p_safe_next(kn, clue)
    return _best(run, 3 if quick else 5) / reps * 1e6


def _engine_games(game, n: int) -> Callable[[], None]:
    from safari_kit.simulation.bots import RandomBot
    from safari_kit.simulation.play import play_game

    bots = [RandomBot() for _ in range(game.players)]

    def run():
        for seed in range(n):
            play_game(game, bots, seed)
    return run


def _engine_loop(game, n: int) -> Callable[[], None]:
    """The bare engine: ``new_initial_state(seed)``, then legal actions + ``apply`` with random choices
    (``random.Random``, as ``tools/bench_knockout.py``): no bots, no per-bot generators."""
    import random

    def run():
        rand = random.Random(0).random
        for seed in range(n):
            state = game.new_initial_state(seed=seed)
            legal = state.legal_sequence if hasattr(state, "legal_sequence") else state.legal_actions
            apply, done = state.apply, state.is_terminal
            while not done():
                options = legal()
                apply(options[int(rand() * len(options))])
    return run


def knockout_engine(quick: bool) -> float:
    """Random 4-player Knockout games/s through the checked engine (legal_actions + apply)."""
    from safari_kit.knockout import KnockoutGame

    n = 200 if quick else 2000
    return n / _best(_engine_loop(KnockoutGame(players=4), n), 2 if quick else 5)


def knockout_play_game(quick: bool) -> float:
    """Random 4-player Knockout games/s: ``play_game`` with four ``RandomBot`` (what tournaments run)."""
    from safari_kit.knockout import KnockoutGame

    n = 200 if quick else 2000
    return n / _best(_engine_games(KnockoutGame(players=4), n), 2 if quick else 5)


def witness_loop(quick: bool) -> float:
    """Random 3-player Witness games/s through the checked engine (legal_sequence + apply)."""
    from safari_kit.witness import WitnessGame

    n = 60 if quick else 600
    return n / _best(_engine_loop(WitnessGame(players=3), n), 2 if quick else 5)


def witness_engine(quick: bool) -> float:
    """Random 3-player Witness games/s: ``play_game`` with ``RandomBot`` (``legal_sequence()``)."""
    from safari_kit.witness import WitnessGame

    n = 60 if quick else 600
    return n / _best(_engine_games(WitnessGame(players=3), n), 2 if quick else 5)


def knockout_clone(quick: bool) -> float:
    """µs per ``KnockoutState.clone()`` in round 2 of a 4-player game."""
    from safari_kit.knockout import KnockoutGame

    state = KnockoutGame(players=4).new_initial_state(seed=1)
    for _ in range(40):
        state.apply(state.legal_actions()[0])
    n = 20_000 if quick else 200_000
    clone = state.clone

    def run():
        for _ in range(n):
            clone()
    return _best(run, 3) / n * 1e6


def _knockout_batch(policy: str, quick: bool) -> float:
    try:
        from safari_kit.simulation import knockout_batch as kb
    except ImportError as exc:
        raise NotAvailable(str(exc)) from None
    sim = getattr(kb, "simulate_knockout", None)
    if sim is None:
        raise NotAvailable("safari_kit.simulation.knockout_batch has no simulate_knockout")
    from safari_kit.knockout import KnockoutGame

    game = KnockoutGame(players=4)
    n = 20_000 if quick else 200_000
    return n / _best(lambda: sim(n, game=game, lead=policy, follow="random", seed=1), 2 if quick else 3)


def knockout_vector_random(quick: bool) -> float:
    """Vectorised 4-player Knockout games/s, random play (``knockout_batch``)."""
    return _knockout_batch("random", quick)


def knockout_vector_greedy(quick: bool) -> float:
    """Vectorised 4-player Knockout games/s, greedy lead (``HighCardBot``'s rank rule), random follow."""
    return _knockout_batch("greedy", quick)


def challenge_vector(quick: bool) -> float:
    """Vectorised challenge-streak trials/s (``challenge_batch.simulate_streaks``)."""
    try:
        from safari_kit.simulation import challenge_batch as cb
    except ImportError as exc:
        raise NotAvailable(str(exc)) from None
    sim = getattr(cb, "simulate_streaks", None)
    if sim is None:
        raise NotAvailable("safari_kit.simulation.challenge_batch has no simulate_streaks")
    n = 200_000 if quick else 2_000_000
    # a typical position: 30 safe among 74 unknown, 10 places, stop after 6 safe reveals
    rule = cb.fixed_rule(6) if hasattr(cb, "fixed_rule") else None
    kw = {} if rule is None else {"rule": rule}
    return n / _best(lambda: sim(30, 74, 10, n, 1, **kw), 2 if quick else 3)


MEASURES: dict[str, Callable[[bool], float]] = {
    "identify_query": identify_query,
    "next_reveal_query": next_reveal_query,
    "knockout_engine": knockout_engine,
    "knockout_play_game": knockout_play_game,
    "knockout_vector_random": knockout_vector_random,
    "knockout_vector_greedy": knockout_vector_greedy,
    "witness_loop": witness_loop,
    "witness_engine": witness_engine,
    "challenge_vector": challenge_vector,
    "knockout_clone": knockout_clone,
}


def run_bench(quick: bool = False, only=None, progress: Callable[[str], object] | None = None) -> list[Figure]:
    """Measure every figure (or those keyed in ``only``); missing code gives ``value=None``."""
    figures = []
    for key, measure in MEASURES.items():
        if only is not None and key not in only:
            continue
        label, unit, target, kind = TARGETS[key]
        fig = Figure(key, label, unit, target, kind)
        if progress is not None:
            progress(label)
        try:
            fig.value = float(measure(quick))
        except NotAvailable as exc:
            fig.note = f"not available: {exc}"
        except Exception as exc:  # a figure that breaks must not hide the others
            fig.note = f"error: {type(exc).__name__}: {exc}"
        figures.append(fig)
    return figures


def format_table(figures: list[Figure], quick: bool = False) -> str:
    """The figures as an aligned text table: measured value, unit, target, status."""
    head = ("figure", "measured", "unit", "target", "status")
    rows = [(f.label, f.value_text, f.unit, f.target_text, f.status) for f in figures]
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    align = ("<", ">", "<", "<", "<")

    def line(r):
        return "  ".join(f"{c:{a}{w}}" for c, a, w in zip(r, align, widths)).rstrip()
    out = [line(head), line(tuple("-" * w for w in widths))] + [line(r) for r in rows]
    met = sum(f.status == "meets" for f in figures)
    out.append("")
    out += [f"{f.label}: {f.note}" for f in figures if f.note]
    out.append(f"{met} of {len(figures)} figures meet their target "
               f"(one core, best of a few repeats{'; --quick: small counts, rough' if quick else ''}).")
    return "\n".join(out)


def to_json(figures: list[Figure], quick: bool = False) -> str:
    import os
    import platform

    return json.dumps({"quick": quick, "python": platform.python_version(), "machine": platform.machine(),
                       "cpu_count": os.cpu_count(), "figures": [f.to_dict() for f in figures]}, indent=2)


__all__ = ["Figure", "TARGETS", "MEASURES", "run_bench", "format_table", "to_json", "NotAvailable"]
