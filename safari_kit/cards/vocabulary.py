"""The words the cards are made of: the elements of a Mugshot and the data items of a Safari Pal.

Their own module so that the card values (:mod:`safari_kit.cards.model`) and their pictures
(:mod:`safari_kit.cards.html`) both read them without importing each other: the picture module needs
the labels, a card's ``_repr_html_`` needs the picture module (issue 28: the import circle went).

>>> DATA_ITEM_LABELS["top_speed_kmh"]
'Top speed (km/h)'
>>> ELEMENTS["animal"][0], len(ELEMENTS["name"])
('Elephant', 7)
"""
from __future__ import annotations

from safari_kit.cards.names import NAMES

__all__ = ["ANIMALS", "TEXTURES", "COLORS", "CLUE_TYPES", "ELEMENTS", "DATA_ITEMS", "DATA_ITEM_LABELS"]

ANIMALS = ("Elephant", "Owl", "Bear", "Goat", "Pig")
TEXTURES = ("Brick", "Wood", "Circular Tile", "Diamond Tile", "Wavy")
COLORS = ("Teal", "Yellow", "Orange", "Pink", "Violet")
CLUE_TYPES = ("animal", "texture", "color", "name")
ELEMENTS = {"animal": ANIMALS, "texture": TEXTURES, "color": COLORS, "name": NAMES}

DATA_ITEMS = ("weight_kg", "size_cm", "top_speed_kmh", "lifespan_years")
DATA_ITEM_LABELS = {
    "weight_kg": "Weight (kg)",
    "size_cm": "Size (cm)",
    "top_speed_kmh": "Top speed (km/h)",
    "lifespan_years": "Lifespan (years)",
}
