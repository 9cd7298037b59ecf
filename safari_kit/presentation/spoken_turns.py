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

from safari_kit.core.i18n import ngettext
from safari_kit.presentation.narration import card_label
from safari_kit.presentation.views import WITNESS_PHASE_WORDS
from safari_kit.witness.rules import Event

__all__ = ["spot_words", "archive_step_sentence", "ability_sentence", "turn_phrase", "turns_summary",
           "your_turn_words"]


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _whose(player, viewer) -> str:
    return "your" if player == viewer else f"Player {player}'s"


def spot_words(spot: str, viewer: int) -> str:
    """A TAM spot in words: ``U3`` is "place 3", ``A1.0`` "card 1 from the bottom of Player 1's archive"."""
    if spot[0] == "U":
        return f"place {int(spot[1:])}"
    player, index = spot[1:].split(".")
    return f"card {int(index) + 1} from the bottom of {_whose(int(player), viewer)} archive"


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
    head = f"{card_label(game, card)} goes on your archive"
    if archived is None:
        return f"{head}: {len(placed)} placed, {len(left)} left. Pick the next."
    text = head + "."
    if archived and archived[-1] != card:
        text += f" The last card, {card_label(game, archived[-1])}, goes on top by itself."
    if archive_size is not None:
        text += f" Your archive: {archive_size} Mugshot{'s' if archive_size != 1 else ''}."
    return text


def ability_sentence(game, event: dict, viewer: int) -> str | None:
    """One ability's event of ``viewer``'s observation log, said for the player who used it (None: no ability).

    TOM names the card only when the observation holds it (the looker's own); KRIS's card is face up for
    everyone when it is revealed; KIM's card comes from an archive (public); TAM names a card only when a spot
    is an archive's (the event then holds both cards, which were or become public).
    """
    kind = event.get("kind")
    who = "you" if event.get("player") == viewer else f"Player {event.get('player')}"
    if kind == Event.TOM:
        if "card" in event:
            return (f"TOM: only {who} see{'s' if who != 'you' else ''} this: place {event['place']} holds "
                    f"{card_label(game, event['card'])}.")
        return f"TOM: {who} looked at the face-down card at place {event['place']}."
    if kind == Event.SAM:
        a, b = event["places"]
        return f"SAM: places {a} and {b} shuffled face down; swapped or not, nobody knows."
    if kind == Event.TAM:
        a, b = event["first"], event["second"]
        text = f"TAM: {spot_words(a, viewer)} and {spot_words(b, viewer)} swap cards."
        for spot, cid in (event.get("cards") or {}).items():  # a card of an archive: public (W10)
            where = spot_words(spot, viewer)
            down = ", face down" if spot[0] == "U" else ""
            text += f" {where[0].upper()}{where[1:]} is now {card_label(game, cid)}{down}."
        return text
    if kind == Event.KIM:
        return (f"KIM: {card_label(game, event['card'])} leaves {_whose(event.get('from_player'), viewer)} "
                f"archive and goes face down to place {event['place']}.")
    if kind == Event.KRIS:
        head = f"KRIS: {who} named {event['element']} at place {event['place']}: {card_label(game, event['card'])}."
        return head + (" It has it: archived." if event["archived"] else
                       " It does not: it goes back face down.")
    if kind == Event.ALAN_TAKE:
        return f"ALAN: {card_label(game, event['card'])} goes from {_whose(event.get('player'), viewer)} " \
               "archive into the Clue Area."
    return None


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
            parts.append(f"used ALAN to take back {_cards(taken)}")
            taken = 0

    for e in events:
        kind = e.get("kind")
        if kind != Event.ALAN_TAKE:
            flush_alan()
        if kind == Event.IDENTIFY:
            if e["success"]:
                found += 1
            else:
                before = f"identified {_cards(found)}, then " if found else ""
                parts.append(f"{before}failed at place {e['place']}: {card_label(game, e['card'])}")
                found = 0
        elif kind == Event.CHALLENGE:
            challenged, safe = True, 0
        elif kind == Event.CHALLENGE_REVEAL:
            if e["safe"]:
                safe += 1
            else:
                before = f"revealed {safe} safe, then " if safe else ""
                parts.append(f"challenged, {before}failed at place {e['place']}: {card_label(game, e['card'])}")
                challenged = False
        elif kind == Event.ARCHIVE:
            if kris_archive:
                kris_archive = False
                continue
            n = len(e["cards"])
            if challenged:
                parts.append(f"challenged, revealed {safe} safe and archived {n}")
                challenged = False
            else:
                parts.append(f"identified {_cards(found)} and archived {n}")
            found = 0
        elif kind == Event.TOM:
            parts.append(f"used TOM on place {e['place']}")
        elif kind == Event.SAM:
            parts.append("used SAM on places {} and {}".format(*e["places"]))
        elif kind == Event.TAM:
            parts.append(f"used TAM on {spot_words(e['first'], viewer)} and {spot_words(e['second'], viewer)}")
        elif kind == Event.KIM:
            parts.append(f"used KIM: {card_label(game, e['card'])} went face down to place {e['place']}")
        elif kind == Event.KRIS:
            kris_archive = bool(e["archived"])
            parts.append(f"used KRIS, naming {e['element']}, at place {e['place']}: {card_label(game, e['card'])}, "
                         + ("archived" if e["archived"] else "back face down"))
        elif kind == Event.ALAN_TAKE:
            taken += 1
        elif kind == Event.END:
            parts.append("and the game ended")
    flush_alan()
    if not parts:
        return None
    if parts == ["and the game ended"]:
        return f"the game ended at Player {player}'s turn"
    text = f"Player {player} " + ", then ".join(p for p in parts if not p.startswith("and "))
    if parts[-1].startswith("and "):
        text += (" " if len(parts) > 1 else "'s turn: ") + parts[-1]
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
    return ("; ".join(phrases) + ".") if phrases else ""


def your_turn_words(game, obs) -> str:
    """The start of the viewer's turn: "Your turn: clue card Pink Owl, Wood, named KIM. Choose: ..."
    (``obs``: the viewer's observation; the Clue Area's cards are face up for everyone)."""
    clue = [card_label(game, c) for c in obs.clue_area]
    what = WITNESS_PHASE_WORDS.get(str(obs.phase), (str(obs.phase),))[0]
    head = "Your turn"
    if clue and str(obs.phase) == "choose":
        head += ": clue card " + " and ".join(clue) + "."
        return f"{head} {what[0].upper()}{what[1:]}."
    return f"{head}: {what}."
