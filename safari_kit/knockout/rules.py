"""Safari Knockout's rules vocabulary: the constants (K2) and the phases of a turn (K3).

One place for what the engine, the observation, the probability layer and the
labs share. ``Phase`` is a string enum (``Phase.LEAD == "lead"``).
"""
from __future__ import annotations

from enum import Enum

ROUNDS = 7  # K2: seven rounds
MIN_PLAYERS, MAX_PLAYERS = 2, 7  # K2


def cards_per_player(round_no: int) -> int:
    """K2: round r (1..7) deals 8 − r cards to each player.

    >>> [cards_per_player(r) for r in range(1, ROUNDS + 1)]
    [7, 6, 5, 4, 3, 2, 1]
    """
    return 8 - round_no


class Phase(str, Enum):
    """Where a turn stands (K3)."""

    LEAD = "lead"  # the lead plays a card and names a data item
    FOLLOW = "follow"  # the others play a card each, clockwise
    OVER = "over"  # the game has ended (K4, K5)

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # shown as the plain string it equals, in notebooks and doctests
        return repr(self.value)
