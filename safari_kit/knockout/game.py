"""Safari Knockout: fixed rules (K1–K5) plus options, and everything precomputed per game.

>>> game = KnockoutGame(players=3, cards=_demo_cards())
>>> state = game.new_initial_state(seed=1)
>>> state.round, state.dealer, state.current_player, len(state.legal_actions())
(1, 2, 0, 28)

Everything the hot path needs is built once here: the card index, one value
tuple per data item, and every action object (interned), so a state only
holds small lists and tuples of integers.
"""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass

from safari_kit.cards.model import DATA_ITEMS, SafariPal
from safari_kit.core.chance import Chance
from safari_kit.core.errors import IllegalActionError, RecordError
from safari_kit.core.records import action_from_dict, read_record
from safari_kit.knockout.actions import ACTION_TYPES, Play
from safari_kit.knockout.rules import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, cards_per_player
from safari_kit.knockout.state import KnockoutState

__all__ = ["KnockoutGame", "KnockoutOptions", "load", "ROUNDS", "cards_per_player"]


@dataclass(frozen=True)
class KnockoutOptions:
    """The options of a Knockout game (what a record stores), as in ``WitnessOptions``."""

    players: int = 4
    elimination: bool = False
    items: tuple[str, ...] = DATA_ITEMS
    first_dealer: int | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["items"] = list(self.items)
        return d


