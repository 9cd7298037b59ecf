"""The Safari Witness game: fixed rules, options and card data (no playthrough state).

A :class:`WitnessGame` precomputes, once, which pairs of cards share an
element of each clue type, so the rules never re-derive it in the hot path.
A playthrough is a :class:`~safari_kit.witness.state.WitnessState` made by
:meth:`WitnessGame.new_initial_state`.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from safari_kit.cards.model import CLUE_TYPES, Mugshot
from safari_kit.cards.names import shared_names
from safari_kit.core.errors import IllegalActionError, RecordError
from safari_kit.core.records import action_from_dict, read_record
from safari_kit.witness import actions as A
from safari_kit.witness.state import WitnessState

MIN_PLAYERS, MAX_PLAYERS = 2, 7


@dataclass(frozen=True, slots=True)
class WitnessOptions:
    """Options of one game (W11, W9, W10). ``first_player=None``: the seed picks one."""

    players: int = 3
    case_module: bool = False
    advanced: bool = False
    first_player: int | None = None

    def to_dict(self) -> dict:
        return {"players": self.players, "case_module": self.case_module,
                "advanced": self.advanced, "first_player": self.first_player}


@dataclass(frozen=True, slots=True)
class _DeckTables:
    index: dict  # card id -> index
    shares: dict  # shares[t][i] = frozenset of j whose element of clue type t equals card i's (names per W2)
    unsafe: tuple  # unsafe[i]: cards sharing any element with i, names included (W5)
    archive_actions: tuple  # an ArchiveCard action per card index


@functools.lru_cache(maxsize=8)
def _deck_tables(cards: tuple[Mugshot, ...]) -> _DeckTables:
    """The pairs of cards that share an element, worked out once per deck: a lab that tries seeds for a deal of
    its kind builds dozens of games from the same deck (issue 28: this was half of the time to open one).
    Cards are frozen values, so a deck is its own key; the tables are read, never changed."""
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise ValueError("card ids must be unique")
    n = len(cards)
    shares = {}
    for t in ("animal", "texture", "color"):
        values = [getattr(c, t) for c in cards]
        shares[t] = tuple(frozenset(j for j in range(n) if j != i and values[j] == values[i]) for i in range(n))
    name_sets = [c.possible_names for c in cards]
    shares["name"] = tuple(frozenset(j for j in range(n) if j != i and name_sets[i] & name_sets[j])
                           for i in range(n))
    unsafe = tuple(frozenset().union(*(shares[t][i] for t in CLUE_TYPES)) for i in range(n))
    return _DeckTables(index={c.id: i for i, c in enumerate(cards)}, shares=shares, unsafe=unsafe,
                       archive_actions=tuple(A.ArchiveCard(c.id) for c in cards))


class WitnessGame:
    """Rules + options + card data for Safari Witness.

    >>> game = WitnessGame(players=3)
    >>> state = game.new_initial_state(seed=1)
    >>> state.phase
    'choose'
    """

    name = "witness"

    def __init__(self, players: int = 3, case_module: bool = False, advanced: bool = False,
                 first_player: int | None = None, cards: Sequence[Mugshot] | None = None):
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS} (W11), got {players!r}")
        if first_player is not None and (not isinstance(first_player, int) or not 0 <= first_player < players):
            raise ValueError(f"first_player must be a seat from 0 to {players - 1} or None, got {first_player!r}")
        if case_module and players > 8:
            raise ValueError("the Case Module has 8 Case Cards")
        self.options = WitnessOptions(players, bool(case_module), bool(advanced), first_player)
        if cards is None:
            from safari_kit.cards.load import load_cards

            cards = load_cards().witness
        cards = tuple(cards)
        if len(cards) < 8:
            raise ValueError(f"a Witness deck needs at least 8 Mugshots (4 to set up and clues to play), "
                             f"got {len(cards)}")
        self.cards: tuple[Mugshot, ...] = cards
        tables = _deck_tables(cards)
        self.index = tables.index
        self.shares = tables.shares
        self.unsafe = tables.unsafe
        self.archive_actions = tables.archive_actions  # interned, by card index
        self.declare_cache: dict = {}  # interned Declare actions: legal_actions() builds many
        self.reveal_cache: dict = {}  # interned RevealNext actions, by place

    @property
    def players(self) -> int:
        return self.options.players

    def shared(self, i: int, j: int, clue_type: str) -> bool:
        """Do cards i and j (indices) share an element of ``clue_type``?"""
        return j in self.shares[clue_type][i]

    def shared_names(self, i: int, j: int) -> frozenset[str]:
        return shared_names(self.cards[i].name, self.cards[j].name)

    def new_initial_state(self, seed: int | None = None, deck_order: Sequence[str] | None = None):
        """Start a playthrough.

        ``deck_order`` scripts a position: those card ids are dealt first, in
        order (the first four go to the Unidentified Area, the fifth is the
        first clue); the remaining cards follow in an order the seed shuffles.
        """
        return WitnessState(self, seed=seed, deck_order=deck_order)

    @classmethod
    def from_options(cls, options: dict, cards: Sequence[Mugshot] | None = None) -> "WitnessGame":
        return cls(players=options.get("players", 3), case_module=options.get("case_module", False),
                   advanced=options.get("advanced", False), first_player=options.get("first_player"), cards=cards)

    @classmethod
    def replay(cls, record: dict | str | Path, cards: Sequence[Mugshot] | None = None) -> WitnessState:
        """Rebuild a game's state from its record (see :mod:`safari_kit.core.records`).

        Records of versions 1 and 2 (dealt by numpy's generator) are refused.
        Raises :class:`RecordError` naming what is wrong.
        """
        doc = read_record(record, game="witness")
        try:
            game = cls.from_options(doc["options"], cards=cards)
            setup = doc["setup"] or {}
            if not isinstance(setup, dict):
                raise ValueError(f"'setup' must be an object or null, got {setup!r}")
            state = game.new_initial_state(seed=doc["seed"], deck_order=setup.get("deck_order"))
        except RecordError:
            raise
        except (ValueError, TypeError) as exc:
            raise RecordError(f"record does not set up a game: {exc}") from None
        for i, item in enumerate(doc["actions"]):
            action = action_from_dict(item, A.ACTION_TYPES, i)
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"action #{i} {item!r} does not replay: {exc.reason}") from None
        return state

    def __repr__(self) -> str:
        o = self.options
        return (f"WitnessGame(players={o.players}, case_module={o.case_module}, advanced={o.advanced}, "
                f"first_player={o.first_player}, cards={len(self.cards)})")
