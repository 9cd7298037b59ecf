"""The Python side of the card table: an observation turned into the widget's view dict.

Everything here is *what one viewer may see*, in plain JSON types:

- :func:`witness_view` / :func:`knockout_view` start from
  ``state.observation(viewer).to_dict()`` and add only public facts: the faces
  of face-up cards (looked up from the game's card data), the deck's public
  ranges for the Safari Pals bars, and the phase in words. A face-down place
  is sent as ``{"place": 3, "face_up": False}`` and nothing else; the log of
  past reveals is not sent at all (remembering is the learner's game, W11);
  in Knockout only the viewer's own hand and the cards played *this round*
  appear (before the first card of a turn, the turn just finished is repeated
  as ``last_turn``); of earlier rounds only the counts of turns won (their
  cards may be in someone's hand again).

The click targets from ``legal_actions()``, the safety net
(:func:`check_public`), the refusals and the default message live in
:mod:`~safari_kit.presentation.targets`; the words and card faces both use in
:mod:`~safari_kit.presentation.table_words` (issue 28: one concern a module).
Their names are re-exported here, where the widgets, labs and tools have always
imported them (``from safari_kit.presentation.views import ...``).

>>> from safari_kit.witness import WitnessGame
>>> state = WitnessGame(players=2).new_initial_state(seed=3)
>>> view = witness_view(state, 0)
>>> [p for p in view["places"]][0]
{'place': 1, 'face_up': False}
>>> [t["id"] for t in selectable_from_legal(state)]
['identify', 'reveal_another', 'challenge']
"""
from __future__ import annotations

from safari_kit.core.i18n import _, and_join, ngettext
from safari_kit.presentation.table_words import (
    ITEM_SHORT,
    ITEM_UNITS,
    LOG_ITEMS,
    WITNESS_BUTTONS,
    WITNESS_PHASE_WORDS,
    _is_knockout,
    _who,
    deck_ranges,
    learner_sentence,
    mugshot_face,
    pal_face,
)
from safari_kit.presentation.targets import (
    TARGET_KINDS,
    action_of,
    check_public,
    default_message,
    explain_refusal,
    selectable_from_legal,
)

__all__ = ["witness_view", "knockout_view", "view_for", "selectable_from_legal", "explain_refusal", "learner_sentence",
           "action_of", "WITNESS_BUTTONS",
           "check_public", "default_message", "TARGET_KINDS", "mugshot_face", "pal_face",
           "WITNESS_PHASE_WORDS", "ITEM_UNITS", "ITEM_SHORT", "LOG_ITEMS", "deck_ranges"]


# ----------------------------------------------------------------------------- Witness
def witness_view(state, viewer: int) -> dict:
    """What ``viewer`` may see of a Witness table, as the widget's ``view``."""
    obs = state.observation(viewer).to_dict()
    game = state.game
    faces: dict[str, dict] = {}

    def face(cid: str) -> str:
        if cid not in faces:
            faces[cid] = mugshot_face(game.cards[game.index[cid]])
        return cid

    places = []
    for place, cid in obs["unidentified"]:
        if cid is None:
            places.append({"place": place, "face_up": False})
        else:
            places.append({"place": place, "face_up": True, "card": face(cid)})
    clue = [face(c) for c in obs["clue_area"]]
    identified = [face(c) for c in obs["identified_clues"]]
    won = [face(c) for c in obs["won_this_turn"]]
    archive_order = [face(c) for c in obs["archive_order"]]
    challenged = None if obs["challenged"] is None else face(obs["challenged"])
    # the Clue Area's title counts a Challenge's safe reveals only while the challenged card lies there (after
    # Stop it has gone to the cards won, then to the archive: an empty area titled "4 safe" says nothing true).
    # Short: a longer title widens the Clue Area and pushes a place of the Unidentified Area onto a second row
    if challenged is not None and obs["phase"] == "challenge" and challenged in clue:
        clue_title = _("Clue · {n} safe").format(n=obs['safe_reveals'])
    else:
        clue_title = _("Clue Area")
    archives = []
    for p, archive in enumerate(obs["archives"]):
        archives.append({"player": p, "count": len(archive), "cards": [face(c) for c in archive],
                         "you": p == viewer})
    over = obs["phase"] == "over"
    current = obs["current_player"]
    if over:
        winners = obs["winners"] or []
        names = and_join(_who(w, viewer) for w in winners)
        how = _("an archive reached 10 Mugshots") if obs["end_reason"] == "archive" else _("the deck ran out")
        phase_words = ngettext("Game over ({how}). Winner: {names}.", "Game over ({how}). Winners: {names}.",
                               max(len(winners), 1)).format(how=how, names=names)
    else:
        mine, theirs = WITNESS_PHASE_WORDS.get(obs["phase"], (obs["phase"], obs["phase"]))
        phase_words = learner_sentence(_("Your turn: {what}").format(what=mine) if current == viewer else
                                       _("Player {player} {what}").format(player=current, what=theirs))
        if obs["phase"] == "challenge":
            phase_words += " " + _("Safe so far: {n}.").format(n=obs['safe_reveals'])
    case = None
    if obs["case_card"] is not None:
        from safari_kit.presentation.case_words import case_text  # the catalogue's copy (issue 30)

        case = {"key": obs["case_card"], "text": case_text(obs["case_card"])}
    all_cases = None
    if obs["case_cards"] is not None:
        from safari_kit.presentation.case_words import case_text

        all_cases = [{"player": p, "key": k, "text": case_text(k)}
                     for p, k in enumerate(obs["case_cards"])]
    return {
        "game": "witness",
        "viewer": viewer,
        "players": obs["players"],
        "current_player": current,
        "my_turn": current == viewer and not over,
        "phase": obs["phase"],
        "phase_words": phase_words,
        "turn": obs["turn"],
        "deck_count": obs["deck_count"],
        "places": places,
        "clue_area": clue,
        "identified_clues": identified,
        "won_this_turn": won,
        "archive_order": archive_order,
        "remember": obs["phase"] == "face_up",
        "face_up_places": [p["place"] for p in places if p["face_up"]],
        "challenged": challenged,
        "safe_reveals": obs["safe_reveals"],
        "clue_title": clue_title,
        "archives": archives,
        "scores": list(obs["scores"]),
        "winners": obs["winners"],
        "end_reason": obs["end_reason"],
        "pending_abilities": [list(a) for a in obs["pending_abilities"]],
        "usable_abilities": list(obs["usable_abilities"]),
        "alex": obs["alex"],
        "case_card": case,
        "case_cards": all_cases,
        "options": {"advanced": game.options.advanced, "case_module": game.options.case_module},
        "cards": faces,
    }


