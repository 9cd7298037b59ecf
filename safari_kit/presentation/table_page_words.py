"""Every word the card table's page draws or says, in the learner's language (issue 30).

The anywidget (``safari_kit/widgets/static/table.js``) keeps no sentence of its own: it reads its words from
the synced ``words`` dict that :func:`table_words_for` builds here, from the catalogue. The page fills in the
named placeholders (``{player}``, ``{place}``, ``{card}`` ...) with the numbers and the card words of the view,
so a translator always sees the whole sentence.

Why Python builds part of it for each view: a word that depends on a count (``7 cards``, ``1 pt``) takes the
language's plural form, which only gettext knows (Spanish has more forms than English; never ``n == 1`` in the
page). So ``counts`` holds, for each count the view shows, its words; and the few sentences whose grammar
depends on a count or on who is meant (the face-up banner, the abilities line) are written here whole.

Everything here is made from the view alone, which holds only what its viewer may see
(:mod:`safari_kit.presentation.views`): the words carry nothing about a hidden card.

>>> words = table_words_for({"game": "knockout", "seats": [{"player": 0, "score": 1, "hand_size": 7}]})
>>> words["counts"]["cards"]["7"], words["counts"]["points"]["1"], words["round_of"]
('7 cards', '1 pt', 'Round {round} of {rounds}')
"""
from __future__ import annotations

from safari_kit.core.i18n import _, ngettext, pgettext, series

__all__ = ["table_words_for", "static_words"]


def static_words() -> dict[str, str]:
    """The table's fixed words and sentence templates, in the language of the moment."""
    return {
        # who is meant: a seat's name, and the two ways of naming a seat
        "you": _("You"),
        "player": _("Player {player}"),
        "you_seat": _("You (player {player})"),
        "empty_table": _("Nothing on the table yet."),
        "not_clickable": _("Not clickable right now."),
        "draw_failed": _("The table could not be drawn: {error}"),
        "row_keys": _("{title}: arrow keys move, Enter picks"),
        # short badges beside a seat's name
        "to_play": pgettext("card table badge", "to play"),
        "winner": pgettext("card table badge", "★ winner"),
        "dealer": pgettext("card table badge", "dealer"),
        "lead": pgettext("card table badge", "lead"),
        "out": pgettext("card table badge", "out"),
        # the same badges beside the learner's own seat ("You"): Spanish verbs agree with the person
        # (le toca / te toca, empieza / empiezas), so they are messages of their own
        "you_to_play": pgettext("card table badge, the learner's own seat", "to play"),
        "you_winner": pgettext("card table badge, the learner's own seat", "★ winner"),
        "you_dealer": pgettext("card table badge, the learner's own seat", "dealer"),
        "you_lead": pgettext("card table badge, the learner's own seat", "lead"),
        "you_out": pgettext("card table badge, the learner's own seat", "out"),
        # Witness
        "deck": pgettext("card table", "Deck"),
        "deck_title": _("The deck: face-down cards not yet on the table"),
        "identified": _("✔ identified"),
        "challenged": _("⚔ challenged"),
        "empty": pgettext("card table zone", "empty"),
        "clue_area": _("Clue Area"),
        "unidentified_area": _("Unidentified Area"),
        "place": _("Place {place}"),
        "face_down_card": _("Face-down card"),
        "face_down_card_at": _("Face-down card at place {place}"),
        "place_face_down": _("Place {place}, face down"),
        "place_face_up": _("Place {place}, face up: {card}"),
        "place_face_up_remember": _("Place {place}, face up, to remember: {card}"),
        "won_to_archive": _("Won → archive, one at a time (last on top)"),
        "already_archived": _("Already on your archive: {cards}"),
        "your_archive": _("Your Archive · {count}"),
        "player_archive": _("Player {player}'s Archive · {count}"),
        "top": pgettext("card table: the top card of an archive", "top"),
        "all_archive": _("all {count}"),
        "your_case_card": _("Your Case Card:"),
        "case_cards": _("Case Cards:"),
        "case_card_of": _("{who}: {text}"),
        "alex": _("ALEX is on top of the archive: two clue types may be declared."),
        "clue_type": _("Clue type:"),
        "abilities": _("Abilities:"),
        # Knockout
        "round_of": _("Round {round} of {rounds}"),
        "named": _("Named: {item}"),
        "elimination": _("Elimination rule on"),
        "played_this_turn": _("Played this turn"),
        "play_position": _("{position}. {who}"),
        "you_played": _("You played {card}"),
        "player_played": _("Player {player} played {card}"),
        "last_turn_you": _("Turn {number} just finished · {item} · won by you"),
        "last_turn_player": _("Turn {number} just finished · {item} · won by Player {player}"),
        "won_the_turn": _("★ won the turn"),
        "next_turn_empty": _("Turn {number}: no card played yet."),
        "no_card_yet": _("No card played yet this turn."),
        "name_item": _("Name a data item:"),
        "you_are_out": _("You are out."),
        "no_cards_in_hand": _("No cards in hand."),
        "your_hand": _("Your hand · weight bars: each step along a bar is 10 times heavier"),
        "turns_this_round": _("Turns this round"),
        "turn_item": _("{item}:"),
        "turn_play": _("{who} {card}"),
        "won_by_you": _("won by you"),
        "won_by_player": _("won by Player {player}"),
        "earlier_rounds": _("Earlier rounds (turns won): {rounds}"),
        "earlier_round": _("Round {round}: {wins}"),
        "round_wins_of": _("{who} {wins}"),
        "bar_log_title": _("Each step along this bar is 10 times heavier"),
        "weight_bar_note": _("Weight bar: each step is 10 times heavier"),
    }


