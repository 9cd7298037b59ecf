"""Card values: small frozen dataclasses the engines use (the vocabularies: :mod:`safari_kit.cards.vocabulary`).

The engines never touch pandas; they get tuples of these objects from the
loader (:func:`safari_kit.cards.load.load_cards`).
"""
from __future__ import annotations

from dataclasses import dataclass

from safari_kit.cards.names import is_ink, possible_names
# the vocabularies live in their own module (cards.html reads them too); kept importable from here
from safari_kit.cards.vocabulary import (ANIMALS, CLUE_TYPES, COLORS, DATA_ITEM_LABELS, DATA_ITEMS,  # noqa: F401
                                        ELEMENTS, NAMES, TEXTURES)


@dataclass(frozen=True, slots=True)
class Mugshot:
    """One Safari Witness card: an animal, a texture, a color and a name pattern (W1, W2)."""

    id: str
    animal: str
    texture: str
    color: str
    name: str

    @property
    def ink(self) -> bool:
        """True for the 5 ink Mugshots whose name is partly hidden."""
        return is_ink(self.name)

    @property
    def possible_names(self) -> frozenset[str]:
        return possible_names(self.name)

    def element(self, clue_type: str) -> str:
        """The card's element of one clue type (the name pattern for ``"name"``)."""
        if clue_type not in CLUE_TYPES:
            raise ValueError(f"unknown clue type {clue_type!r}; expected one of {', '.join(CLUE_TYPES)}")
        return getattr(self, clue_type)

    def __str__(self) -> str:
        return f"{self.id} {self.name} {self.color} {self.texture} {self.animal}"

    def _repr_html_(self) -> str:
        from safari_kit.cards.html import mugshot_html

        return mugshot_html(self)


@dataclass(frozen=True, slots=True)
class SafariPal:
    """One Safari Knockout card: a real animal and its four data items (K1)."""

    id: str
    name: str
    weight_kg: float
    size_cm: float
    top_speed_kmh: float
    lifespan_years: float

    def value(self, item: str) -> float:
        if item not in DATA_ITEMS:
            raise ValueError(f"unknown data item {item!r}; expected one of {', '.join(DATA_ITEMS)}")
        return getattr(self, item)

    def __str__(self) -> str:
        return (f"{self.id} {self.name}: {self.weight_kg:g} kg, {self.size_cm:g} cm, "
                f"{self.top_speed_kmh:g} km/h, {self.lifespan_years:g} years")

    def _repr_html_(self) -> str:
        from safari_kit.cards.html import safari_pal_html

        return safari_pal_html(self)
