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
from safari_kit.core.i18n import _, and_join
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
        return _("certain")
    if value == 0:
        return _("none")
    fav, total = count if count else (value.numerator, value.denominator)
    if Fraction(fav, total) != value:
        raise ValueError(f"count {fav}/{total} does not give the chance {value}")
    return _("{favourable} of {total}").format(favourable=fav, total=total)


def chance_words(types, count: tuple[int, int] | None, value=None) -> str:
    """The chance under a place, in words: "chance of a Color match 14 of 74" (``types``: the declared types;
    ``count``: favourable and equally likely cases, or None to say ``value`` reduced)."""
    label = types_label(types)
    value = Fraction(*count) if value is None else value
    return (_("chance of an {types} match {chance}") if label[:1] in "AEIOU" else
            _("chance of a {types} match {chance}")).format(types=label, chance=count_words(value, count))


def place_name(place: int, card_words: str | None = None, chance: str | None = None) -> str:
    """A place's accessible name: "Place 3, face down, chance of a Color match 14 of 74", or, face up,
    "Place 3, face up: Pink Owl, Wood, named KIM". ``card_words`` only for a face-up card."""
    text = (_("Place {place}, face up: {card}").format(place=int(place), card=card_words) if card_words else
            _("Place {place}, face down").format(place=int(place)))
    return text + (f", {chance}" if chance else "")


def remember_words(n: int) -> str:
    """What a failed turn asks of everyone: remember the face-up cards until the next turn begins."""
    if n <= 1:
        return _("Remember it: it turns face down when the next turn begins.")
    # TRANSLATORS: n is 2 or more
    return _("Remember them: these {n} cards turn face down when the next turn begins.").format(n=n)


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
    head = _("Place {place}: {card}.").format(place=event['place'], card=card_label(game, event['card']))
    if event["success"]:
        shared = shared_words(game, event["clue"], event["card"], event["types"]) if event.get("clue") else []
        text = head + " " + (_("Match: it shares {shared} with the clue.").format(shared=and_join(shared)) if shared
                             else _("Match."))
        if mine and not state.is_terminal() and state.current_player == viewer and state.phase == "identify":
            text += " " + _("Now identify your other clue card.")
        return text
    ends = (_("No match: your turn ends.") if mine else
            _("No match: Player {player}'s turn ends.").format(player=event.get('player')))
    return f"{head} {ends} {remember_words(_face_up_count(state, viewer))}"


def challenge_sentence(game, event: dict, state, viewer: int, safe_so_far: int | None = None) -> str:
    """After one reveal of a Challenge (a ``challenge_reveal`` event), the one sentence said.

    Safe: "Place 5: Teal Owl, Wood, named KIM. Safe: 2 safe so far." Not safe: what it shares with the
    challenged card, that the Challenge fails, and what to remember. ``clue`` is read from the log.
    """
    if event.get("kind") != Event.CHALLENGE_REVEAL:
        raise ValueError(f"not a Challenge reveal: {event.get('kind')!r}")
    head = _("Place {place}: {card}.").format(place=event['place'], card=card_label(game, event['card']))
    if event["safe"]:
        return head + " " + (_("Safe: {n} safe so far.").format(n=safe_so_far) if safe_so_far is not None else
                             _("Safe."))
    log = [e for e, *_ in state.log] if state.log and isinstance(state.log[0], tuple) else list(state.log)
    clue = next((e["card"] for e in reversed(log) if e.get("kind") == Event.CHALLENGE), None)
    shared = shared_words(game, clue, event["card"]) if clue else []
    why = (_("Not safe: it shares {shared} with the challenged card.").format(shared=and_join(shared)) if shared
           else _("Not safe."))
    fails = (_("Your challenge fails.") if event.get("player") == viewer else
             _("Player {player}'s challenge fails.").format(player=event.get('player')))
    return f"{head} {why} {fails} {remember_words(_face_up_count(state, viewer))}"
