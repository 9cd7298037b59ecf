"""What a seat may click on the card table, and what it is told: click targets, the safety net, refusals.

Split out of :mod:`~safari_kit.presentation.views` (issue 28), which re-exports
every public name here; this module must not import the views back (that would
be an import circle).

- :func:`selectable_from_legal` maps the engine's ``legal_actions()`` to
  click targets; nothing here decides a rule. :func:`action_of` turns a target
  back into the engine action it carries.
- :func:`check_public` is the safety net: a target naming a card the view does
  not show is refused before it can reach the page.
- :func:`explain_refusal` says why a click is not accepted, in the engine's
  own words where a concrete action exists (``why_illegal`` in Witness, the
  ``IllegalActionError`` reason in Knockout).
- :func:`default_message`: the learner's line when the caller gives none.

>>> from safari_kit.witness import WitnessGame
>>> state = WitnessGame(players=2).new_initial_state(seed=3)
>>> [t["id"] for t in selectable_from_legal(state)]
['identify', 'reveal_another', 'challenge']
"""
from __future__ import annotations

from safari_kit.core.i18n import _
from safari_kit.presentation.card_words import pal_name
from safari_kit.presentation.refusal_words import PHASE_EXPECTS
from safari_kit.presentation.table_words import (
    ITEM_LABELS,
    _ABILITY_WORDS,
    _RULE_REF,
    _TYPE_WORDS,
    WITNESS_BUTTONS,
    _is_knockout,
    learner_sentence,
    mugshot_face,
)

__all__ = ["TARGET_KINDS", "selectable_from_legal", "action_of", "check_public", "explain_refusal",
           "default_message"]

TARGET_KINDS = ("place", "card", "clue", "archive", "item", "button")


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
                add_action("place", a.place, _("Place {place} (face down)").format(place=a.place), a)
            elif ability == "SAM" and isinstance(a, A.UseSam):
                for p in (a.first, a.second):
                    add("place", p, _("Place {p} (face down)").format(p=p))
            elif ability == "KRIS" and isinstance(a, A.UseKris):
                add("place", a.place, _("Place {place} (face down)").format(place=a.place))
            elif ability == "KIM" and isinstance(a, A.UseKim):
                add_action("card", a.card, _witness_face_label(state, a.card), a)
            elif ability == "TAM" and isinstance(a, A.UseTam):
                for spot in (a.first, a.second):
                    if spot[0] == "U":
                        add("place", int(spot[1:]), _("Place {x}").format(x=spot[1:]))
                    else:
                        player, pos = spot[1:].split(".")
                        add("archive", spot, _("Player {player}'s archive, card {x} from the bottom").format(
                            player=player, x=int(pos) + 1))
        return out
    for a in legal:
        button = WITNESS_BUTTONS.get(type(a))
        if button is not None:
            add_action("button", button[0], _(button[1]), a)
        elif isinstance(a, A.Declare):
            add("clue", a.clue, _witness_face_label(state, a.clue))
            add("button", "type:" + "+".join(a.types), _(" or ").join(_TYPE_WORDS[t] for t in a.types))
            add("place", a.place, _("Place {place} (face down)").format(place=a.place))
        elif isinstance(a, A.RevealNext):
            add_action("place", a.place, _("Place {place} (face down)").format(place=a.place), a)
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
            out.append(_target("card", a.card, pal_name(game.by_id[a.card])))
        if a.item is not None and ("item", a.item) not in seen:
            seen.add(("item", a.item))
            items.append(_target("item", a.item, ITEM_LABELS[a.item]))
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
            label = label or (_("Place {id}").format(id=id_) if kind == "place" else str(id_))
        out.append({**{k: v for k, v in t.items()}, "label": str(label)})
    return out


# ----------------------------------------------------------------------------- refusals
def explain_refusal(state, viewer: int, target: dict) -> str:
    """Why a click on ``target`` is not accepted now: the engine's reason where an action exists."""
    kind, id_ = target.get("kind"), target.get("id")
    if state is None:
        return _("There is no game on this table yet.")
    if _is_knockout(state):
        return _knockout_refusal(state, viewer, kind, id_)
    return _witness_refusal(state, viewer, kind, id_)


