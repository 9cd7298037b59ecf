"""How often does the Challenge lab's stop-or-continue choice come up? (issue 12)

Over many seeds of the lab's default starting position (the recipe of
``DEFAULT_POSITION``: its bots, players and number of turns, replayed with each
seed), the learner's seat plays the lab's optimal policy to the end of the
game: Identify or Challenge by the larger expected number of cards archived,
Identify with the best declaration, a Challenge revealed and stopped by
``challenge_decision``. A challenge *reaches the decision* when at some moment
Stop is allowed while a face-down place is still left to reveal.

    .venv/bin/python tools/challenge_decision_share.py            # 200 seeds, the default position
    .venv/bin/python tools/challenge_decision_share.py --seeds 50 --position fresh
"""
from __future__ import annotations

import argparse
import time

from safari_kit.simulation.challenge_positions import POSITIONS, decision_share, position


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=200, help="seeds 0..N-1 (default 200)")
    ap.add_argument("--position", default=None, choices=[p.key for p in POSITIONS],
                    help="a position's recipe (default: the lab's default position)")
    ap.add_argument("--first-only", action="store_true", help="only the learner's first turn of each game")
    args = ap.parse_args(argv)
    pos = position(args.position)
    t = time.perf_counter()
    r = decision_share(range(args.seeds), pos, first_only=args.first_only)
    secs = time.perf_counter() - t
    recipe = {k: v for k, v in pos.options().items() if k != "seed"}
    print(f"position {pos.key!r} ({pos.title}), recipe {recipe}, seeds 0..{args.seeds - 1}"
          + (", first turn only" if args.first_only else ", played to the end of each game"))
    print(f"learner turns: {r['turns']}; Identify {r['identifies']}, Challenge {r['challenges']}")
    if r["challenges"]:
        print(f"stop-or-continue choice came up in {r['decision_came_up']} of {r['challenges']} challenges: "
              f"share {float(r['share']):.3f}  (target: at least 0.5)")
        print(f"mean cards archived per challenge: {float(r['mean_archived_per_challenge']):.2f}")
    print(f"({secs:.1f} s)")
    return r


if __name__ == "__main__":
    main()