class KnockoutGame:
    """Safari Knockout with its options.

    - ``players``: 2–7 (K2); seats 0..players−1, clockwise in that order.
    - ``elimination``: Variation 1 (K5).
    - ``items``: the data items a lead may name (a non-empty subset of
      ``DATA_ITEMS``; kept in the canonical order).
    - ``cards``: a tuple of :class:`SafariPal` (or a ``Cards`` from
      ``load_cards``); default: the shipped deck (``load_cards().knockout``).
      At least 7 × players cards.
    - ``first_dealer``: the seat that deals round 1; default ``players − 1``,
      so seat 0 leads the first turn.
    """

    def __init__(self, players: int = 4, elimination: bool = False, items=DATA_ITEMS,
                 cards=None, first_dealer: int | None = None):
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players!r}")
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Safari Knockout is for {MIN_PLAYERS} to {MAX_PLAYERS} players (K2), got {players}")
        if not isinstance(elimination, bool):
            raise ValueError(f"elimination must be True or False, got {elimination!r}")
        if isinstance(items, str):
            items = (items,)
        items = tuple(items)
        if not items:
            raise ValueError(f"items must name at least one data item of {', '.join(DATA_ITEMS)}")
        unknown = [i for i in items if i not in DATA_ITEMS]
        if unknown:
            raise ValueError(f"unknown data item(s) {', '.join(map(repr, unknown))}; "
                             f"expected some of {', '.join(DATA_ITEMS)}")
        if len(set(items)) != len(items):
            raise ValueError(f"items lists a data item twice: {items!r}")
        if first_dealer is None:
            first_dealer = players - 1
        if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not 0 <= first_dealer < players:
            raise ValueError(f"first_dealer must be a seat from 0 to {players - 1}, got {first_dealer!r}")

        self.default_deck = cards is None
        if cards is None:
            from safari_kit.cards.load import load_cards  # the loader (pandas) only for the default deck
            cards = load_cards().knockout
        elif hasattr(cards, "knockout"):
            cards = cards.knockout
        cards = tuple(cards)
        bad = [c for c in cards if not isinstance(c, SafariPal)]
        if bad:
            raise ValueError(f"cards must be SafariPal objects, got {bad[0]!r}")
        ids = [c.id for c in cards]
        if len(set(ids)) != len(ids):
            dup = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"card ids must be unique; repeated: {', '.join(dup)}")
        if len(cards) < ROUNDS * players:
            raise ValueError(f"{players} players need at least {ROUNDS * players} cards (7 each in round 1), "
                             f"got {len(cards)}")

        self.players = players
        self.elimination = elimination
        self.items = tuple(i for i in DATA_ITEMS if i in items)
        self.first_dealer = first_dealer
        self.cards = cards
        self.card_ids = tuple(ids)
        self.index = {cid: i for i, cid in enumerate(ids)}
        self.by_id = {c.id: c for c in cards}
        self.item_index = {item: k for k, item in enumerate(self.items)}
        # values[k][c]: the value of data item k of card c, as float
        self.values = tuple(tuple(float(getattr(c, item)) for c in cards) for item in self.items)
        # interned actions: lead[c] = tuple over items; follow[c]
        self.lead_actions = tuple(tuple(Play(cid, item) for item in self.items) for cid in ids)
        self.follow_actions = tuple(Play(cid, None) for cid in ids)
        codes = {}
        for c in range(len(ids)):
            codes[id(self.follow_actions[c])] = (c, -1)
            for k, a in enumerate(self.lead_actions[c]):
                codes[id(a)] = (c, k)
        self.codes = codes  # id(interned action) -> (card index, item index or -1): the hot path's lookup
        self._next_cache: dict[tuple, tuple] = {}
        self._public_turns: dict[tuple, tuple] = {}
        self.deck_fingerprint = _fingerprint(cards)

    # ------------------------------------------------------------------ options
    @property
    def options(self) -> KnockoutOptions:
        """The options (``options.to_dict()`` is what a record stores)."""
        return KnockoutOptions(self.players, self.elimination, self.items, self.first_dealer)

    def public_turns(self, turns) -> tuple:
        """Completed turns ``(round, item index, ((seat, card index), ...), winner)`` with ids and item names.

        Each turn is converted once per game (observations are frequent); the
        cache is bounded, so a long tournament does not grow memory.
        """
        cache = self._public_turns
        if len(cache) > 50_000:
            cache.clear()
        out = []
        for turn in turns:
            public = cache.get(turn)
            if public is None:
                r, k, trick, w = turn
                public = cache[turn] = (r, self.items[k], tuple((s, self.card_ids[c]) for s, c in trick), w)
            out.append(public)
        return tuple(out)

    def __repr__(self) -> str:
        deck = "default deck" if self.default_deck else "custom deck"
        return (f"KnockoutGame(players={self.players}, elimination={self.elimination}, "
                f"items={self.items!r}, first_dealer={self.first_dealer}; {len(self.cards)} cards, {deck})")

    def card(self, card_id: str) -> SafariPal:
        return self.by_id[card_id]

    # ------------------------------------------------------------------ actions
    def action_code(self, action) -> tuple[int, int]:
        """(card index, item index or −1) of any action.

        Raises IllegalActionError if it names no card/item of this game.
        """
        code = self.codes.get(id(action))
        if code is not None:
            return code
        if not isinstance(action, Play):
            raise IllegalActionError(action, f"not a Knockout action (expected Play(card, item)), "
                                             f"got {type(action).__name__}")
        c = self.index.get(action.card)
        if c is None:
            raise IllegalActionError(action, f"no card {action.card!r} in this game's deck")
        if action.item is None:
            return (c, -1)
        k = self.item_index.get(action.item)
        if k is None:
            if action.item in DATA_ITEMS:
                raise IllegalActionError(action, f"data item {action.item!r} is not in play in this game "
                                                 f"(items: {', '.join(self.items)})")
            raise IllegalActionError(action, f"unknown data item {action.item!r}; "
                                             f"expected one of {', '.join(self.items)}")
        return (c, k)

    def interned(self, action) -> Play:
        """The game's own object equal to ``action``."""
        c, k = self.action_code(action)
        return self.follow_actions[c] if k < 0 else self.lead_actions[c][k]

    def next_seats(self, active: tuple[int, ...]) -> tuple[int, ...]:
        """For each seat s (active or not), the next ACTIVE seat clockwise after s."""
        table = self._next_cache.get(active)
        if table is None:
            n = self.players
            act = set(active)
            table = tuple(next((s + d) % n for d in range(1, n + 1) if (s + d) % n in act) for s in range(n))
            self._next_cache[active] = table
        return table

    # ------------------------------------------------------------------ states
    def new_initial_state(self, seed: int | None = None, deals=None):
        """The state before the first action: round 1 dealt.

        ``seed`` (non-negative int; fresh when None, and recorded) fixes the 7
        full-deck shuffles (one per round, K2), all drawn now from one
        generator ``Chance(seed).generator("deals")`` (of each shuffle, the
        cards a round deals: its top (8 − r) × players). ``deals`` instead gives
        the 7 deck orders as lists of card ids (round r deals from its list's
        start, one card at a time; each list needs at least (8 − r) × players
        distinct ids).
        """
        chance = Chance(seed)
        if deals is None:
            gen = chance.generator("deals")
            n = len(self.cards)
            # round r deals the top (8 − r) × players cards of its shuffled deck: only those are drawn
            orders = tuple(tuple(gen.deal(n, cards_per_player(r) * self.players)) for r in range(1, ROUNDS + 1))
            given = None
        else:
            orders = self._check_deals(deals)
            given = tuple(tuple(self.card_ids[c] for c in order) for order in orders)
        return KnockoutState(self, chance.seed, orders, given)

    def _check_deals(self, deals) -> tuple[tuple[int, ...], ...]:
        if isinstance(deals, (str, bytes)) or not hasattr(deals, "__len__") or len(deals) != ROUNDS:
            raise ValueError(f"deals must be {ROUNDS} deck orders (one list of card ids per round), got {deals!r:.80}")
        out = []
        for r, order in enumerate(deals, start=1):
            if isinstance(order, str):
                raise ValueError(f"deals[{r - 1}] (round {r}) must be a list of card ids, got a string")
            order = list(order)
            need = cards_per_player(r) * self.players
            unknown = [c for c in order if c not in self.index]
            if unknown:
                raise ValueError(f"deals[{r - 1}] (round {r}): unknown card id(s) {', '.join(map(repr, unknown[:5]))}")
            if len(set(order)) != len(order):
                dup = sorted({c for c in order if order.count(c) > 1})
                raise ValueError(f"deals[{r - 1}] (round {r}): card id(s) repeated: {', '.join(dup)}")
            if len(order) < need:
                raise ValueError(f"deals[{r - 1}] (round {r}): {len(order)} cards, need at least {need} "
                                 f"({cards_per_player(r)} for each of {self.players} players)")
            out.append(tuple(self.index[c] for c in order))
        return tuple(out)

    # ------------------------------------------------------------------ records
    @classmethod
    def replay(cls, record, cards=None) -> KnockoutState:
        """Rebuild the identical state from a record (dict, JSON text or path) by re-applying its actions.

        The deck: the record's own custom cards if it has them, else ``cards``,
        else the shipped deck; its fingerprint must match the record's.
        Raises :class:`RecordError` naming what is wrong (bad options, a
        different deck, an unreadable action, the index of an illegal action).
        """
        doc = read_record(record, game="knockout")
        setup = doc["setup"]
        if setup is None:
            setup = {}
        if not isinstance(setup, dict):
            raise RecordError(f"'setup' must be an object or null, got {setup!r:.80}")
        custom = setup.get("cards")
        if custom is not None:
            try:
                cards = tuple(SafariPal(**c) for c in custom)
            except (TypeError, ValueError) as exc:
                raise RecordError(f"setup.cards: cannot read the custom deck: {exc}") from None
        options = doc["options"]
        known = {"players", "elimination", "items", "first_dealer"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RecordError(f"options: unknown option(s) {', '.join(unknown)}")
        try:
            game = cls(cards=cards, **options)
        except ValueError as exc:
            raise RecordError(f"options: {exc}") from None
        want = setup.get("deck")
        if want is not None and want != game.deck_fingerprint:
            raise RecordError(f"the record was played with a different deck (fingerprint {want}, "
                              f"this deck {game.deck_fingerprint}); pass the same cards")
        try:
            state = game.new_initial_state(doc["seed"], deals=setup.get("deals"))
        except ValueError as exc:
            raise RecordError(f"setup.deals: {exc}") from None
        for i, entry in enumerate(doc["actions"]):
            action = action_from_dict(entry, ACTION_TYPES, i)
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise RecordError(f"action #{i} {entry!r} is illegal on replay: {exc.reason}") from None
        return state


def load(record, cards=None):
    """Rebuild a Knockout state from a record (dict, JSON text or file path); see :meth:`KnockoutGame.replay`."""
    return KnockoutGame.replay(record, cards=cards)


def _fingerprint(cards) -> str:
    text = "\n".join(f"{c.id},{c.name},{float(c.weight_kg)!r},{float(c.size_cm)!r},"
                     f"{float(c.top_speed_kmh)!r},{float(c.lifespan_years)!r}" for c in cards)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _demo_cards(n: int = 49) -> tuple[SafariPal, ...]:
    """Made-up cards for doctests: distinct values, no ties."""
    return tuple(SafariPal(f"K{i:02d}", f"Animal {i}", float(i), float(100 + i), float(i % 50 + 1), float(60 - i))
                 for i in range(1, n + 1))
