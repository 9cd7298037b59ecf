"""What one player may know in Safari Witness, and nothing else.

The observation is the only thing a bot, a widget or a lesson sees. Every
face-down card is a back; after a failed turn (phase ``face_up``) the cards
that were revealed lie face up in ``unidentified`` for everyone until they are
turned face down; what a player saw earlier is in the log (public
reveals, the player's own TOM looks), so memory can be modelled on top. The
deck order, unrevealed places, another player's TOM look and the result of a
SAM shuffle appear nowhere.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, fields

_ATOMS = (str, int, float, bool, type(None))


def _copy(x):
    """A copy of JSON-like data (tuples stay tuples, as asdict keeps them); an atom is itself. Written for the
    types an observation holds: a dataclass inside would stay one (asdict would make it a dict)."""
    t = type(x)
    if t in _ATOMS:
        return x
    if t is tuple:
        return tuple(_copy(v) for v in x)
    if t is list:
        return [_copy(v) for v in x]
    if t is dict:
        return {_copy(k): _copy(v) for k, v in x.items()}
    return copy.deepcopy(x)  # what asdict does with anything else (a str enum such as Phase: itself)


@dataclass(frozen=True)
class WitnessObservation:
    player: int
    players: int
    current_player: int | None
    phase: str
    turn: int
    deck_count: int
    unidentified: tuple[tuple[int, str | None], ...]  # (place id, card id when face up else None)
    revealed_this_turn: tuple[int, ...]
    available_places: tuple[int, ...]
    clue_area: tuple[str, ...]
    identified_clues: tuple[str, ...]
    won_this_turn: tuple[str, ...]
    challenged: str | None
    safe_reveals: int
    archives: tuple[tuple[str, ...], ...]  # bottom to top; archives are public (W10)
    case_card: str | None  # this player's own Case Card
    case_cards: tuple[str, ...] | None  # everybody's, only once the game is over
    pending_abilities: tuple[tuple[str, ...], ...]  # the sets earned this turn, one per name success
    used_abilities: tuple[str, ...]  # used this turn, each spending one success
    usable_abilities: tuple[str, ...]  # what may still be used now (a matching, W10)
    archive_order: tuple[str, ...]  # won cards already put on the archive this turn, bottom first (W4)
    alex: bool  # may the player to act declare two clue types now?
    scores: tuple[int, ...]  # archive sizes during play; final totals (with Case points) at the end
    winners: tuple[int, ...] | None
    end_reason: str | None
    log: tuple[dict, ...]

    def to_dict(self) -> dict:
        """Plain JSON types, for widgets and files: what ``dataclasses.asdict`` gives (a copy the caller may
        change), made by :func:`_copy` because asdict deep-copies generically and the log grows all game long
        (a widget's redraw after each action spent most of its time there, issue 28)."""
        d = {f.name: _copy(getattr(self, f.name)) for f in fields(self)}
        d["unidentified"] = [list(x) for x in self.unidentified]
        return d

    def card_ids(self) -> set[str]:
        """Every card id this observation mentions anywhere (for leak tests)."""
        found: set[str] = set()

        def walk(x):
            if isinstance(x, str):
                found.add(x)
            elif isinstance(x, dict):
                for k, v in x.items():
                    walk(k)
                    walk(v)
            elif isinstance(x, (list, tuple)):
                for v in x:
                    walk(v)

        walk(self.to_dict())
        return found

    def _repr_html_(self) -> str:
        from safari_kit.witness.html import observation_html

        return observation_html(self)


def observe(state, player: int) -> WitnessObservation:
    if not isinstance(player, int) or not 0 <= player < state.players:
        raise ValueError(f"player must be a seat from 0 to {state.players - 1}, got {player!r}")
    ids = state.card_id
    over = state.phase == "over"
    log = []
    for event, who, private in state.log:
        if private is not None and who == player:
            log.append({**event, **private})
        else:
            log.append(dict(event))
    current = state.current_player
    alex = current is not None and state.game.options.advanced and state.alex_on_top()
    return WitnessObservation(
        player=player,
        players=state.players,
        current_player=current,
        phase=state.phase,
        turn=state.turn,
        deck_count=len(state.deck),
        unidentified=tuple((p, ids(state.card_at[p]) if p in state.face_up else None) for p in state.places),
        revealed_this_turn=tuple(p for p in state.places if p in state.turn_revealed),
        available_places=tuple(state.available_places()) if not over else (),
        clue_area=tuple(ids(c) for c in state.clue),
        identified_clues=tuple(ids(c) for c in state.resolved),
        won_this_turn=tuple(ids(c) for c in state.won),
        challenged=None if state.challenged is None else ids(state.challenged),
        safe_reveals=state.safe,
        archives=tuple(tuple(ids(c) for c in a) for a in state.archives),
        case_card=None if state.case_cards is None else state.case_cards[player],
        case_cards=tuple(state.case_cards) if over and state.case_cards is not None else None,
        pending_abilities=tuple(tuple(sorted(s)) for s in state.pending),
        used_abilities=tuple(state.used),
        usable_abilities=tuple(sorted(state.usable_abilities())) if state.phase == "abilities" else (),
        archive_order=tuple(ids(c) for c in state.stacking),
        alex=bool(alex),
        scores=tuple(state.scores()) if over else tuple(state.archive_sizes()),
        winners=tuple(state.winners()) if over else None,
        end_reason=state.end_reason,
        log=tuple(log),
    )
