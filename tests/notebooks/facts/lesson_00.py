"""Lesson 00 · Start here: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from .common import _n_witness, _rules
from .core import Fact, Given

FACTS: tuple[Fact, ...] = (
    Fact("00", 'a memory and deduction game with {} "Mugshot" cards', lambda: (_n_witness(),)),
    Fact("00", "After {} safe ones you may stop", lambda: (_rules()["min_safe"],)),
    Fact("00", "someone has {} Mugshots or the deck runs out", lambda: (_rules()["archive_to_end"],)),
    Fact("00", "There are {} rounds. Round 1 deals {} cards to each player, round 2 deals {}, and so on",
         lambda: (_rules()["rounds"], _rules()["deal"](1), _rules()["deal"](2))),
    Fact("00", "most points after {} rounds wins", lambda: (_rules()["rounds"],)),
)

GIVEN: tuple[Given, ...] = (
)
