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
- :func:`selectable_from_legal` maps the engine's ``legal_actions()`` to
  click targets; nothing here decides a rule.
- :func:`explain_refusal` says why a click is not accepted, in the engine's
  own words where a concrete action exists (``why_illegal`` in Witness, the
  ``IllegalActionError`` reason in Knockout).

>>> from safari_kit.witness import WitnessGame
>>> state = WitnessGame(players=2).new_initial_state(seed=3)
>>> view = witness_view(state, 0)
>>> [p for p in view["places"]][0]
{'place': 1, 'face_up': False}
>>> [t["id"] for t in selectable_from_legal(state)]
['identify', 'reveal_another', 'challenge']
"""
from __future__ import annotations

import math
import re

from safari_kit.cards.model import DATA_ITEM_LABELS, DATA_ITEMS

__all__ = ["witness_view", "knockout_view", "view_for", "selectable_from_legal", "explain_refusal", "learner_sentence",
           "action_of", "WITNESS_BUTTONS",
           "check_public", "default_message", "TARGET_KINDS", "mugshot_face", "pal_face"]

TARGET_KINDS = ("place", "card", "clue", "archive", "item", "button")

# ----------------------------------------------------------------------------- words
_RULE_REF = re.compile(r"\s*\((?:[WK]\d+[a-z ]*)\)")


def learner_sentence(text: str) -> str:
    """An engine reason as a learner's sentence: no rule numbers, capital first letter, a full stop."""
    text = _RULE_REF.sub("", str(text)).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _who(player: int | None, viewer: int) -> str:
    if player is None or player < 0:
        return "nobody"
    return "you" if player == viewer else f"Player {player}"


def _Who(player: int | None, viewer: int) -> str:
    w = _who(player, viewer)
    return w[0].upper() + w[1:]


# ----------------------------------------------------------------------------- Witness
WITNESS_PHASE_WORDS = {  # (said to the viewer, said about another player)
    "choose": ("choose: Identify, reveal another clue, or Challenge",
               "is choosing: Identify, another clue, or Challenge"),
    "identify": ("identify: pick a clue card, a clue type and a face-down place", "is identifying"),
    "challenge": ("challenge: reveal face-down cards; after 4 safe ones you may stop", "is challenging"),
    "archive": ("archive: put the cards won on your archive one at a time; the last one goes on top",
                "is archiving the cards won"),
    "face_up": ("it failed, so everyone sees the face-up cards now. Remember them, then press Next turn",
                "failed: the revealed cards lie face up. Remember them!"),
    "abilities": ("use a name ability, or end your turn", "may use a name ability"),
    "alan": ("use ALAN: take archived cards into the Clue Area, then identify", "is using ALAN"),
}
_TYPE_WORDS = {"animal": "Animal", "texture": "Texture", "color": "Color", "name": "Name"}


def _witness_buttons() -> dict:
    from safari_kit.witness import actions as A

    return {  # one button per action without fields: (button id, label)
        A.Identify: ("identify", "Identify"),
        A.RevealAnother: ("reveal_another", "Reveal another clue"),
        A.Challenge: ("challenge", "Challenge"),
        A.StopChallenge: ("stop", "Stop and archive"),
        A.TurnFaceDown: ("face_down", "Next turn"),  # one name in every lab (issue 27)
        A.AlanDone: ("alan_done", "ALAN: identify now"),
        A.UseAlan: ("use:ALAN", "ALAN: identify again"),
        A.EndTurn: ("end_turn", "End turn"),
    }


WITNESS_BUTTONS = _witness_buttons()
_ABILITY_WORDS = {
    "TAM": "TAM: swap two cards", "TOM": "TOM: peek at a face-down card",
    "SAM": "SAM: shuffle two face-down cards", "KIM": "KIM: send an archived card back",
    "KRIS": "KRIS: name an element and reveal", "ALAN": "ALAN: identify again",
}


