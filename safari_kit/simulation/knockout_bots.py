"""Safari Knockout bots (protocol: :mod:`safari_kit.simulation.bots`). They see only their observation.

- :class:`GreedyKnockoutBot` plays the action with the highest *exact* winning
  probability (:func:`safari_kit.probability.knockout.best_play`).
- :class:`HighCardBot` is the rank heuristic a learner can do in their head:
  lead the card × item with the best rank in the whole deck; follow with a
  random card (``follow="random"``) or with the highest card on the named item
  (``follow="best"``). It plays exactly like the batch simulator's
  ``greedy`` lead (:mod:`safari_kit.simulation.knockout_batch`).

>>> from safari_kit.knockout import KnockoutGame
>>> from safari_kit.simulation import RandomBot, play_game
>>> game = KnockoutGame(players=4)
>>> result = play_game(game, [GreedyKnockoutBot(), HighCardBot(), RandomBot(), RandomBot()], seed=3)
>>> sum(result.scores)     # one point per turn: 7 + 6 + ... + 1
28.0
"""
from __future__ import annotations

import weakref
from typing import Sequence

from safari_kit.core.chance import Generator
from safari_kit.probability.knockout import best_play, lead_keys, follow_keys

__all__ = ["GreedyKnockoutBot", "HighCardBot"]

_KEYS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # game -> (lead keys, follow keys)


class GreedyKnockoutBot:
    """Plays the action with the highest exact winning probability for this turn alone.

    Leading: the card × item with the highest ``p_win_leading`` (opponents
    assumed to play their best). Following: the card with the highest
    ``p_win_following``; among equally good cards the *cheapest* (weakest by
    ``card_strength``, then lowest on the item), so when nothing can win it
    throws its weakest card. It ignores later turns of the round.
    """

    name = "greedy"
    needs_observation = True

    def __init__(self) -> None:
        self._game = None

    def start(self, game, player: int, rng: Generator) -> None:
        self._game = game

    def choose(self, observation, legal_actions: Sequence):
        action = best_play(self._game, observation).action
        return self._game.interned(action)


class HighCardBot:
    """Rank heuristic: lead the card × item with the fewest strictly higher cards in the whole deck.

    Ties: lower card index (deck order), then the earlier item (the shared
    :func:`~safari_kit.probability.knockout.lead_keys`). Following:
    ``follow="random"`` plays a uniformly random card; ``follow="best"`` plays
    the highest card on the named item (ties: deck order,
    :func:`~safari_kit.probability.knockout.follow_keys`).
    """

    needs_observation = True

    def __init__(self, follow: str = "random") -> None:
        if follow not in ("random", "best"):
            raise ValueError(f"follow must be 'random' or 'best', got {follow!r}")
        self.follow = follow
        self.name = f"highcard-{follow}"
        self._game = None
        self._rng = None
        self._block: list[float] = []

    def start(self, game, player: int, rng: Generator) -> None:
        self._game = game
        self._rng = rng
        self._block = []
        keys = _KEYS.get(game)
        if keys is None:
            keys = _KEYS[game] = (lead_keys(game), follow_keys(game))
        self._lead, self._follow = keys

    def choose(self, observation, legal_actions: Sequence):
        game = self._game
        index = game.index
        if not observation.trick:
            lead = self._lead
            best = max(((lead[k][index[c]], c, k) for c in observation.hand for k in range(len(game.items))))
            _, card, k = best
            return game.lead_actions[index[card]][k]
        if self.follow == "best":
            k = game.item_index[observation.item]
            keys = self._follow[k]
            card = max(observation.hand, key=lambda c: keys[index[c]])
            return game.follow_actions[index[card]]
        if not self._block:
            self._block = self._rng.randoms(256)
        return legal_actions[int(self._block.pop() * len(legal_actions))]
