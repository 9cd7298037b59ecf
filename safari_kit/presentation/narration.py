"""A Witness game's log told in a learner's words (no widgets needed).

Every line comes from one seat's observation log, so it holds only what that
seat saw: public reveals, and its own TOM looks (other seats' looks appear
without the card). The event kinds are :class:`safari_kit.witness.rules.Event`.
"""
from __future__ import annotations

from safari_kit.presentation.views import mugshot_face
from safari_kit.witness.rules import Event

TYPE_WORDS = {"animal": "Animal", "texture": "Texture", "color": "Color", "name": "Name"}


def types_label(types) -> str:
    return " + ".join(TYPE_WORDS[t] for t in types)


def card_label(game, cid: str) -> str:
    """A card as words, readable without color: e.g. "Violet Owl, Wood, named TAM"."""
    return mugshot_face(game.cards[game.index[cid]])["label"]


def who(player, viewer) -> str:
    return "You" if player == viewer else f"Player {player}"


def describe_event(event: dict, game, viewer: int | None) -> str | None:
    """One log event of ``viewer``'s observation in words (None for events not worth a line)."""
    kind = event.get("kind")
    name = who(event.get("player"), viewer)

    def face(cid: str) -> str:
        return card_label(game, cid)

    if kind == Event.CLUE:
        return f"{name}: clue card {face(event['card'])} revealed."
    if kind == Event.IDENTIFY:
        ok = "match" if event["success"] else "no match"
        clue = f" of clue card {face(event['clue'])}" if event.get("clue") else ""
        return (f"{name} declared {types_label(event['types'])}{clue} at place {event['place']}: "
                f"{face(event['card'])} — {ok}.")
    if kind == Event.CHALLENGE:
        return f"{name} challenged with {face(event['card'])}."
    if kind == Event.CHALLENGE_REVEAL:
        return (f"{name} revealed place {event['place']}: {face(event['card'])} — "
                f"{'safe' if event['safe'] else 'NOT safe'}.")
    if kind == Event.FAIL:
        places = ", ".join(str(m["place"]) for m in event["to_places"])
        shown = "; ".join(f"place {m['place']}: {face(m['card'])}" for m in event.get("face_up", []))
        text = f"{name} failed; the clue card(s) went face up to place(s) {places}."
        return text + (f" Face up for everyone: {shown}." if shown else "")
    if kind == Event.FACE_DOWN:
        return "The face-up cards were turned face down."
    if kind == Event.ARCHIVE:
        n = len(event["cards"])
        return f"{name} archived {n} card{'s' if n != 1 else ''}."
    if kind == Event.TOM:
        if "card" in event:
            return f"{name} looked at place {event['place']} with TOM: {face(event['card'])}."
        return f"{name} looked at place {event['place']} with TOM."
    if kind == Event.SAM:
        a, b = event["places"]
        return f"{name} shuffled places {a} and {b} with SAM (swapped or not: nobody knows)."
    if kind == Event.TAM:
        return f"{name} swapped {event['first']} and {event['second']} with TAM."
    if kind == Event.KIM:
        return f"{name} sent {face(event['card'])} back face down to place {event['place']} with KIM."
    if kind == Event.KRIS:
        return (f"{name} named {event['element']} with KRIS at place {event['place']}: {face(event['card'])}, "
                f"{'archived' if event['archived'] else 'back face down'}.")
    if kind == Event.ALAN_TAKE:
        return f"{name} took {face(event['card'])} back into the Clue Area with ALAN."
    if kind == Event.END:
        return f"Game over ({event['reason']}). Scores: {event['scores']}."
    return None