def mugshot_face(card) -> dict:
    """The public face of a face-up Mugshot (only ever called for face-up cards)."""
    hidden = card.name.count("?")
    label = f"{card.color} {card.animal}, {card.texture}, named {card.name}"
    if hidden:
        label += f" ({hidden} letter{'s' if hidden > 1 else ''} hidden by ink)"
    return {"id": card.id, "animal": card.animal, "texture": card.texture, "color": card.color,
            "name": card.name, "ink": hidden > 0, "label": label}


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
        clue_title = f"Clue · {obs['safe_reveals']} safe"
    else:
        clue_title = "Clue Area"
    archives = []
    for p, archive in enumerate(obs["archives"]):
        archives.append({"player": p, "count": len(archive), "cards": [face(c) for c in archive],
                         "you": p == viewer})
    over = obs["phase"] == "over"
    current = obs["current_player"]
    if over:
        winners = obs["winners"] or []
        names = " and ".join(_who(w, viewer) for w in winners)
        how = "an archive reached 10 Mugshots" if obs["end_reason"] == "archive" else "the deck ran out"
        phase_words = f"Game over ({how}). Winner{'s' if len(winners) > 1 else ''}: {names}."
    else:
        mine, theirs = WITNESS_PHASE_WORDS.get(obs["phase"], (obs["phase"], obs["phase"]))
        phase_words = learner_sentence(f"Your turn: {mine}" if current == viewer else f"Player {current} {theirs}")
        if obs["phase"] == "challenge":
            phase_words += f" Safe so far: {obs['safe_reveals']}."
    case = None
    if obs["case_card"] is not None:
        from safari_kit.witness.cases import CASE_BY_KEY

        c = CASE_BY_KEY.get(obs["case_card"])
        case = {"key": obs["case_card"], "text": c.text if c else obs["case_card"]}
    all_cases = None
    if obs["case_cards"] is not None:
        from safari_kit.witness.cases import CASE_BY_KEY

        all_cases = [{"player": p, "key": k, "text": CASE_BY_KEY[k].text if k in CASE_BY_KEY else k}
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
ITEM_UNITS = {"weight_kg": "kg", "size_cm": "cm", "top_speed_kmh": "km/h", "lifespan_years": "years"}
ITEM_SHORT = {"weight_kg": "Weight", "size_cm": "Size", "top_speed_kmh": "Top speed", "lifespan_years": "Lifespan"}
LOG_ITEMS = ("weight_kg",)


def _fmt(v: float) -> str:
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}".rstrip("0").rstrip(".")
    return f"{v:.2f}".rstrip("0").rstrip(".")


def deck_ranges(cards) -> dict:
    """The public range of every data item over the whole deck (the bars' scales)."""
    out = {}
    for item in DATA_ITEMS:
        values = [float(getattr(c, item)) for c in cards]
        lo, hi = min(values), max(values)
        out[item] = {"id": item, "label": ITEM_SHORT[item], "long_label": DATA_ITEM_LABELS[item],
                     "unit": ITEM_UNITS[item], "min": lo, "max": hi,
                     "scale": "log" if item in LOG_ITEMS else "linear",
                     "range_text": f"{_fmt(lo)}–{_fmt(hi)} {ITEM_UNITS[item]}"}
    return out


def _fraction(v: float, r: dict) -> float:
    lo, hi = r["min"], r["max"]
    if r["scale"] == "log":
        lo = max(lo, 1e-9)
        if hi <= lo:
            return 1.0
        f = (math.log(max(v, lo)) - math.log(lo)) / (math.log(hi) - math.log(lo))
    else:
        f = v / hi if hi > 0 else 1.0
    return round(min(1.0, max(0.04, f)), 4)


def pal_face(card, ranges: dict, items=DATA_ITEMS) -> dict:
    """The public face of a Safari Pal the viewer may see: name, values, bars against the deck's range."""
    bars = []
    for item in items:
        v = float(getattr(card, item))
        r = ranges[item]
        bars.append({"item": item, "label": r["label"], "unit": r["unit"], "value": v,
                     "text": f"{_fmt(v)} {r['unit']}", "fraction": _fraction(v, r), "scale": r["scale"]})
    label = card.name + ": " + ", ".join(f"{b['label'].lower()} {b['text']}" for b in bars)
    return {"id": card.id, "name": card.name, "bars": bars, "label": label}


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
        phase_words = (f"Game over. Winner{'s' if len(winners) > 1 else ''}: "
                       + " and ".join(_who(w, viewer) for w in winners) + ".")
    elif not obs["trick"]:
        phase_words = (f"{_Who(current, viewer)} lead{'' if current == viewer else 's'} turn {len(this_round) + 1}: "
                       "play a card and name a data item.")
    else:
        phase_words = (f"{_Who(current, viewer)} play{'' if current == viewer else 's'} a card. "
                       f"The named item is {ITEM_SHORT[item]}: highest wins, first card wins a tie.")
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


