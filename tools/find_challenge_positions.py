"""Search seeds + bot play for the Challenge lab's starting positions (how POSITIONS were found).

Each candidate is a recipe (seed, turns played by bots, the other seats' bots);
:func:`safari_kit.simulation.challenge_positions.reach` replays it and
``facts`` describes the learner's choice there. The first seed meeting a
position's wish is printed; the chosen recipes are then written by hand into
``POSITIONS`` (tests replay them and check each sentence's claim).

    .venv/bin/python tools/find_challenge_positions.py
"""
from __future__ import annotations

from safari_kit.simulation.challenge_positions import Position, facts, reach, to_decision
from safari_kit.teaching import deck

WISHES = {
    # a fresh table, the learner first, the lesson's TAM Elephant as the clue
    "fresh": (dict(turns=(0,), first_player=0, bot="random"),
              lambda f, clue: f["face_down"] == 4 and f["remembered"] == 0 and clue == deck.first_named("TAM")),
    "remember-3": (dict(turns=(2, 3, 4, 5, 6), bot="random"),
                   lambda f, clue: f["face_down"] == 8 and f["remembered"] == 3 and f["remembered_safe"] == 3
                   and f["challenge"] > f["identify"]),
    "stop-or-go": (dict(turns=(2, 3, 4, 5, 6), bot="random"),
                   lambda f, clue: f["remembered_safe"] >= 5 and f["unknown_places"] >= 2
                   and f["challenge"] > f["identify"] and f["identify"] < 1),
    "identify-sure": (dict(turns=(2, 3, 4, 5, 6), bot="random"),
                      lambda f, clue: f["remembered"] >= 3 and f["remembered_match"] >= 1 and f["identify"] == 2
                      and f["challenge"] < 1 and f["face_down"] >= 6),
}


def search(key: str, seeds=range(0, 600)):
    spec, wish = WISHES[key]
    for turns in spec["turns"]:
        for seed in seeds:
            pos = Position(key, key, "", seed=seed, turns=turns, bot=spec["bot"],
                           first_player=spec.get("first_player"))
            game, state, seats = reach(pos)
            to_decision(state, seats, pos.learner)
            if state.is_terminal():
                continue
            f = facts(state, pos.learner)
            clue = state.clue[0] if state.clue else None
            if wish(f, game.cards[clue].id if clue is not None else None):
                return pos, f
    return None, None


if __name__ == "__main__":
    for key in WISHES:
        pos, f = search(key)
        if pos is None:
            print(f"{key}: none found")
            continue
        print(f"{key}: {pos.options()}")
        print("   ", {k: (v if isinstance(v, int) else f"{v} ≈ {float(v):.3f}") for k, v in f.items()})
