"""What a screen reader says: the names of places and cards, and one sentence after each reveal (issue 20).

A sighted learner sees a place's number, whether its card is face down, the chance written under it, and
after a reveal the card itself with the lab's verdict. These functions say the same in words, built from
what the viewer may see only: a face-down place's name holds its number and the public chance, never its
card; a reveal's sentence is made from the viewer's own observation log event (the card it names is face up
for everyone at that moment, W4/W5), so it says nothing the log does not.

>>> from fractions import Fraction
>>> chance_words(("color",), (14, 74))
'chance of a Color match 14 of 74'
>>> place_name(3, chance="chance of a Color match 14 of 74")
'Place 3, face down, chance of a Color match 14 of 74'
"""
from __future__ import annotations

from fractions import Fraction

from safari_kit.presentation.narration import card_label, shared_words, types_label
from safari_kit.witness.rules import Event

__all__ = ["chance_words", "count_words", "place_name", "identify_sentence", "challenge_sentence",
           "remember_words"]


def count_words(value, count: tuple[int, int] | None = None) -> str:
    """A chance as a screen reader should say it, count first: "14 of 74" ("14/74" is read "14 slash 74").

    >>> count_words(Fraction(7, 37), (14, 74)), count_words(Fraction(1, 2)), count_words(1), count_words(0)
    ('14 of 74', '1 of 2', 'certain', 'none')
    """
    if count is None:
        count = tuple(getattr(value, "count", None) or ()) or None
    value = Fraction(getattr(value, "value", value))
    if value == 1:
        return "certain"
    if value == 0:
        return "none"
    fav, total = count if count else (value.numerator, value.denominator)
    if Fraction(fav, total) != value:
        raise ValueError(f"count {fav}/{total} does not give the chance {value}")
    return f"{fav} of {total}"


def chance_words(types, count: tuple[int, int] | None, value=None) -> str:
    """The chance under a place, in words: "chance of a Color match 14 of 74" (``types``: the declared types;
    ``count``: favourable and equally likely cases, or None to say ``value`` reduced)."""
    label = types_label(types)
    article = "an" if label[:1] in "AEIOU" else "a"
    value = Fraction(*count) if value is None else value
    return f"chance of {article} {label} match {count_words(value, count)}"


def place_name(place: int, card_words: str | None = None, chance: str | None = None) -> str:
    """A place's accessible name: "Place 3, face down, chance of a Color match 14 of 74", or, face up,
    "Place 3, face up: Pink Owl, Wood, named KIM". ``card_words`` only for a face-up card."""
    text = f"Place {int(place)}, " + (f"face up: {card_words}" if card_words else "face down")
    return text + (f", {chance}" if chance else "")


def remember_words(n: int) -> str:
    """What a failed turn asks of everyone: remember the face-up cards until the next turn begins."""
    if n <= 1:
        return "Remember it: it turns face down when the next turn begins."
    return f"Remember them: these {n} cards turn face down when the next turn begins."


def _face_up_count(state, viewer: int) -> int:
    obs = state.observation(viewer).to_dict()
    return sum(1 for _place, cid in obs["unidentified"] if cid is not None)


def identify_sentence(game, event: dict, state, viewer: int) -> str:
    """After a declaration (an ``identify`` log event of ``viewer``'s observation), the one sentence said.

    "Place 3: Pink Owl, Wood, named KIM. No match: your turn ends. Remember it: it turns face down when the
    next turn begins." ``state``: the state after the declaration (to say what comes next). Raises
    ValueError for another kind of event.
    """
    if event.get("kind") != Event.IDENTIFY:
        raise ValueError(f"not a declaration: {event.get('kind')!r}")
    mine = event.get("player") == viewer
    head = f"Place {event['place']}: {card_label(game, event['card'])}."
    if event["success"]:
        shared = shared_words(game, event["clue"], event["card"], event["types"]) if event.get("clue") else []
        text = head + " Match" + (f": it shares {' and '.join(shared)} with the clue." if shared else ".")
        if mine and not state.is_terminal() and state.current_player == viewer and state.phase == "identify":
            text += " Now identify your other clue card."
        return text
    whose = "your" if mine else f"Player {event.get('player')}'s"
    return f"{head} No match: {whose} turn ends. {remember_words(_face_up_count(state, viewer))}"


def challenge_sentence(game, event: dict, state, viewer: int, safe_so_far: int | None = None) -> str:
    """After one reveal of a Challenge (a ``challenge_reveal`` event), the one sentence said.

    Safe: "Place 5: Teal Owl, Wood, named KIM. Safe: 2 safe so far." Not safe: what it shares with the
    challenged card, that the Challenge fails, and what to remember. ``clue`` is read from the log.
    """
    if event.get("kind") != Event.CHALLENGE_REVEAL:
        raise ValueError(f"not a Challenge reveal: {event.get('kind')!r}")
    head = f"Place {event['place']}: {card_label(game, event['card'])}."
    if event["safe"]:
        return head + " Safe" + (f": {safe_so_far} safe so far." if safe_so_far is not None else ".")
    log = [e for e, *_ in state.log] if state.log and isinstance(state.log[0], tuple) else list(state.log)
    clue = next((e["card"] for e in reversed(log) if e.get("kind") == Event.CHALLENGE), None)
    shared = shared_words(game, clue, event["card"]) if clue else []
    why = f": it shares {' and '.join(shared)} with the challenged card" if shared else ""
    whose = "your" if event.get("player") == viewer else f"Player {event.get('player')}'s"
    return (f"{head} Not safe{why}. {whose[0].upper() + whose[1:]} challenge fails. "
            f"{remember_words(_face_up_count(state, viewer))}")