def _is_knockout(state) -> bool:
    return hasattr(state, "trick") and not hasattr(state, "places")


def view_for(state, viewer: int) -> dict:
    """The view of either game's state."""
    return knockout_view(state, viewer) if _is_knockout(state) else witness_view(state, viewer)


# ----------------------------------------------------------------------------- click targets
def _target(kind: str, id_, label: str) -> dict:
    return {"kind": kind, "id": id_, "label": label}


def _witness_face_label(state, cid: str) -> str:
    return mugshot_face(state.game.cards[state.game.index[cid]])["label"]


def selectable_from_legal(state, ability: str | None = None) -> list[dict]:
    """Click targets for the player to act, from ``state.legal_actions()`` only.

    Witness: buttons for Identify / Reveal another / Challenge / Stop / End turn
    (and each earned ability, ALAN's "identify now"); in an identification the
    unresolved clue cards (kind ``clue``), the clue types (buttons ``type:…``)
    and the places a Declare may pick; places for RevealNext; cards for
    ArchiveCard and AlanTake; the "turn face down" button after a failure. With
    ``ability="TOM"`` (``"SAM"``, ``"KRIS"``, ``"KIM"``, ``"TAM"``) the targets
    of that ability instead: places, archived cards, or places and archive
    spots (kind ``archive``, ids like ``"A1.3"``).
    Knockout: the cards of the hand, and the data items when leading.
    The caller shows these only to the player to act.
    """
    if _is_knockout(state):
        return _knockout_targets(state)
    from safari_kit.witness import actions as A

    legal = state.legal_actions()
    out: list[dict] = []
    seen: set = set()

    def add(kind, id_, label):
        if (kind, id_) not in seen:
            seen.add((kind, id_))
            out.append(_target(kind, id_, label))

    def add_action(kind, id_, label, action):
        """A target that is one whole engine action: it carries the action itself (``action.to_dict()``)."""
        if (kind, id_) not in seen:
            seen.add((kind, id_))
            out.append({**_target(kind, id_, label), "action": action.to_dict()})

    if ability is not None:
        ability = ability.upper()
        for a in legal:
            if ability == "TOM" and isinstance(a, A.UseTom):
                add_action("place", a.place, f"Place {a.place} (face down)", a)
            elif ability == "SAM" and isinstance(a, A.UseSam):
                for p in (a.first, a.second):
                    add("place", p, f"Place {p} (face down)")
            elif ability == "KRIS" and isinstance(a, A.UseKris):
                add("place", a.place, f"Place {a.place} (face down)")
            elif ability == "KIM" and isinstance(a, A.UseKim):
                add_action("card", a.card, _witness_face_label(state, a.card), a)
            elif ability == "TAM" and isinstance(a, A.UseTam):
                for spot in (a.first, a.second):
                    if spot[0] == "U":
                        add("place", int(spot[1:]), f"Place {spot[1:]}")
                    else:
                        player, pos = spot[1:].split(".")
                        add("archive", spot, f"Player {player}'s archive, card {int(pos) + 1} from the bottom")
        return out
    for a in legal:
        button = WITNESS_BUTTONS.get(type(a))
        if button is not None:
            add_action("button", button[0], button[1], a)
        elif isinstance(a, A.Declare):
            add("clue", a.clue, _witness_face_label(state, a.clue))
            add("button", "type:" + "+".join(a.types), " or ".join(_TYPE_WORDS[t] for t in a.types))
            add("place", a.place, f"Place {a.place} (face down)")
        elif isinstance(a, A.RevealNext):
            add_action("place", a.place, f"Place {a.place} (face down)", a)
        elif isinstance(a, (A.ArchiveCard, A.AlanTake)):
            add_action("card", a.card, _witness_face_label(state, a.card), a)
        elif type(a).__name__.startswith("Use"):
            name = type(a).__name__[3:].upper()
            add("button", "use:" + name, _ABILITY_WORDS.get(name, name))
    # buttons last but End turn very last, clue-type buttons in the engine's order
    return out


