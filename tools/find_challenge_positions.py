"""Search seeds + bot play for the Challenge lab's starting positions (how POSITIONS were found).

Each candidate is a recipe (seed, turns played by bots, the other seats' bots);
:func:`safari_kit.simulation.challenge_positions.reach` replays it and
``facts`` describes the learner's choice there. The first seed meeting a
position's wish is printed (the lab must open on the learner's choice, with no bot's failure
shown first); the chosen recipes are then written by hand into
``POSITIONS`` (tests replay them and check each sentence's claim).

    .venv/bin/python tools/find_challenge_positions.py
    .venv/bin/python tools/find_challenge_positions.py --kind-rate   # how often a deal fits stop-or-go's kind
"""
from __future__ import annotations

from safari_kit.simulation.challenge_positions import Position, facts, reach, to_decision
from safari_kit.teaching import deck
from safari_kit.witness import actions as A
from safari_kit.witness.rules import Phase

WISHES = {
    # what each POSITIONS sentence claims (tests check the claims; the numbers in the sentences come from ``facts``)
    "stop-or-go": (dict(turns=(2, 3, 4, 5, 6), bot="random"),
                   lambda f, clue: f["face_down"] == 7 and f["remembered"] == 5 and f["remembered_safe"] == 5
                   and f["challenge"] > f["identify"] and f["identify"] < 1),
    # a fresh table, the learner first, the lesson's TAM Elephant as the clue
    "fresh": (dict(turns=(0,), first_player=0, bot="random"),
              lambda f, clue: f["face_down"] == 4 and f["remembered"] == 0 and clue == deck.first_named("TAM")),
    "close-call": (dict(turns=(2, 3, 4, 5, 6), bot="random"),
                   lambda f, clue: f["face_down"] == 8 and f["remembered"] == 5 and f["remembered_safe"] == 3
                   and f["remembered_match"] == 2 and f["identify"] == 2 and f["challenge"] > f["identify"]),
    "identify-sure": (dict(turns=(2, 3, 4, 5, 6), bot="random"),
                      lambda f, clue: f["face_down"] == 7 and f["remembered"] == 5 and f["remembered_safe"] == 2
                      and f["remembered_match"] >= 1 and f["identify"] == 2 and f["challenge"] < 1),
}


def opens_on_choice(state, seats, learner: int) -> bool:
    """Play on as the lab does (pausing on a bot's failure): the lab must open on the learner's choice."""
    if state.phase == Phase.FACE_UP and state.current_player == learner:
        state.apply(A.TurnFaceDown())
    seats.play_until_learner(state, show_failures=True)
    return not state.is_terminal() and state.current_player == learner and state.phase == Phase.CHOOSE


def search(key: str, seeds=range(0, 600)):
    spec, wish = WISHES[key]
    for turns in spec["turns"]:
        for seed in seeds:
            pos = Position(key, key, "", seed=seed, turns=turns, bot=spec["bot"],
                           first_player=spec.get("first_player"))
            game, state, seats = reach(pos)
            if not opens_on_choice(state, seats, pos.learner):
                continue
            to_decision(state, seats, pos.learner)
            if state.is_terminal():
                continue
            f = facts(state, pos.learner)
            clue = state.clue[0] if state.clue else None
            if wish(f, game.cards[clue].id if clue is not None else None):
                return pos, f
    return None, None


def kind_rate(key: str = "stop-or-go", deals: int = 400, seed: int = 27) -> None:
    """How often a random deal of a position's recipe is of its ``kind`` (issue 27), and what finding one costs.

    ``seed_of_kind`` tries deals until one fits: its mean number of tries is about 1 / rate.
    """
    import random
    import time

    from safari_kit.simulation.challenge_positions import fits_kind, position, seed_of_kind
    from safari_kit.simulation.challenge_positions import _reach  # the recipe without the kind's search

    pos = position(key)
    rng = random.Random(seed)
    fit = 0
    for _ in range(deals):
        _game, state, seats = _reach(pos, rng.getrandbits(63), None, None)
        to_decision(state, seats, pos.learner)
        fit += not state.is_terminal() and fits_kind(pos, facts(state, pos.learner))
    times = []
    for _ in range(50):
        t0 = time.perf_counter()
        seed_of_kind(pos, rng.getrandbits(63))
        times.append(time.perf_counter() - t0)
    times.sort()
    print(f"{key}: {fit} of {deals} random deals are of its kind ({fit / deals:.1%}); seed_of_kind over 50 "
          f"secret-like seeds: median {times[25] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    import sys

    if "--kind-rate" in sys.argv:
        kind_rate()
        raise SystemExit(0)
    for key in WISHES:
        pos, f = search(key)
        if pos is None:
            print(f"{key}: none found")
            continue
        print(f"{key}: {pos.options()}")
        print("   ", {k: (v if isinstance(v, int) else f"{v} ≈ {float(v):.3f}") for k, v in f.items()})