def _counts(view: dict) -> dict[str, dict[str, str]]:
    """The words of every count the view shows, by the count: ``{"cards": {"7": "7 cards"}, "points": ...}``."""
    cards: set[int] = set()
    points: set[int] = set()
    if view.get("deck_count") is not None:
        cards.add(int(view["deck_count"]))
    for seat in view.get("seats") or []:
        cards.add(int(seat.get("hand_size", 0)))
        points.add(int(seat.get("score", 0)))
    scores = list(view.get("scores") or [])
    for archive in view.get("archives") or []:
        p = archive.get("player", 0)
        points.add(int(scores[p]) if isinstance(p, int) and 0 <= p < len(scores) else int(archive.get("count", 0)))
    return {
        "cards": {str(n): ngettext("{n} card", "{n} cards", n).format(n=n) for n in sorted(cards)},
        "points": {str(n): ngettext("{n} pt", "{n} pts", n).format(n=n) for n in sorted(points)},
    }


def _remember(view: dict) -> dict[str, str]:
    """The face-up banner (W4/W5): its title and sentence, whose grammar follows the count and whose turn."""
    n = len(view.get("face_up_places") or [])
    title = ngettext("Remember these {n} face-up card!", "Remember these {n} face-up cards!", n).format(n=n)
    if view.get("my_turn"):
        body = ngettext("Your turn failed, so everyone sees it now; it is turned face down when the next turn "
                        "begins.",
                        "Your turn failed, so everyone sees them now; they are turned face down when the next "
                        "turn begins.", n)
    else:
        body = ngettext("Player {player}'s turn failed, so everyone sees it now; it is turned face down when the "
                        "next turn begins.",
                        "Player {player}'s turn failed, so everyone sees them now; they are turned face down when "
                        "the next turn begins.", n)
    return {"title": title, "text": body.format(player=view.get("current_player"))}


def _either(names) -> str:
    """Ability names a player picks one of: ``TAM or TOM``."""
    names = [str(x) for x in names]
    text = names[0] if names else ""
    for name in names[1:]:
        text = _("{first} or {second}").format(first=text, second=name)
    return text


def _abilities(view: dict) -> str:
    """The abilities line: earned this turn (each a choice of names), and those still usable."""
    earned = series(_either(a) for a in view.get("pending_abilities") or [])
    text = _("Abilities earned: {abilities}.").format(abilities=earned)
    usable = list(view.get("usable_abilities") or [])
    if usable:
        text += " " + _("You may still use: {abilities}.").format(abilities=series(usable))
    return text


def table_words_for(view: dict | None) -> dict:
    """The ``words`` the table's page reads for ``view`` (a view of :mod:`safari_kit.presentation.views`, or
    None before anything is shown): the fixed words, the words of its counts, and its count-bound sentences."""
    view = view or {}
    words: dict = static_words()
    words["counts"] = _counts(view)
    if view.get("remember"):
        words["remember"] = _remember(view)
    if view.get("pending_abilities") and view.get("phase") == "abilities":
        words["abilities_line"] = _abilities(view)
    return words
