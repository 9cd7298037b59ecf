"""A Witness game's log told in a learner's words (no widgets needed).

Every line comes from one seat's observation log, so it holds only what that
seat saw: public reveals, and its own TOM looks (other seats' looks appear
without the card). The event kinds are :class:`safari_kit.witness.rules.Event`.
"""
from __future__ import annotations

from safari_kit.core.i18n import N_, _, ngettext, pgettext, series
from safari_kit.presentation.card_words import element_word, mugshot_elements, named_element
from safari_kit.presentation.views import mugshot_face
from safari_kit.witness.rules import Event

#: the clue types' names (English; :func:`type_word` says them in the learner's language)
TYPE_WORDS = {"animal": N_("Animal"), "texture": N_("Texture"), "color": N_("Color"), "name": N_("Name")}
#: the clue types inside a sentence ("the clue's color"): their own entries, a language may write them otherwise
_TYPE_IN_SENTENCE = {"animal": N_("animal"), "texture": N_("texture"), "color": N_("color"), "name": N_("name")}


def type_word(t: str) -> str:
    """A clue type's name in the learner's language: "Color"."""
    return _(TYPE_WORDS[t])


def types_label(types) -> str:
    return " + ".join(type_word(t) for t in types)


def card_label(game, cid: str) -> str:
    """A card as words, readable without color: e.g. "Violet Owl, Wood, named TAM"."""
    return mugshot_face(game.cards[game.index[cid]])["label"]


def _a(words: str) -> str:
    """``words`` with its indefinite article: "a Pink Owl", "an Orange Elephant"."""
    # TRANSLATORS: the article English puts before a card ("an Orange Elephant"); a language whose article
    # depends on the animal's gender may leave it out until the animals' names are translated as data
    return (_("an {thing}") if words[:1].upper() in "AEIOU" else _("a {thing}")).format(thing=words)


def card_words(card) -> str:
    """A card in a sentence, readable without color: "a Pink Owl (Wood, named TAM)"."""
    words = mugshot_elements(card)  # the learner's language (data/card-names.csv)
    return _("{a_card} ({texture}, named {name})").format(
        a_card=_a(_("{color} {animal}").format(color=words["color"], animal=words["animal"])),
        texture=words["texture"], name=card.name)


def _element_words(card, clue_type: str) -> str:
    """A card's element of one clue type in a sentence: "an Elephant", "Teal", "Wood"."""
    word = element_word(clue_type, str(getattr(card, clue_type)))
    return _a(word) if clue_type == "animal" else word


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
            parts.append(_("no name fits both {name} and the clue's {clue_name}").format(name=card.name,
                                                                                          clue_name=clue.name))
        else:
            parts.append(_("not {value}, the clue's {type}").format(value=_element_words(clue, t),
                                                                     type=_(_TYPE_IN_SENTENCE[t])))
    return f"{card_words(card)}: " + _(", and ").join(parts)


def shared_words(game, clue_id: str, card_id: str, types=("animal", "texture", "color", "name")) -> list[str]:
    """What a revealed card shares with a clue card, among ``types`` (default all: W5's test), in words.

    One entry per shared clue type, e.g. ``["the color (Teal)", "the name TAM"]``; empty when nothing is.
    """
    i, j = game.index[clue_id], game.index[card_id]
    clue = game.cards[i]
    out = [_("the {type} ({value})").format(type=_(_TYPE_IN_SENTENCE[t]), value=element_word(t, getattr(clue, t)))
           for t in ("animal", "texture", "color") if t in types and game.shared(i, j, t)]
    names = sorted(game.shared_names(i, j)) if "name" in types else []
    if names:
        out.append(_("the name {name}").format(name=names[0]) if len(names) == 1 else
                   _("a name: {names}").format(names=_(" or ").join(names)))
    return out


def unsafe_words(game, clue_id: str, card_id: str) -> str:
    """Why a Challenge reveal is not safe: "a Teal Owl (Wood, named KIM): it shares the color (Teal) with
    the challenged card". Raises ValueError for a safe card (it shares nothing)."""
    shared = shared_words(game, clue_id, card_id)
    if not shared:
        raise ValueError(f"{card_id} shares nothing with {clue_id}: it is safe")
    card = game.cards[game.index[card_id]]
    return _("{card}: it shares {listed} with the challenged card").format(card=card_words(card),
                                                                            listed=series(shared))


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
            mine = e.get("player") == viewer  # the learner's own: a sentence of its own (Spanish: "Dijiste")
            return (_("You declared {types} at place {place} and found {found}.") if mine else
                    _("{who} declared {types} at place {place} and found {found}.")).format(
                who=who(e.get('player'), viewer), types=types_label(e['types']), place=e['place'],
                found=no_match_words(game, e['clue'], e['card'], e['types']))
        if kind == Event.CHALLENGE_REVEAL and not e["safe"]:
            clue = next((x["card"] for x in reversed(events[:k]) if x.get("kind") == Event.CHALLENGE), None)
            if clue is None:
                return None
            mine = e.get("player") == viewer
            return (_("You revealed place {place} in a challenge and found {found}.") if mine else
                    _("{who} revealed place {place} in a challenge and found {found}.")).format(
                who=who(e.get('player'), viewer), place=e['place'], found=unsafe_words(game, clue, e['card']))
    return None


def who(player, viewer) -> str:
    return _("You") if player == viewer else _("Player {player}").format(player=player)