def action_of(target: dict):
    """The engine action a click target stands for (its ``"action"``), or None for a part of one.

    Targets built by :func:`selectable_from_legal` carry whole actions as
    ``action.to_dict()``; this turns one back with the engine's own
    ``action_from_dict``, so a lab never re-encodes an action as a string.
    """
    doc = target.get("action")
    if doc is None:
        return None
    from safari_kit.core.records import action_from_dict
    from safari_kit.witness.actions import ACTION_TYPES

    return action_from_dict(doc, ACTION_TYPES, 0)


def _knockout_targets(state) -> list[dict]:
    game = state.game
    out: list[dict] = []
    items: list[dict] = []
    seen: set = set()
    for a in state.legal_actions():
        if ("card", a.card) not in seen:
            seen.add(("card", a.card))
            out.append(_target("card", a.card, game.by_id[a.card].name))
        if a.item is not None and ("item", a.item) not in seen:
            seen.add(("item", a.item))
            items.append(_target("item", a.item, DATA_ITEM_LABELS[a.item]))
    return out + items


# ----------------------------------------------------------------------------- safety net
def _visible(view: dict) -> dict[str, set]:
    vis = {"place": set(), "card": set(view.get("cards", {})), "archive": set()}
    for p in view.get("places", []):
        vis["place"].add(p["place"])
    for a in view.get("archives", []):
        for i in range(a["count"]):
            vis["archive"].add(f"A{a['player']}.{i}")
    return vis


def check_public(view: dict, targets) -> list[dict]:
    """Normalise caller-given targets and refuse any that would name a card the view does not show.

    A ``card`` or ``clue`` target must be a face-up card of the view, a
    ``place`` a place on the table, an ``archive`` target an existing spot.
    Raises ``ValueError`` otherwise (a hidden card must never reach the page).
    """
    vis = _visible(view)
    out = []
    for t in targets or []:
        if not isinstance(t, dict) or "kind" not in t or "id" not in t:
            raise ValueError(f"a click target is a dict with 'kind' and 'id', got {t!r}")
        kind, id_ = t["kind"], t["id"]
        if kind not in TARGET_KINDS:
            raise ValueError(f"unknown target kind {kind!r}; expected one of {', '.join(TARGET_KINDS)}")
        if kind in ("card", "clue") and id_ not in vis["card"]:
            raise ValueError(f"target {t!r} names a card the viewer cannot see")
        if kind == "place" and id_ not in vis["place"]:
            raise ValueError(f"target {t!r}: there is no such place on the table")
        if kind == "archive" and id_ not in vis["archive"]:
            raise ValueError(f"target {t!r}: there is no such archive spot")
        label = t.get("label")
        if label is None:
            label = view.get("cards", {}).get(id_, {}).get("label") if kind in ("card", "clue") else None
            label = label or (f"Place {id_}" if kind == "place" else str(id_))
        out.append({**{k: v for k, v in t.items()}, "label": str(label)})
    return out


# ----------------------------------------------------------------------------- refusals
def explain_refusal(state, viewer: int, target: dict) -> str:
    """Why a click on ``target`` is not accepted now: the engine's reason where an action exists."""
    kind, id_ = target.get("kind"), target.get("id")
    if state is None:
        return "There is no game on this table yet."
    if _is_knockout(state):
        return _knockout_refusal(state, viewer, kind, id_)
    return _witness_refusal(state, viewer, kind, id_)


