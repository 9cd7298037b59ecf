"""Issue 30: what the learner did is said in the second person in Spanish ("Dijiste", never "Tú dijo").

A Spanish turn of the Full game (tests/browser/spanish_turns.py) read "Tú dijo Nombre en el lugar 1 y encontró
...": the news and the failure line wrote every seat's deeds with one sentence, ``{who} dijo``, and the learner's
seat as ``{who}`` = "Tú", with the verb of the third person. The learner's own deeds now have sentences of their
own (English is word for word the same: "You declared ..."), like the seats' badges (CONTRIBUTING, "A seat's
badge"); the Knockout round's summary says "tú ganaste 1".
"""
from __future__ import annotations

import re

import pytest

from safari_kit.core.i18n import language
from safari_kit.presentation.knockout_text import round_words
from safari_kit.presentation.narration import describe_event, why_failed
from safari_kit.witness import WitnessGame
from safari_kit.witness.rules import Event

GAME = WitnessGame(players=3)
A, B = GAME.cards[0].id, GAME.cards[1].id
#: one event of each kind a seat does, as the observation log holds them
EVENTS = [
    {"kind": Event.IDENTIFY, "success": True, "types": ("color",), "place": 2, "card": A},
    {"kind": Event.IDENTIFY, "success": True, "types": ("color",), "place": 2, "card": A, "clue": A},
    {"kind": Event.CHALLENGE, "card": A},
    {"kind": Event.CHALLENGE_REVEAL, "safe": True, "place": 3, "card": B},
    {"kind": Event.FAIL, "to_places": [{"place": 4}], "face_up": []},
    {"kind": Event.FAIL, "to_places": [{"place": 4}, {"place": 5}], "face_up": []},
    {"kind": Event.ARCHIVE, "cards": [A, B]},
    {"kind": Event.TOM, "place": 1, "card": A},
    {"kind": Event.TOM, "place": 1},
    {"kind": Event.SAM, "places": (1, 2)},
    {"kind": Event.TAM, "first": 1, "second": 2},
    {"kind": Event.KIM, "card": A, "place": 2},
    {"kind": Event.KRIS, "element": "Teal", "place": 2, "card": A, "archived": True},
    {"kind": Event.ALAN_TAKE, "card": A},
]


@pytest.mark.parametrize("event", EVENTS, ids=[f"{e['kind']}-{i}" for i, e in enumerate(EVENTS)])
def test_the_learners_deed_is_in_the_second_person_in_spanish(event):
    with language("es"):
        mine = describe_event({**event, "player": 0}, GAME, 0)
        theirs = describe_event({**event, "player": 1}, GAME, 0)
    assert not mine.startswith("Tú "), mine  # "Tú dijo", "Tú falló": a third-person verb after "Tú"
    assert theirs.startswith("Jugador 1 "), theirs
    assert describe_event({**event, "player": 0}, GAME, 0).startswith("You "), "English changed"


def test_the_learners_failure_line_in_spanish():
    clue, card = next((a.id, b.id) for a in GAME.cards for b in GAME.cards
                      if a.id != b.id and not GAME.shared(GAME.index[a.id], GAME.index[b.id], "color"))
    log = [{"kind": Event.IDENTIFY, "success": False, "types": ("color",), "place": 1, "card": card, "clue": clue,
            "player": 0}]
    with language("es"):
        said = why_failed(log, GAME, viewer=0)
    assert said.startswith("Dijiste Color en el lugar 1 y encontraste "), said
    assert why_failed(log, GAME, viewer=0).startswith("You declared Color at place 1 and found ")


def test_the_knockout_round_says_tu_ganaste():
    with language("es"):
        said = round_words([{"winner": 1}, {"winner": 0}, {"winner": 1}], 0, 2, [1, 2], 1)
    assert "tú ganaste 1" in said and not re.search(r"\btú ganó\b", said), said
    assert "you won 1, Player 1 won 2" in round_words([{"winner": 1}, {"winner": 0}, {"winner": 1}], 0, 2, [1, 2], 1)
