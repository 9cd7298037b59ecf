"""What one player may know in Safari Knockout: an immutable, JSON-ready view.

A player sees their own hand, everything face up (the cards played this turn
and in every completed turn, who played and who won them), the scores and who
is out, and how many cards each other player holds — never another hand.
"""
from __future__ import annotations

from dataclasses import dataclass



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
    current_player: int | None  # None once the game is over
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