# ----------------------------------------------------------------------------- Knockout
def knockout_view(state, viewer: int) -> dict:
    """What ``viewer`` may see of a Knockout table: own hand, this round's plays, public scores."""
    obs = state.observation(viewer).to_dict()
    game = state.game
    ranges = deck_ranges(game.cards)
    items = obs["items"]
    faces: dict[str, dict] = {}

    def face(cid: str) -> str:
        if cid not in faces:
            faces[cid] = pal_face(game.by_id[cid], ranges, items)
        return cid

    rnd = obs["round"]
    hand = [face(c) for c in obs["hand"]]
    trick = [{"player": s, "card": face(c)} for s, c in obs["trick"]]
    this_round, summary = [], {}
    for t in obs["turns"]:
        if t["round"] == rnd:
            this_round.append({"number": len(this_round) + 1, "item": t["item"], "item_label": ITEM_SHORT[t["item"]],
                               "plays": [{"player": s, "card": face(c)} for s, c in t["plays"]],
                               "winner": t["winner"]})
        else:  # earlier rounds: counts only (their cards are back in the deck, maybe in a hand)
            wins = summary.setdefault(t["round"], [0] * obs["players"])
            wins[t["winner"]] += 1
    # Before the first card of a turn, the table shows the turn just finished this round (who played what, who
    # won): every player saw those cards played. A turn of an earlier round is not shown: its cards were dealt
    # again and may be in someone's hand.
    last_turn = None
    if not obs["trick"] and this_round:
        last_turn = dict(this_round[-1], winning_card=next(p["card"] for p in this_round[-1]["plays"]
                                                           if p["player"] == this_round[-1]["winner"]))
    terminal = obs["terminal"]
    current = None if terminal else obs["current_player"]
    out = set(obs["out"])
    seats = [{"player": p, "you": p == viewer, "score": obs["scores"][p], "round_wins": obs["round_wins"][p],
              "hand_size": obs["hand_sizes"][p], "out": p in out, "dealer": p == obs["dealer"],
              "lead": p == obs["lead"], "to_play": p == current} for p in range(obs["players"])]
    item = obs["item"]
    if terminal:
        winners = obs["winners"] or []
        phase_words = ngettext("Game over. Winner: {names}.", "Game over. Winners: {names}.",
                               max(len(winners), 1)).format(
            names=and_join(_who(w, viewer) for w in winners))
    elif not obs["trick"]:
        phase_words = (_("You lead turn {n}: play a card and name a data item.") if current == viewer else
                       _("Player {player} leads turn {n}: play a card and name a data item.")).format(
                           player=current, n=len(this_round) + 1)
    else:
        phase_words = ((_("You play a card.") if current == viewer else
                        _("Player {player} plays a card.").format(player=current)) + " "
                       + _("The named item is {item}: highest wins, first card wins a tie.").format(
                           item=ITEM_SHORT[item]))
    return {
        "game": "knockout",
        "viewer": viewer,
        "players": obs["players"],
        "round": rnd,
        "rounds": obs["rounds"],
        "cards_per_player": obs["cards_per_player"],
        "dealer": obs["dealer"],
        "lead": obs["lead"],
        "current_player": current,
        "my_turn": current == viewer,
        "leading": current == viewer and not obs["trick"],
        "terminal": terminal,
        "elimination": obs["elimination"],
        "item": item,
        "item_label": None if item is None else ITEM_SHORT[item],
        "items": [ranges[i] for i in items],
        "hand": hand,
        "trick": trick,
        "turns_this_round": this_round,
        "last_turn": last_turn,
        "earlier_rounds": [{"round": r, "wins": w} for r, w in sorted(summary.items())],
        "seats": seats,
        "scores": list(obs["scores"]),
        "out": sorted(out),
        "you_are_out": viewer in out,
        "winners": obs["winners"],
        "phase": "over" if terminal else ("lead" if not obs["trick"] else "follow"),
        "phase_words": phase_words,
        "cards": faces,
    }


# ----------------------------------------------------------------------------- either game
def view_for(state, viewer: int) -> dict:
    """The view of either game's state."""
    return knockout_view(state, viewer) if _is_knockout(state) else witness_view(state, viewer)