def _witness_refusal(state, viewer, kind, id_) -> str:
    from safari_kit.witness import actions as A
    from safari_kit.witness.state import PHASE_HELP

    if state.phase == "over":
        return _("The game is over: nothing can be clicked now.")
    if state.current_player != viewer:
        return _("It is Player {current_player}'s turn, not yours: watch for now.").format(
            current_player=state.current_player)
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
    # the engine's words (safari_kit.witness.rules.PHASE_HELP), from the catalogue's copy (refusal_words)
    expects = PHASE_EXPECTS[getattr(phase, "value", phase)] if getattr(phase, "value", phase) in PHASE_EXPECTS \
        else _RULE_REF.sub('', PHASE_HELP[phase])
    return {"place": _("That place is not clickable now: the game expects {expects}."),
            "card": _("That card is not clickable now: the game expects {expects}."),
            "clue": _("That clue card is not clickable now: the game expects {expects}."),
            "archive": _("That archive card is not clickable now: the game expects {expects}."),
            "button": _("That button is not clickable now: the game expects {expects}.")}.get(
                kind, _("That is not clickable now: the game expects {expects}.")).format(expects=expects)


def _knockout_refusal(state, viewer, kind, id_) -> str:
    from safari_kit.core.errors import IllegalActionError
    from safari_kit.knockout.actions import Play

    if state.is_terminal():
        return _("The game is over: nothing can be clicked now.")
    if viewer in state.out:
        return _("You are out of the game (you won no turn in a round): watch the others play.")
    if state.current_player != viewer:
        return _("It is Player {current_player}'s turn to play, not yours: wait for your turn.").format(
            current_player=state.current_player)
    hand = state.hand(viewer)
    if kind == "card":
        if id_ not in hand:
            return _("That card is not in your hand.")
        action = Play(id_, None if state.trick else state.game.items[0])
    elif kind == "item":
        if not hand:
            return _("You have no card to play.")
        action = Play(hand[0], id_)
    else:
        return _("That is not clickable now: play a card from your hand.")
    try:
        state.clone().apply(action)
    except IllegalActionError as exc:
        return learner_sentence(exc.reason)
    return _("That is not clickable in this step.")


# ----------------------------------------------------------------------------- default message
def default_message(view: dict, selectable: list[dict]) -> str:
    """A line for the learner when the caller gives none."""
    if view.get("game") == "knockout":
        if view.get("terminal"):
            return view["phase_words"]
        if view.get("you_are_out"):
            return _("You are out: watch how the others play.")
        if not view.get("my_turn"):
            return _("Waiting: Player {current_player} is playing.").format(current_player=view['current_player'])
        kinds = {t["kind"] for t in selectable}
        if "item" in kinds:
            return _("You lead! Pick a card, then the data item you think it wins with.")
        if "card" in kinds:
            return _("Your turn: pick a card to play. {item_label} counts this turn.").format(
                item_label=view['item_label'])
        return view["phase_words"]
    if view.get("phase") == "over":
        return view["phase_words"]
    if view.get("phase") == "face_up" and not view.get("my_turn"):
        return (_("Player {current_player} failed: the cards they revealed lie face up for everyone. "
                  "Remember them!").format(current_player=view['current_player']))
    if not view.get("my_turn"):
        return _("Waiting: Player {current_player} is playing.").format(current_player=view['current_player'])
    kinds = {t["kind"] for t in selectable}
    phase = view.get("phase")
    if phase == "identify" and "place" in kinds:
        return _("Pick a clue card, a clue type and a face-down place to reveal.")
    if phase == "challenge":
        return _("Pick a face-down place to reveal ({safe_reveals} safe so far).").format(
            safe_reveals=view['safe_reveals'])
    if phase == "archive":
        return (_("You did it! Put the cards on your archive one at a time: click the one that goes next; "
                  "the last one ends on top."))
    if phase == "face_up":
        return _("Your turn failed. Everyone sees the face-up cards now. Remember them, then press Next turn.")
    if phase == "abilities":
        return _("Use a name ability, or end your turn.")
    if phase == "alan":
        return _("ALAN: pick archived cards to identify again, then press 'ALAN: identify now'.")
    if phase == "choose":
        return _("Your turn: Identify, reveal another clue, or Challenge?")
    return view.get("phase_words", "")
