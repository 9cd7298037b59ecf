"""Bots: players that see only what a seat may see.

A bot is given, at each of its decisions, the seat's ``observation`` and the
list of legal actions (which reveal nothing hidden), never the state. Bots that
remember (memory-limited ones) keep their own memory between calls.

The protocol every bot follows::

    class MyBot:
        name = "my-bot"
        needs_observation = True        # False lets the runner skip building it
        def start(self, game, player, rng): ...   # once per game, before any choice
        def choose(self, observation, legal_actions): ...  # return one legal action
"""
from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from safari_kit.core.chance import Generator


@runtime_checkable
class Bot(Protocol):
    name: str
    needs_observation: bool

    def start(self, game, player: int, rng: Generator) -> None: ...

    def choose(self, observation, legal_actions: Sequence): ...


class RandomBot:
    """Picks a legal action uniformly at random (the baseline of every tournament).

    Draws its random numbers in blocks from its seeded generator, because a
    generator call per decision would cost more than the rules themselves.
    """

    name = "random"
    needs_observation = False

    def __init__(self) -> None:
        self._rng: Generator | None = None
        self._block: list[float] = []

    def start(self, game, player: int, rng: Generator) -> None:
        self._rng = rng
        self._block = []

    def choose(self, observation, legal_actions: Sequence):
        if not self._block:
            self._block = self._rng.randoms(256)
        return legal_actions[int(self._block.pop() * len(legal_actions))]
