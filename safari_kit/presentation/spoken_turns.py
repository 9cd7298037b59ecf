"""What a screen reader says after archiving, an ability, or the other players' turns (issue 20, follow-up).

A sighted learner sees a won card move onto their archive, an ability change the table, and the bots' turns
go by. These sentences say the same, built from the viewer's own observation only (its log events and its
archives): a card is named only where the viewer's observation names it (a face-down card is "face down";
another player's TOM look is said without its card; a failed reveal names the card it turned face up).

>>> spot_words("U3", 0), spot_words("A1.0", 0), spot_words("A0.2", 0)
('place 3', "card 1 from the bottom of Player 1's archive", 'card 3 from the bottom of your archive')
"""
from __future__ import annotations

from typing import Iterable, Sequence

from safari_kit.core.i18n import _, and_join, ngettext
from safari_kit.presentation.card_words import named_element
from safari_kit.presentation.narration import card_label
from safari_kit.presentation.views import WITNESS_PHASE_WORDS
from safari_kit.witness.rules import Event

__all__ = ["spot_words", "archive_step_sentence", "ability_sentence", "turn_phrase", "turns_summary",
           "your_turn_words"]


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _whose(player, viewer) -> str:
    return _("your") if player == viewer else _("Player {player}'s").format(player=player)


def spot_words(spot: str, viewer: int) -> str:
    """A TAM spot in words: ``U3`` is "place 3", ``A1.0`` "card 1 from the bottom of Player 1's archive"."""
    if spot[0] == "U":
        return _("place {place}").format(place=int(spot[1:]))
    player, index = spot[1:].split(".")
    return _("card {n} from the bottom of {whose} archive").format(n=int(index) + 1,
                                                                     whose=_whose(int(player), viewer))


def archive_step_sentence(game, card: str, placed: Sequence[str], left: Sequence[str],
                          archived: Sequence[str] | None = None, archive_size: int | None = None) -> str:
    """After the learner puts one won card on their archive (``ArchiveCard``).

    ``placed``: the cards put on so far this turn, bottom first (``card`` last); ``left``: the won cards still
    to place. Once the archive is done (``archived``: the ``archive`` event's cards, bottom to top) the last
    card went on top by itself, and ``archive_size`` is said. Every card named is face up (won cards are).

    >>> from safari_kit.witness import WitnessGame
    >>> g = WitnessGame(players=2)
    >>> a, b, c = (x.id for x in g.cards[:3])
    >>> archive_step_sentence(g, a, [a], [b, c]).endswith("goes on your archive: 1 placed, 2 left. Pick the next.")
    True
    >>> "on top by itself" in archive_step_sentence(g, b, [a, b], [], archived=[a, b, c], archive_size=3)
    True
    """
    if archived is None:
        return _("{card} goes on your archive: {placed} placed, {left} left. Pick the next.").format(
            card=card_label(game, card), placed=len(placed), left=len(left))
    text = _("{card} goes on your archive.").format(card=card_label(game, card))
    if archived and archived[-1] != card:
        text += " " + _("The last card, {card}, goes on top by itself.").format(card=card_label(game, archived[-1]))
    if archive_size is not None:
        text += " " + ngettext("Your archive: {n} Mugshot.", "Your archive: {n} Mugshots.", archive_size).format(
            n=archive_size)
    return text


def ability_sentence(game, event: dict, viewer: int) -> str | None:
    """One ability's event of ``viewer``'s observation log, said for the player who used it (None: no ability).

    TOM names the card only when the observation holds it (the looker's own); KRIS's card is face up for
    everyone when it is revealed; KIM's card comes from an archive (public); TAM names a card only when a spot
    is an archive's (the event then holds both cards, which were or become public).
    """
    kind = event.get("kind")
    mine = event.get("player") == viewer
    who = _("you") if mine else _("Player {player}").format(player=event.get('player'))
    if kind == Event.TOM:
        if "card" in event:
            return (_("TOM: only you see this: place {place} holds {card}.") if mine else
                    _("TOM: only {who} sees this: place {place} holds {card}.")).format(
                        who=who, place=event['place'], card=card_label(game, event['card']))
        return _("TOM: {who} looked at the face-down card at place {place}.").format(who=who, place=event['place'])
    if kind == Event.SAM:
        a, b = event["places"]
        return _("SAM: places {a} and {b} shuffled face down; swapped or not, nobody knows.").format(a=a, b=b)
    if kind == Event.TAM:
        a, b = event["first"], event["second"]
        text = _("TAM: {a} and {b} swap cards.").format(a=spot_words(a, viewer), b=spot_words(b, viewer))
        for spot, cid in (event.get("cards") or {}).items():  # a card of an archive: public (W10)
            where = spot_words(spot, viewer)
            where = where[0].upper() + where[1:]
            text += " " + (_("{where} is now {card}, face down.") if spot[0] == "U" else
                           _("{where} is now {card}.")).format(where=where, card=card_label(game, cid))
        return text
    if kind == Event.KIM:
        return _("KIM: {card} leaves {whose} archive and goes face down to place {place}.").format(
            card=card_label(game, event['card']), whose=_whose(event.get('from_player'), viewer), place=event['place'])
    if kind == Event.KRIS:
        head = _("KRIS: {who} named {element} at place {place}: {card}.").format(
            who=who, element=named_element(event['element']), place=event['place'],
            card=card_label(game, event['card']))
        return head + " " + (_("It has it: archived.") if event["archived"] else
                             _("It does not: it goes back face down."))
    if kind == Event.ALAN_TAKE:
        return _("ALAN: {card} goes from {whose} archive into the Clue Area.").format(
            card=card_label(game, event['card']), whose=_whose(event.get('player'), viewer))
    return None


