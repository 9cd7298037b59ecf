"""Benchmark the Safari Knockout engine: random games through the checked API, and clone().

    .venv/bin/python tools/bench_knockout.py [--games N] [--players P] [--elimination]

Each game: new_initial_state(seed) (7 deck shuffles), then legal_actions() +
apply() until the end, choices from a seeded random.Random (bench only).
"""
from __future__ import annotations

import argparse
import random
import time

from safari_kit.knockout import KnockoutGame


def play_games(game: KnockoutGame, n: int, seed: int = 0) -> int:
    rng = random.Random(seed)
    rand = rng.random
    actions = 0
    for g in range(n):
        state = game.new_initial_state(seed=seed + g)
        legal, apply = state.legal_actions, state.apply
        done = state.is_terminal
        while not done():
            options = legal()
            apply(options[int(rand() * len(options))])
        actions += len(state._history)
    return actions


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--elimination", action="store_true")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = ap.parse_args(argv)

    game = KnockoutGame(players=args.players, elimination=args.elimination)
    play_games(game, 50)                                   # warm up
    best = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        actions = play_games(game, args.games)
        best = min(best, time.perf_counter() - t)
    print(f"{args.players} players, elimination={args.elimination}: {args.games} games in {best:.3f} s "
          f"= {args.games / best:,.0f} games/s ({best / args.games * 1e6:.0f} µs/game, "
          f"{actions / args.games:.0f} actions/game)")

    state = game.new_initial_state(seed=1)
    for _ in range(40):                                    # mid-game: round 2
        state.apply(state.legal_actions()[0])
    n = 200_000
    t = time.perf_counter()
    for _ in range(n):
        state.clone()
    dt = (time.perf_counter() - t) / n
    print(f"clone(): {dt * 1e6:.2f} µs (mid-game, {len(state._history)} actions in history)")

    t = time.perf_counter()
    for g in range(2000):
        game.new_initial_state(seed=g)
    print(f"new_initial_state(): {(time.perf_counter() - t) / 2000 * 1e6:.1f} µs (7 deck shuffles)")


if __name__ == "__main__":
    main()
