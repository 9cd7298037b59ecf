"""A card's words in the learner's language (issue 30): a Safari Pal's name, a Mugshot's animal, texture, color.

They are card data, not catalogue text: ``data/card-names.csv`` holds them, one column a language, read by
:mod:`safari_kit.cards.card_names` (a translator edits that file, never code). This module only asks it in the
language of the moment (:func:`safari_kit.core.i18n.current_language`), so a lab speaking Spanish names its
cards in Spanish and every other lab keeps its own. The Witness names (KIM, TAM ...) are the game's: they stay.
The engines and the records keep the English (``card.name``); only the words a learner reads and hears change.

>>> from safari_kit.cards.load import load_cards
>>> from safari_kit.core.i18n import language
>>> lion = next(p for p in load_cards().knockout if p.name == "Lion")
>>> pal_name(lion)
'Lion'
>>> with language("es"):
...     pal_name(lion), element_word("animal", "Goat")
('León', 'Cabra')
"""
from __future__ import annotations

from safari_kit.cards.card_names import card_names
from safari_kit.cards.vocabulary import ANIMALS, COLORS, TEXTURES
from safari_kit.core.i18n import current_language

__all__ = ["pal_name", "element_word", "mugshot_elements", "named_element"]


def pal_name(card) -> str:
    """A Safari Pal's name (a card, or its English name) in the learner's language."""
    return card_names().word("pal", getattr(card, "name", card), current_language())


def element_word(kind: str, english: str) -> str:
    """A Mugshot's ``kind`` element (``animal``, ``texture``, ``color``) in the learner's language; a name
    (KIM, ``T?M``) is the game's own and comes back as it is."""
    if kind == "name":
        return english
    return card_names().word(kind, english, current_language())


def named_element(value: str) -> str:
    """An element a player named (KRIS: ``Teal``, ``Goat``, ``TAM``) in the learner's language, its kind read
    from the value (no element is spelled alike in two kinds)."""
    for kind, values in (("animal", ANIMALS), ("texture", TEXTURES), ("color", COLORS)):
        if value in values:
            return element_word(kind, value)
    return value


def mugshot_elements(card) -> dict[str, str]:
    """A Mugshot's ``color``, ``animal``, ``texture`` words and ``name``, for a sentence's placeholders."""
    return {"color": element_word("color", card.color), "animal": element_word("animal", card.animal),
            "texture": element_word("texture", card.texture), "name": card.name}
