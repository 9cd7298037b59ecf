"""Lesson 07 · Rules tutorial: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from .common import _n_witness, _rules
from .core import Fact, Given


@lru_cache(maxsize=None)
def _k07() -> dict:
    """The rules tutorial's numbers: its scripts (played by the engines) and the rules they show."""
    from safari_kit.knockout.rules import ROUNDS, cards_per_player
    from safari_kit.teaching import lesson_07
    from safari_kit.tutorial import tutorials as T
    from safari_kit.witness.state import UNIDENTIFIED_SIZE

    log = [e for e, _, _ in T.witness_script().states()[-1].log]
    fail = next(e for e in log if e["kind"] == "fail")
    tom = next(e for e in log if e["kind"] == "tom")
    witness_players = T.witness_script().new_state().game.players
    (other,) = set(range(witness_players)) - {tom["player"]}
    knockout_players = T.knockout_script().new_state().game.players
    (c,) = {cards_per_player(r) + r for r in range(1, ROUNDS + 1)}
    r = lesson_07.QUIZ_ROUND
    return {"deck": len(T.WITNESS_DECK), "refill": UNIDENTIFIED_SIZE, "failed": fail["player"],
            "face_up": len(fail["face_up"]), "c": c, "round": r, "wrong_deal": cards_per_player(r - 1),
            "seats": tuple(range(knockout_players)), "other": other, "min_safe": _rules()["min_safe"]}


def _f7(*keys: str) -> Callable[[], tuple]:
    return lambda: tuple(_k07()[key] for key in keys)



FACTS: tuple[Fact, ...] = (
    Fact("07", "The deck is small: {} cards, always in the same order", _f7("deck")),
    Fact("07", "You knew four more because everybody saw them when Player {} failed", _f7("failed")),
    Fact("07", "in this {}-card deck it could only be one card", _f7("deck")),
    Fact("07", "In a full {}-card deck it would have been the real gamble", lambda: (_n_witness(),)),
    Fact("07", "(round r deals {} − r cards)", _f7("c")),
    Fact("07", "how many cards does each player get in round {}?", _f7("round")),
    Fact("07", "Answer with the player's number: {}, {} or {}.", lambda: _k07()["seats"]),
    Fact("07", "Player {} failed an identification with two clue cards", _f7("failed")),
    Fact("07", "round r has only {} − r turns", _f7("c")),
    Fact("07", "round {} deals {} cards (confusing the round number with the hand size) or {}",
         _f7("round", "round", "wrong_deal")),
    Fact("07", "{} safe reveals (counting the challenged card)", lambda: (_k07()["min_safe"] + 1,)),
    Fact("07", "{} new places after the failure (the identified cards keep their own places)", _f7("face_up")),
    Fact("07", "discuss what Player {} does not know (the TOM look)", _f7("other")),
)

GIVEN: tuple[Given, ...] = (
)
