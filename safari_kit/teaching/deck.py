"""The shipped decks as the lessons' exercise checks use them (loaded once)."""
from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def cards():
    """Both decks, from the kit's own card data."""
    from safari_kit.cards.load import load_cards

    return load_cards()


def witness():
    """The 75 Mugshots, in deck order."""
    return cards().witness


def knockout():
    """The Safari Pals."""
    return cards().knockout


def first_named(name: str) -> str:
    """The id of the first Mugshot carrying ``name`` exactly (a clear name like "TAM" or an ink like "??M")."""
    return next(c.id for c in witness() if c.name == name)
