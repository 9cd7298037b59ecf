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


def _a(words: str) -> str:
    """``words`` with its indefinite article: "a Pink Owl", "an Orange Elephant"."""
    return ("an " if words[:1].upper() in "AEIOU" else "a ") + words


def card_words(card) -> str:
    """A card in a sentence, readable without color: "a Pink Owl (Wood, named TAM)"."""
    return f"{_a(f'{card.color} {card.animal}')} ({card.texture}, named {card.name})"


def _element_words(card, clue_type: str) -> str:
    """A card's element of one clue type in a sentence: "an Elephant", "Teal", "Wood"."""
    return _a(card.animal) if clue_type == "animal" else str(getattr(card, clue_type))


def no_match_words(game, clue_id: str, card_id: str, types) -> str:
    """Why a declaration failed, in words: what the revealed card is and which clue value it lacks.

    "a Pink Owl (Wood, named TAM): not Teal, the clue's color". Both cards are face up when this is
    said (a failed declaration turns the revealed card up for everyone, W4), so nothing hidden is named.
    A declaration of two types (ALEX) fails only when neither is shared, so both are said. Raises
    ValueError when the cards do share a declared type (that declaration did not fail).
    """
    i, j = game.index[clue_id], game.index[card_id]
    clue, card = game.cards[i], game.cards[j]
    if any(game.shared(i, j, t) for t in types):
        raise ValueError(f"{card_id} shares {'/'.join(types)} with {clue_id}: that declaration matched")
    parts = []
    for t in types:
        if t == "name":
            parts.append(f"no name fits both {card.name} and the clue's {clue.name}")
        else:
            parts.append(f"not {_element_words(clue, t)}, the clue's {TYPE_WORDS[t].lower()}")
    return f"{card_words(card)}: " + ", and ".join(parts)


def shared_words(game, clue_id: str, card_id: str, types=("animal", "texture", "color", "name")) -> list[str]:
    """What a revealed card shares with a clue card, among ``types`` (default all: W5's test), in words.

    One entry per shared clue type, e.g. ``["the color (Teal)", "the name TAM"]``; empty when nothing is.
    """
    i, j = game.index[clue_id], game.index[card_id]
    clue = game.cards[i]
    out = [f"the {t} ({getattr(clue, t)})" for t in ("animal", "texture", "color")
           if t in types and game.shared(i, j, t)]
    names = sorted(game.shared_names(i, j)) if "name" in types else []
    if names:
        out.append(("the name " if len(names) == 1 else "a name: ") + " or ".join(names))
    return out


def unsafe_words(game, clue_id: str, card_id: str) -> str:
    """Why a Challenge reveal is not safe: "a Teal Owl (Wood, named KIM): it shares the color (Teal) with
    the challenged card". Raises ValueError for a safe card (it shares nothing)."""
    shared = shared_words(game, clue_id, card_id)
    if not shared:
        raise ValueError(f"{card_id} shares nothing with {clue_id}: it is safe")
    card = game.cards[game.index[card_id]]
    listed = shared[0] if len(shared) == 1 else ", ".join(shared[:-1]) + " and " + shared[-1]
    return f"{card_words(card)}: it shares {listed} with the challenged card"


def why_failed(log, game, viewer: int | None = None) -> str | None:
    """The last failed declaration or unsafe reveal of an observation's ``log``, in words; None if none.

    "Player 2 declared Color at place 3 and found a Pink Owl (Wood, named TAM): not Teal, the clue's color." Read
    from the viewer's own observation log, where both cards of a failure are public (W4, W5).
    """
    events = list(log)
    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        kind = e.get("kind")
        if kind == Event.IDENTIFY and not e["success"] and e.get("clue"):
            return (f"{who(e.get('player'), viewer)} declared {types_label(e['types'])} at place {e['place']} "
                    f"and found {no_match_words(game, e['clue'], e['card'], e['types'])}.")
        if kind == Event.CHALLENGE_REVEAL and not e["safe"]:
            clue = next((x["card"] for x in reversed(events[:k]) if x.get("kind") == Event.CHALLENGE), None)
            if clue is None:
                return None
            return (f"{who(e.get('player'), viewer)} revealed place {e['place']} in a challenge and found "
                    f"{unsafe_words(game, clue, e['card'])}.")
    return None


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
        if not event["success"] and event.get("clue"):  # say which clue value the card lacks
            ok += " (" + no_match_words(game, event["clue"], event["card"], event["types"]).split(": ", 1)[1] + ")"
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