def describe_event(event: dict, game, viewer: int | None) -> str | None:
    """One log event of ``viewer``'s observation in words (None for events not worth a line)."""
    kind = event.get("kind")
    name = who(event.get("player"), viewer)
    # the learner's own deeds have sentences of their own: "You declared" is "{who} declared" in English, but a
    # language that conjugates the verb needs the second person ("Dijiste", never "Tú dijo")
    mine = viewer is not None and event.get("player") == viewer

    def face(cid: str) -> str:
        return card_label(game, cid)

    if kind == Event.CLUE:
        return _("{who}: clue card {card} revealed.").format(who=name, card=face(event['card']))
    if kind == Event.IDENTIFY:
        ok = _("match") if event["success"] else _("no match")
        if not event["success"] and event.get("clue"):  # say which clue value the card lacks
            ok += " (" + no_match_words(game, event["clue"], event["card"], event["types"]).split(": ", 1)[1] + ")"
        if event.get("clue"):
            return (_("You declared {types} of clue card {clue} at place {place}: {card} — {outcome}.") if mine else
                    _("{who} declared {types} of clue card {clue} at place {place}: {card} — {outcome}.")).format(
                who=name, types=types_label(event['types']), clue=face(event['clue']), place=event['place'],
                card=face(event['card']), outcome=ok)
        return (_("You declared {types} at place {place}: {card} — {outcome}.") if mine else
                _("{who} declared {types} at place {place}: {card} — {outcome}.")).format(
            who=name, types=types_label(event['types']), place=event['place'], card=face(event['card']), outcome=ok)
    if kind == Event.CHALLENGE:
        return (_("You challenged with {card}.") if mine else
                _("{who} challenged with {card}.")).format(who=name, card=face(event['card']))
    if kind == Event.CHALLENGE_REVEAL:
        return (_("You revealed place {place}: {card} — {outcome}.") if mine else
                _("{who} revealed place {place}: {card} — {outcome}.")).format(
            who=name, place=event['place'], card=face(event['card']),
            outcome=_("safe") if event['safe'] else _("NOT safe"))
    if kind == Event.FAIL:
        places = ", ".join(str(m["place"]) for m in event["to_places"])
        shown = "; ".join(_("place {place}: {card}").format(place=m['place'], card=face(m['card']))
                          for m in event.get("face_up", []))
        text = (ngettext("You failed; the clue card went face up to place {places}.",
                         "You failed; the clue cards went face up to places {places}.", len(event["to_places"]))
                if mine else
                ngettext("{who} failed; the clue card went face up to place {places}.",
                         "{who} failed; the clue cards went face up to places {places}.",
                         len(event["to_places"]))).format(who=name, places=places)
        return text + (" " + _("Face up for everyone: {cards}.").format(cards=shown) if shown else "")
    if kind == Event.FACE_DOWN:
        return _("The face-up cards were turned face down.")
    if kind == Event.ARCHIVE:
        n = len(event["cards"])
        return (ngettext("You archived {n} card.", "You archived {n} cards.", n) if mine else
                ngettext("{who} archived {n} card.", "{who} archived {n} cards.", n)).format(who=name, n=n)
    if kind == Event.TOM:
        if "card" in event:
            return (_("You looked at place {place} with TOM: {card}.") if mine else
                    _("{who} looked at place {place} with TOM: {card}.")).format(who=name, place=event['place'],
                                                                                 card=face(event['card']))
        return (_("You looked at place {place} with TOM.") if mine else
                _("{who} looked at place {place} with TOM.")).format(who=name, place=event['place'])
    if kind == Event.SAM:
        a, b = event["places"]
        return (_("You shuffled places {a} and {b} with SAM (swapped or not: nobody knows).") if mine else
                _("{who} shuffled places {a} and {b} with SAM (swapped or not: nobody knows).")).format(who=name, a=a,
                                                                                                          b=b)
    if kind == Event.TAM:
        return (_("You swapped {first} and {second} with TAM.") if mine else
                _("{who} swapped {first} and {second} with TAM.")).format(who=name, first=event['first'],
                                                                           second=event['second'])
    if kind == Event.KIM:
        return (_("You sent {card} back face down to place {place} with KIM.") if mine else
                _("{who} sent {card} back face down to place {place} with KIM.")).format(
            who=name, card=face(event['card']), place=event['place'])
    if kind == Event.KRIS:
        return (_("You named {element} with KRIS at place {place}: {card}, {outcome}.") if mine else
                _("{who} named {element} with KRIS at place {place}: {card}, {outcome}.")).format(
            who=name, element=named_element(event['element']), place=event['place'], card=face(event['card']),
            outcome=_("archived") if event['archived'] else _("back face down"))
    if kind == Event.ALAN_TAKE:
        return (_("You took {card} back into the Clue Area with ALAN.") if mine else
                _("{who} took {card} back into the Clue Area with ALAN.")).format(who=name, card=face(event['card']))
    if kind == Event.END:
        # TRANSLATORS: the reason is the engine's word: "archive" (an archive reached 10) or "deck" (it ran out)
        reason = {"archive": pgettext("game over", "archive"), "deck": pgettext("game over", "deck")}.get(
            event['reason'], event['reason'])
        return _("Game over ({reason}). Scores: {scores}.").format(reason=reason, scores=event['scores'])
    return None
