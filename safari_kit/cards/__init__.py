"""Card data: the two decks' values, name patterns, the CSV schema, validation and loading.

Names are imported lazily: ``from safari_kit.cards.model import Mugshot`` (what
the engines use) does not import pandas; ``safari_kit.cards.load_cards`` does.
"""
from __future__ import annotations

from importlib import import_module

from safari_kit.core.errors import CardDataError

_LAZY = {
    "Cards": "safari_kit.cards.load",
    "load_cards": "safari_kit.cards.load",
    "default_cards_path": "safari_kit.cards.load",
    "Mugshot": "safari_kit.cards.model",
    "SafariPal": "safari_kit.cards.model",
    "Problem": "safari_kit.cards.validate",
    "check_player_count": "safari_kit.cards.validate",
}

__all__ = ["CardDataError", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'safari_kit.cards' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
