"""What one player may know in Safari Knockout: an immutable, JSON-ready view.

A player sees their own hand, everything face up (the cards played this turn
and in every completed turn, who played and who won them), the scores and who
is out, and how many cards each other player holds — never another hand.
"""
from __future__ import annotations

from dataclasses import dataclass

from safari_kit.knockout.game import ROUNDS


@dataclass(frozen=True, slots=True)
class KnockoutObservation:
    """One player's view (all fields are tuples, ints, strings or None)."""

    player: int
    players: int
    round: int
    rounds: int
    cards_per_player: int
    dealer: int
    lead: int
    current_player: int
    terminal: bool
    elimination: bool
    items: tuple[str, ...]
    item: str | None
    hand: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    round_wins: tuple[int, ...]
    out: tuple[int, ...]
    won_this_round: tuple[tuple[str, ...], ...]
    turns: tuple[tuple[int, str, tuple[tuple[int, str], ...], int], ...]
    winners: tuple[int, ...] | None

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.player

    @property
    def leading(self) -> bool:
        """True when this player is to lead (and so must name a data item)."""
        return self.my_turn and not self.trick

    def to_dict(self) -> dict:
        """Plain JSON types only (lists for tuples); ``turns`` as objects."""
        return {
            "player": self.player, "players": self.players,
            "round": self.round, "rounds": self.rounds, "cards_per_player": self.cards_per_player,
            "dealer": self.dealer, "lead": self.lead, "current_player": self.current_player,
            "terminal": self.terminal, "elimination": self.elimination,
            "items": list(self.items), "item": self.item,
            "hand": list(self.hand),
            "trick": [[s, c] for s, c in self.trick],
            "hand_sizes": list(self.hand_sizes),
            "scores": list(self.scores), "round_wins": list(self.round_wins),
            "out": list(self.out),
            "won_this_round": [list(w) for w in self.won_this_round],
            "turns": [{"round": r, "item": i, "plays": [[s, c] for s, c in plays], "winner": w}
                      for r, i, plays, w in self.turns],
            "winners": None if self.winners is None else list(self.winners),
        }

    def _repr_html_(self) -> str:
        from safari_kit.knockout.html import observation_html

        return observation_html(self)


def _public_turns(game, turns) -> tuple:
    """Completed turns with card ids; each turn is converted once per game (observations are frequent)."""
    cache = game.__dict__.setdefault("_public_turn_cache", {})
    if len(cache) > 50_000:  # bounded: a long tournament must not grow memory
        cache.clear()
    out = []
    for turn in turns:
        public = cache.get(turn)
        if public is None:
            r, k, trick, w = turn
            public = cache[turn] = (r, game.items[k], tuple((s, game.card_ids[c]) for s, c in trick), w)
        out.append(public)
    return tuple(out)


def observe(state, player: int) -> KnockoutObservation:
    """Build ``player``'s observation of ``state`` (K3: played cards are face up for all)."""
    game = state.game
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.players:
        raise ValueError(f"player must be a seat from 0 to {game.players - 1}, got {player!r}")
    ids, items = game.card_ids, game.items
    terminal = state._current < 0
    return KnockoutObservation(
        player=player,
        players=game.players,
        round=state._round,
        rounds=ROUNDS,
        cards_per_player=state._per_hand,
        dealer=state._dealer,
        lead=state._lead,
        current_player=state._current,
        terminal=terminal,
        elimination=game.elimination,
        items=items,
        item=state.item,
        hand=tuple(ids[c] for c in state._hands[player]),
        trick=state.trick,
        hand_sizes=tuple(len(h) for h in state._hands),
        scores=tuple(state._scores),
        round_wins=tuple(state._round_wins),
        out=state.out,
        won_this_round=state.won_this_round(),
        turns=_public_turns(game, state._turns),
        winners=tuple(state.winners()) if terminal else None,
    )