def _witness_refusal(state, viewer, kind, id_) -> str:
    from safari_kit.witness import actions as A
    from safari_kit.witness.state import PHASE_HELP

    if state.phase == "over":
        return "The game is over: nothing can be clicked now."
    if state.current_player != viewer:
        return f"It is Player {state.current_player}'s turn, not yours: watch for now."
    action = None
    phase = state.phase
    if kind == "place":
        if phase == "identify":
            clues = [state.card_id(c) for c in state.clue if c not in state.resolved]
            if clues:
                action = A.Declare(clues[0], state.type_choices()[0], id_)
        elif phase == "challenge":
            action = A.RevealNext(id_)
    elif kind in ("card", "clue"):
        if phase == "archive":
            action = A.ArchiveCard(id_)
        elif phase == "alan":
            action = A.AlanTake(id_)
        elif phase == "identify" and kind == "clue":
            action = A.Declare(id_, state.type_choices()[0], (state.available_places() or [0])[0])
    elif kind == "button":
        action = next((cls() for cls, (bid, _) in WITNESS_BUTTONS.items() if bid == id_), None)
    if action is not None and not state.is_legal(action):
        return learner_sentence(state.why_illegal(action))
    what = {"place": "That place", "card": "That card", "clue": "That clue card", "archive": "That archive card",
            "button": "That button", "item": "That"}.get(kind, "That")
    return f"{what} is not clickable now: the game expects {_RULE_REF.sub('', PHASE_HELP[phase])}."


def _knockout_refusal(state, viewer, kind, id_) -> str:
    from safari_kit.core.errors import IllegalActionError
    from safari_kit.knockout.actions import Play

    if state.is_terminal():
        return "The game is over: nothing can be clicked now."
    if viewer in state.out:
        return "You are out of the game (you won no turn in a round): watch the others play."
    if state.current_player != viewer:
        return f"It is Player {state.current_player}'s turn to play, not yours: wait for your turn."
    hand = state.hand(viewer)
    if kind == "card":
        if id_ not in hand:
            return "That card is not in your hand."
        action = Play(id_, None if state.trick else state.game.items[0])
    elif kind == "item":
        if not hand:
            return "You have no card to play."
        action = Play(hand[0], id_)
    else:
        return "That is not clickable now: play a card from your hand."
    try:
        state.clone().apply(action)
    except IllegalActionError as exc:
        return learner_sentence(exc.reason)
    return "That is not clickable in this step."


# ----------------------------------------------------------------------------- default message
def default_message(view: dict, selectable: list[dict]) -> str:
    """A line for the learner when the caller gives none."""
    if view.get("game") == "knockout":
        if view.get("terminal"):
            return view["phase_words"]
        if view.get("you_are_out"):
            return "You are out: watch how the others play."
        if not view.get("my_turn"):
            return f"Waiting: Player {view['current_player']} is playing."
        kinds = {t["kind"] for t in selectable}
        if "item" in kinds:
            return "You lead! Pick a card, then the data item you think it wins with."
        if "card" in kinds:
            return f"Your turn: pick a card to play. {view['item_label']} counts this turn."
        return view["phase_words"]
    if view.get("phase") == "over":
        return view["phase_words"]
    if view.get("phase") == "face_up" and not view.get("my_turn"):
        return (f"Player {view['current_player']} failed: the cards they revealed lie face up for everyone. "
                "Remember them!")
    if not view.get("my_turn"):
        return f"Waiting: Player {view['current_player']} is playing."
    kinds = {t["kind"] for t in selectable}
    phase = view.get("phase")
    if phase == "identify" and "place" in kinds:
        return "Pick a clue card, a clue type and a face-down place to reveal."
    if phase == "challenge":
        return f"Pick a face-down place to reveal ({view['safe_reveals']} safe so far)."
    if phase == "archive":
        return ("You did it! Put the cards on your archive one at a time: click the one that goes next; "
                "the last one ends on top.")
    if phase == "face_up":
        return "Your turn failed. Everyone sees the face-up cards now. Remember them, then press Next turn."
    if phase == "abilities":
        return "Use a name ability, or end your turn."
    if phase == "alan":
        return "ALAN: pick archived cards to identify again, then press 'ALAN: identify now'."
    if phase == "choose":
        return "Your turn: Identify, reveal another clue, or Challenge?"
    return view.get("phase_words", "")
