"""A Safari Knockout game in progress: the rules K2–K5, kept small and fast.

The state holds only integers, tuples and a few short lists (card *indices*
into ``game.cards``), so :meth:`KnockoutState.clone` copies five lists and
``apply`` does a handful of lookups. The action objects are the game's
interned :class:`~safari_kit.knockout.actions.Play` values.

Dealing (our choice, documented in docs/rules.md): one card at a time around
the active players, starting with the player on the dealer's left, from the
start of that round's own full-deck order.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from safari_kit.core.errors import IllegalActionError
from safari_kit.core.records import make_record, write_record
from safari_kit.knockout.observation import KnockoutObservation
from safari_kit.knockout.rules import ROUNDS, Phase, cards_per_player

if TYPE_CHECKING:
    from safari_kit.knockout.actions import Play


class KnockoutState:
    """One game of Safari Knockout; see :class:`KnockoutGame` for the options.

    Public reading: ``round``, ``dealer``, ``lead``, ``current_player`` (None
    once over, as in Safari Witness), ``phase``, ``item``, ``trick``, ``hands`` (full view), ``active``,
    ``scores()``, ``returns()``, ``winners()``, ``history``,
    ``observation(player)``, ``full_view()``.
    """

    __slots__ = ("game", "seed", "_deals", "_given", "_round", "_dealer", "_lead", "_current",
                 "_active", "_next", "_hands", "_dealt", "_trick", "_item", "_scores",
                 "_round_wins", "_turn", "_per_hand", "_turns", "_round_start", "_history", "_out")

    def __init__(self, game, seed: int, deals: tuple, given: tuple | None = None):
        self.game = game
        self.seed = seed
        self._deals = deals              # 7 deck orders (card indices), immutable, shared by clones
        self._given = given              # the deals as card ids when given explicitly (for records)
        n = game.players
        self._scores = [0] * n
        # completed turns: (round, item index, ((seat, card), ...), winner)
        self._turns: list[tuple[int, int, tuple[tuple[int, int], ...], int]] = []
        self._history: list[Play] = []  # actions applied, in order
        self._out = (0,) * n             # round after which each seat went out (0: still in)
        self._dealer = -1
        self._start_round(1, tuple(range(n)))

    # ------------------------------------------------------------------ rules
    def _start_round(self, r: int, active: tuple) -> None:
        """K2: deal 8 − r cards to each active player; dealer and lead rotate over active seats."""
        game = self.game
        nxt = game.next_seats(active)
        dealer = game.first_dealer if r == 1 else nxt[self._dealer]
        lead = nxt[dealer]
        m = len(active)
        h = cards_per_player(r)
        deck = self._deals[r - 1]
        hands: list[tuple[int, ...]] = [()] * game.players
        s = lead
        for j in range(m):
            hands[s] = deck[j:m * h:m]
            s = nxt[s]
        self._round = r
        self._active = active
        self._next = nxt
        self._dealer = dealer
        self._lead = lead
        self._current = lead
        self._hands = hands
        self._dealt = tuple(hands)
        self._trick: tuple[tuple[int, int], ...] = ()
        self._item = -1
        self._round_wins = [0] * game.players
        self._turn = 0
        self._per_hand = h
        self._round_start = len(self._turns)

    def apply(self, action) -> None:
        """Perform one legal action; an illegal one raises IllegalActionError and changes nothing."""
        code = self.game.codes.get(id(action))
        if code is None:
            code = self.game.action_code(action)      # raises for a card/item unknown to the game
        card, item = code
        seat = self._current
        if seat < 0:
            raise IllegalActionError(action, "the game is over")
        hand = self._hands[seat]
        if card not in hand:
            raise IllegalActionError(action, f"card {action.card} is not in the hand of player {seat}, "
                                             f"who is to play")
        trick = self._trick
        if trick:
            if item >= 0:
                raise IllegalActionError(action, f"player {seat} follows, and only the lead names a data item "
                                                 f"(K3): play with item=None")
        elif item < 0:
            raise IllegalActionError(action, f"player {seat} leads this turn and must name a data item "
                                             f"(K3): one of {', '.join(self.game.items)}")
        # ---- valid: mutate
        self._history.append(action)
        i = hand.index(card)
        self._hands[seat] = hand[:i] + hand[i + 1:]
        if not trick:
            self._item = item
        trick = trick + ((seat, card),)
        if len(trick) < len(self._active):
            self._trick = trick
            self._current = self._next[seat]
        else:
            self._finish_turn(trick)

    def _finish_turn(self, trick: tuple) -> None:
        """K3: highest value of the named item wins; a tie goes to the card played first. K4: one point."""
        values = self.game.values[self._item]
        winner, best = trick[0][0], values[trick[0][1]]
        for seat, card in trick:
            v = values[card]
            if v > best:
                best = v
                winner = seat
        self._scores[winner] += 1
        self._round_wins[winner] += 1
        self._turns.append((self._round, self._item, trick, winner))
        self._trick = ()
        self._item = -1
        self._turn += 1
        if self._turn < self._per_hand:
            lead = self._next[self._lead]       # the lead moves one seat clockwise, whoever won
            self._lead = lead
            self._current = lead
        else:
            self._end_round()

    def _end_round(self) -> None:
        """K5: with elimination, players who won no turn this round are out; one left ends the game."""
        active = self._active
        if self.game.elimination:
            wins = self._round_wins
            survivors = tuple(s for s in active if wins[s])
            if len(survivors) < len(active):
                out = list(self._out)
                for s in active:
                    if not wins[s]:
                        out[s] = self._round
                self._out = tuple(out)
                active = survivors
        if self._round == ROUNDS or len(active) <= 1:
            self._active = active
            self._next = self.game.next_seats(active)
            self._current = -1
        else:
            self._start_round(self._round + 1, active)

    # ------------------------------------------------------------------ queries
    def legal_actions(self) -> list:
        """The single source of truth: the interned actions legal now (empty once over)."""
        seat = self._current
        if seat < 0:
            return []
        if self._trick:
            follow = self.game.follow_actions
            return [follow[c] for c in self._hands[seat]]
        lead = self.game.lead_actions
        return [a for c in self._hands[seat] for a in lead[c]]

    def is_legal(self, action) -> bool:
        try:
            self.clone().apply(action)
        except IllegalActionError:
            return False
        return True

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over (as in Safari Witness)."""
        return None if self._current < 0 else self._current

    @property
    def phase(self) -> Phase:
        """K3: ``lead`` (a card and a data item), ``follow`` (a card), or ``over``."""
        if self._current < 0:
            return Phase.OVER
        return Phase.FOLLOW if self._trick else Phase.LEAD

    def is_terminal(self) -> bool:
        return self._current < 0

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def round(self) -> int:
        return self._round

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def lead(self) -> int:
        """The seat leading the current turn."""
        return self._lead

    @property
    def item(self) -> str | None:
        """The data item named for the current turn (None before the lead plays)."""
        return None if self._item < 0 else self.game.items[self._item]

    @property
    def trick(self) -> tuple[tuple[int, str], ...]:
        """The cards played this turn, in order: (seat, card id)."""
        ids = self.game.card_ids
        return tuple((s, ids[c]) for s, c in self._trick)

    @property
    def turn(self) -> int:
        """Turns completed in this round (0-based number of the current turn)."""
        return self._turn

    @property
    def cards_per_player(self) -> int:
        """K2: the cards dealt to each player this round (8 − round)."""
        return self._per_hand

    @property
    def turns_played(self) -> int:
        """Turns completed in the whole game so far."""
        return len(self._turns)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game (all seats without elimination)."""
        return self._active

    @property
    def out(self) -> tuple[int, ...]:
        """Seats that are out (K5), in seat order."""
        return tuple(s for s, r in enumerate(self._out) if r)

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]:
        """Every hand (card ids): the full view, for tests and teachers."""
        ids = self.game.card_ids
        return tuple(tuple(ids[c] for c in h) for h in self._hands)

    def hand(self, player: int) -> tuple[str, ...]:
        ids = self.game.card_ids
        return tuple(ids[c] for c in self._hands[player])

    @property
    def dealt(self) -> tuple[tuple[str, ...], ...]:
        """The hands as dealt at the start of this round."""
        ids = self.game.card_ids
        return tuple(tuple(ids[c] for c in h) for h in self._dealt)

    def won_this_round(self) -> tuple[tuple[str, ...], ...]:
        """For each seat, the cards of the turns it won this round (public: all were face up)."""
        ids = self.game.card_ids
        won: list[list[str]] = [[] for _ in range(self.game.players)]
        for _, _, trick, winner in self._turns[self._round_start:]:
            won[winner].extend(ids[c] for _, c in trick)
        return tuple(tuple(w) for w in won)

    @property
    def completed_turns(self) -> tuple[dict, ...]:
        """Every completed turn, public: round, item, plays ((seat, card id) in order), winner."""
        ids, items = self.game.card_ids, self.game.items
        return tuple({"round": r, "item": items[k], "plays": [[s, ids[c]] for s, c in trick], "winner": w}
                     for r, k, trick, w in self._turns)

    @property
    def history(self) -> tuple:
        """The actions applied so far, in order."""
        return tuple(self._history)

    def scores(self) -> list[int]:
        """K4: one point per turn won, over all rounds so far."""
        return list(self._scores)

    def round_wins(self) -> list[int]:
        return list(self._round_wins)

    def returns(self) -> list[float]:
        """Final scores once the game is over (zeros before), like the Witness engine."""
        return [float(s) for s in self._scores] if self._current < 0 else [0.0] * self.game.players

    def winners(self) -> list[int]:
        """K4/K5: every seat with the highest total (ties shared; out players included)."""
        best = max(self._scores)
        return [s for s, v in enumerate(self._scores) if v == best]

    # ------------------------------------------------------------------ copies and views
    def clone(self) -> "KnockoutState":
        """An independent copy (shares only immutable data and the game)."""
        new = KnockoutState.__new__(KnockoutState)
        new.game = self.game
        new.seed = self.seed
        new._deals = self._deals
        new._given = self._given
        new._round = self._round
        new._dealer = self._dealer
        new._lead = self._lead
        new._current = self._current
        new._active = self._active
        new._next = self._next
        new._hands = self._hands[:]
        new._dealt = self._dealt
        new._trick = self._trick
        new._item = self._item
        new._scores = self._scores[:]
        new._round_wins = self._round_wins[:]
        new._turn = self._turn
        new._per_hand = self._per_hand
        new._turns = self._turns[:]
        new._round_start = self._round_start
        new._history = self._history[:]
        new._out = self._out
        return new

    def observation(self, player: int) -> KnockoutObservation:
        """What ``player`` may know, as an immutable :class:`KnockoutObservation` (K3: played cards are public)."""
        game = self.game
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.players:
            raise ValueError(f"player must be a seat from 0 to {game.players - 1}, got {player!r}")
        ids = game.card_ids
        terminal = self._current < 0
        return KnockoutObservation(
            player=player, players=game.players, round=self._round, rounds=ROUNDS,
            cards_per_player=self._per_hand, dealer=self._dealer, lead=self._lead,
            current_player=self.current_player, terminal=terminal, elimination=game.elimination,
            items=game.items, item=self.item, hand=tuple(ids[c] for c in self._hands[player]),
            trick=self.trick, hand_sizes=tuple(len(h) for h in self._hands), scores=tuple(self._scores),
            round_wins=tuple(self._round_wins), out=self.out, won_this_round=self.won_this_round(),
            turns=game.public_turns(self._turns), winners=tuple(self.winners()) if terminal else None,
        )

    def full_view(self) -> dict:
        """Everything in play now, every hand included (JSON types): for tests and teachers."""
        return {
            "options": self.game.options.to_dict(),
            "seed": self.seed,
            "round": self._round,
            "cards_per_player": self._per_hand,
            "dealer": self._dealer,
            "lead": self._lead,
            "current_player": self.current_player,
            "terminal": self._current < 0,
            "item": self.item,
            "trick": [list(p) for p in self.trick],
            "turn": self._turn,
            "active": list(self._active),
            "out": {str(s): r for s, r in enumerate(self._out) if r},
            "hands": [list(h) for h in self.hands],
            "dealt": [list(h) for h in self.dealt],
            "won_this_round": [list(w) for w in self.won_this_round()],
            "scores": list(self._scores),
            "round_wins": list(self._round_wins),
            "turns": list(self.completed_turns),
            "history": [a.to_dict() for a in self._history],
            "winners": self.winners() if self._current < 0 else None,
        }

    def to_record(self) -> dict:
        """A game record (core/records) that :meth:`KnockoutGame.replay` turns back into this state.

        It holds the seed (or the given deals) and every action, so it rebuilds
        every hand: a record of an unfinished game shows every player's cards.
        """
        game = self.game
        setup = {"deck": game.deck_fingerprint,
                 "deals": None if self._given is None else [list(o) for o in self._given],
                 "cards": None if game.default_deck else [
                     {"id": c.id, "name": c.name, "weight_kg": c.weight_kg, "size_cm": c.size_cm,
                      "top_speed_kmh": c.top_speed_kmh, "lifespan_years": c.lifespan_years} for c in game.cards]}
        return make_record("knockout", game.options.to_dict(), self.seed, setup,
                           [a.to_dict() for a in self._history])

    def save(self, path: str | Path | None = None) -> str:
        """The record as JSON text (:meth:`to_record`), also written to ``path`` when given (as in Safari Witness)."""
        return write_record(self.to_record(), path)

    def __eq__(self, other) -> bool:
        return (isinstance(other, KnockoutState)
                and self.game.deck_fingerprint == other.game.deck_fingerprint
                and self.full_view() == other.full_view() and self._deals == other._deals)

    __hash__ = None  # type: ignore[assignment]  # mutable state: equal by value, so not hashable

    def __repr__(self) -> str:
        where = "over" if self._current < 0 else f"turn {self._turn + 1}, player {self._current} to play"
        return (f"<KnockoutState round {self._round}/{ROUNDS}, {where}, "
                f"scores {self._scores}>")

    def _repr_html_(self) -> str:
        from safari_kit.knockout.html import state_html

        return state_html(self)