#: the end of the game among a turn's clauses (said last, after the others)
_ENDED = "\x00ended"


def turn_phrase(game, events: Iterable[dict], viewer: int) -> str | None:
    """One other player's turn (its events, in order) as one clause: "Player 1 identified 2 cards and
    archived 4", "Player 2 failed at place 4: Teal Goat, Wood, named KIM"; None if nothing happened yet."""
    events = list(events)
    if not events:
        return None
    player = next((e.get("player") for e in events if e.get("kind") not in (Event.FACE_DOWN, Event.DEAL)),
                  events[0].get("player"))
    parts: list[str] = []
    found = safe = 0
    challenged = kris_archive = False
    taken = 0

    def flush_alan():
        nonlocal taken
        if taken:
            parts.append(_("used ALAN to take back {cards}").format(cards=_cards(taken)))
            taken = 0

    for e in events:
        kind = e.get("kind")
        if kind != Event.ALAN_TAKE:
            flush_alan()
        if kind == Event.IDENTIFY:
            if e["success"]:
                found += 1
            else:
                failed = _("failed at place {place}: {card}").format(place=e['place'], card=card_label(game, e['card']))
                parts.append(_("identified {cards}, then {failed}").format(cards=_cards(found), failed=failed)
                             if found else failed)
                found = 0
        elif kind == Event.CHALLENGE:
            challenged, safe = True, 0
        elif kind == Event.CHALLENGE_REVEAL:
            if e["safe"]:
                safe += 1
            else:
                failed = _("failed at place {place}: {card}").format(place=e['place'], card=card_label(game, e['card']))
                parts.append(_("challenged, revealed {safe} safe, then {failed}").format(safe=safe, failed=failed)
                             if safe else _("challenged, {failed}").format(failed=failed))
                challenged = False
        elif kind == Event.ARCHIVE:
            if kris_archive:
                kris_archive = False
                continue
            n = len(e["cards"])
            if challenged:
                parts.append(_("challenged, revealed {safe} safe and archived {n}").format(safe=safe, n=n))
                challenged = False
            else:
                parts.append(_("identified {cards} and archived {n}").format(cards=_cards(found), n=n))
            found = 0
        elif kind == Event.TOM:
            parts.append(_("used TOM on place {place}").format(place=e['place']))
        elif kind == Event.SAM:
            parts.append(_("used SAM on places {a} and {b}").format(a=e["places"][0], b=e["places"][1]))
        elif kind == Event.TAM:
            parts.append(_("used TAM on {a} and {b}").format(a=spot_words(e['first'], viewer),
                                                             b=spot_words(e['second'], viewer)))
        elif kind == Event.KIM:
            parts.append(_("used KIM: {card} went face down to place {place}").format(
                card=card_label(game, e['card']), place=e['place']))
        elif kind == Event.KRIS:
            kris_archive = bool(e["archived"])
            parts.append(_("used KRIS, naming {element}, at place {place}: {card}, {outcome}").format(
                element=named_element(e['element']), place=e['place'], card=card_label(game, e['card']),
                outcome=_("archived") if e["archived"] else _("back face down")))
        elif kind == Event.ALAN_TAKE:
            taken += 1
        elif kind == Event.END:
            parts.append(_ENDED)
    flush_alan()
    if not parts:
        return None
    if parts == [_ENDED]:
        return _("the game ended at Player {player}'s turn").format(player=player)
    text = _("Player {player} {actions}").format(player=player,
                                                  actions=_(", then ").join(p for p in parts if p is not _ENDED))
    if parts[-1] is _ENDED:
        text += " " + _("and the game ended")
    return text


def turns_summary(game, events: Iterable[dict], viewer: int, skip: Iterable[int] = ()) -> str:
    """The other players' turns among ``events`` (a slice of ``viewer``'s observation log), one clause each,
    in one sentence: "Player 1 identified 2 cards and archived 4; Player 2 failed at place 4: ...". The
    viewer's own turns and the seats in ``skip`` are left out (their own sentences say them). "" if none."""
    skip = set(skip) | {viewer}
    turns: list[list[dict]] = []
    key = None
    for e in events:
        if e.get("kind") in (Event.FACE_DOWN, Event.DEAL):
            continue  # the next turn's face-down moment and refills: nothing a clause needs
        k = (e.get("turn"), e.get("player"))
        if k != key:
            turns.append([])
            key = k
        turns[-1].append(e)
    said = [turn_phrase(game, t, viewer) for t in turns if t[0].get("player") not in skip]
    phrases = [p for p in said if p]
    return (_("; ").join(phrases) + ".") if phrases else ""


def your_turn_words(game, obs) -> str:
    """The start of the viewer's turn: "Your turn: clue card Pink Owl, Wood, named KIM. Choose: ..."
    (``obs``: the viewer's observation; the Clue Area's cards are face up for everyone)."""
    clue = [card_label(game, c) for c in obs.clue_area]
    what = WITNESS_PHASE_WORDS.get(str(obs.phase), (str(obs.phase),))[0]
    if clue and str(obs.phase) == "choose":
        return _("Your turn: clue card {cards}.").format(cards=and_join(clue)) + f" {what[0].upper()}{what[1:]}."
    return _("Your turn: {what}.").format(what=what)
