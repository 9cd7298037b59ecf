"""Why an action is illegal: one clear sentence for errors, widgets and learners.

Legality itself is decided only by ``WitnessState.legal_actions()``; this module
only explains a refusal, so a wrong click can be answered in words.
"""
from __future__ import annotations

from safari_kit.cards.model import CLUE_TYPES
from safari_kit.witness import actions as A
from safari_kit.witness.rules import KRIS_ELEMENTS, PHASE_HELP, Phase

PHASE_ACTIONS = {
    Phase.CHOOSE: (A.Identify, A.RevealAnother, A.Challenge),
    Phase.IDENTIFY: (A.Declare,),
    Phase.CHALLENGE: (A.RevealNext, A.StopChallenge),
    Phase.ARCHIVE: (A.ArchiveCard,),
    Phase.FACE_UP: (A.TurnFaceDown,),
    Phase.ABILITIES: (A.UseTam, A.UseTom, A.UseSam, A.UseKim, A.UseKris, A.UseAlan, A.EndTurn),
    Phase.ALAN: (A.AlanTake, A.AlanDone),
    Phase.OVER: (),
}
_ABILITY_OF = {A.UseTam: "TAM", A.UseTom: "TOM", A.UseSam: "SAM", A.UseKim: "KIM", A.UseKris: "KRIS", A.UseAlan: "ALAN"}


def why_illegal(state, action) -> str:
    phase = state.phase
    if phase == Phase.OVER:
        return f"the game is over (it ended by {state.end_reason}); no action is legal"
    if not isinstance(action, PHASE_ACTIONS[phase]):
        return f"the game now expects {PHASE_HELP[phase]}, not {type(action).__name__}"
    reason = _specific(state, action)
    return reason or f"not among the {len(state.legal_actions())} legal actions now ({PHASE_HELP[phase]})"


def _place_problem(state, place, what="place") -> str | None:
    if not isinstance(place, int) or place not in state.card_at:
        return f"there is no {what} {place!r} in the Unidentified Area (places: {state.places})"
    if place in state.face_up or place in state.turn_revealed:
        return f"place {place} was revealed earlier this turn; pick a face-down place not yet revealed (W4)"
    return None


def _specific(state, action) -> str | None:
    game = state.game
    if isinstance(action, A.RevealAnother) and not state.deck:
        return "the deck is empty, so no card can be revealed (W3 b)"
    if isinstance(action, A.Declare):
        if (not isinstance(action.clue, str) or action.clue not in game.index
                or game.index[action.clue] not in state.clue):
            clue = [state.card_id(c) for c in state.clue]
            return f"{action.clue!r} is not in the Clue Area (it holds {clue})"
        if game.index[action.clue] in state.resolved:
            return f"{action.clue} was already identified this turn"
        if not isinstance(action.types, tuple) or not 1 <= len(action.types) <= 2:
            return "declare one clue type (two with ALEX)"
        for t in action.types:
            if t not in CLUE_TYPES:
                return f"unknown clue type {t!r}; expected one of {', '.join(CLUE_TYPES)}"
        if len(action.types) == 2:
            if action.types[0] == action.types[1]:
                return "the two declared clue types must differ"
            if not (game.options.advanced and state.alex_on_top()):
                return "two clue types need ALEX (ALEX, AL?? or ?L??) on top of your archive in Advanced Mode (W10)"
            if action.types not in state.type_choices():
                return f"write the two types in the order {' , '.join(CLUE_TYPES)}"
        return _place_problem(state, action.place)
    if isinstance(action, A.RevealNext):
        return _place_problem(state, action.place)
    if isinstance(action, A.StopChallenge):
        return f"only {state.safe} safe reveal(s) so far; a Challenge may stop after 4 (W5)"
    if isinstance(action, A.ArchiveCard):
        won = [state.card_id(c) for c in state.won]
        return f"{action.card!r} is not among the cards still to archive ({won})"
    if type(action) in _ABILITY_OF:
        name = _ABILITY_OF[type(action)]
        if not any(name in names for names in state.pending):
            pending = [sorted(n) for n in state.pending]
            return f"no {name} ability was earned this turn (pending: {pending})"
        if name not in state.usable_abilities():
            return (f"{name} is not usable any more: the successes earned this turn "
                    f"({[sorted(n) for n in state.pending]}) are spent on {state.used}")
        return _ability_target_problem(state, action)
    if isinstance(action, A.AlanTake):
        if not isinstance(action.card, str) or action.card not in game.index \
                or game.index[action.card] not in state.archives[state.current]:
            return f"{action.card!r} is not in your Archive Area"
        return "you cannot take more cards than there are face-down places to identify against"
    if isinstance(action, A.AlanDone):
        return "take at least one archived card into the Clue Area first"
    return None


def _down_problem(state, place) -> str | None:
    if not isinstance(place, int) or place not in state.card_at:
        return f"there is no place {place!r} in the Unidentified Area (places: {state.places})"
    if place in state.face_up:
        return f"place {place} is face up; pick a face-down place"
    return None


def _ability_target_problem(state, action) -> str | None:
    if isinstance(action, A.UseTam):
        if action.first == action.second:
            return "TAM swaps two different spots"
        spots = state.spots()
        for spot in (action.first, action.second):
            if spot not in spots:
                return f"{spot!r} is not a spot on the table; use 'U<place>' or 'A<player>.<position>'"
        return "write the two spots in table order (Unidentified places first, then archives)"
    if isinstance(action, A.UseTom):
        return _down_problem(state, action.place)
    if isinstance(action, A.UseSam):
        if action.first == action.second:
            return "SAM shuffles two different places"
        return _down_problem(state, action.first) or _down_problem(state, action.second) or \
            "write the two places in table order"
    if isinstance(action, A.UseKim):
        return f"{action.card!r} is not in any Archive Area"
    if isinstance(action, A.UseKris):
        if action.element not in KRIS_ELEMENTS:
            return f"unknown element {action.element!r}; name an animal, texture, color or name"
        return _down_problem(state, action.place)
    if isinstance(action, A.UseAlan):
        if not state.archives[state.current]:
            return "your Archive Area is empty: ALAN has nothing to take"
        return "no face-down place is left to identify against"
    return None
