"""The card CSV schema: one file, ``data/cards.csv``, holds both decks.

Each row is one card. ``deck`` says which game it belongs to; a deck uses
only some of the columns and leaves the others blank.

>>> COLUMNS[:3]
('id', 'deck', 'name')
>>> DECK_COLUMNS["knockout"]
('id', 'deck', 'name', 'weight_kg', 'size_cm', 'top_speed_kmh', 'lifespan_years')
>>> STAT_RANGES["top_speed_kmh"]
StatRange(low=0.1, high=150.0, unit='km/h')
"""
from __future__ import annotations

import re
from typing import NamedTuple

from safari_kit.cards.vocabulary import ANIMALS, COLORS, DATA_ITEMS, TEXTURES

WITNESS = "witness"
KNOCKOUT = "knockout"
DECKS = (WITNESS, KNOCKOUT)
ID_LETTER = {WITNESS: "W", KNOCKOUT: "K"}
ID_RE = re.compile(r"^([WK])(\d+)$")

COLUMNS = ("id", "deck", "name", "animal", "texture", "color",
           "weight_kg", "size_cm", "top_speed_kmh", "lifespan_years")
ELEMENT_COLUMNS = {"animal": ANIMALS, "texture": TEXTURES, "color": COLORS}
STAT_COLUMNS = DATA_ITEMS
COMMON_COLUMNS = ("id", "deck", "name")
DECK_COLUMNS = {
    WITNESS: COMMON_COLUMNS + tuple(ELEMENT_COLUMNS),
    KNOCKOUT: COMMON_COLUMNS + tuple(STAT_COLUMNS),
}


class StatRange(NamedTuple):
    """Plausible range of one Knockout data item (inclusive) and its unit."""

    low: float
    high: float
    unit: str


STAT_RANGES = {
    "weight_kg": StatRange(0.001, 10000.0, "kg"),
    "size_cm": StatRange(1.0, 2000.0, "cm"),
    "top_speed_kmh": StatRange(0.1, 150.0, "km/h"),
    "lifespan_years": StatRange(1.0, 150.0, "years"),
}

# Deck-level targets (rulings W1 and K1), checked when loading strictly.
WITNESS_CARDS = 75
WITNESS_PER_ELEMENT = 15
WITNESS_PER_PAIR = 3
WITNESS_PER_NAME = 10
WITNESS_PER_NAME_ELEMENT = 2
INK_PATTERNS = ("??M", "T?M", "?AM", "AL??", "?L??")
KNOCKOUT_MIN_CARDS = 49
HAND_SIZE_FIRST_ROUND = 7   # K2: round 1 deals 8 - 1 cards to each player
MIN_PLAYERS, MAX_PLAYERS = 2, 7
WITNESS_SETUP_CARDS = 5     # W6 + W3: 4 Unidentified Mugshots and a first card to reveal
