"""The one Knockout action: play a card, naming a data item when leading (K3).

Actions are small frozen values. A game pre-creates ("interns") every action
it can ever accept, so :meth:`KnockoutState.legal_actions` only looks them up;
an equal action built by hand or read from a record is accepted too.

>>> Play("K01", "weight_kg").to_dict()
{'type': 'Play', 'card': 'K01', 'item': 'weight_kg'}
>>> Play.from_dict({"card": "K07"})
Play(card='K07', item=None)
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (its id); the lead also names ``item`` (one of the game's data items).

    A follower's action has ``item=None``: only the lead names the data item (K3).
    """

    card: str
    item: str | None = None

    def to_dict(self) -> dict:
        """``{"type": "Play", "card": ..., "item": ...}`` (the same shape as core.actions)."""
        return {"type": "Play", "card": self.card, "item": self.item}

    @classmethod
    def from_dict(cls, fields: dict) -> "Play":
        """Rebuild from :meth:`to_dict` output (``"type"`` optional, ``"item"`` may be missing)."""
        fields = {k: v for k, v in fields.items() if k != "type"}
        unknown = set(fields) - {"card", "item"}
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(sorted(unknown))} for Play")
        if "card" not in fields:
            raise ValueError("missing field 'card' for Play")
        card, item = fields["card"], fields.get("item")
        if not isinstance(card, str):
            raise ValueError(f"'card' must be a card id string, got {card!r}")
        if item is not None and not isinstance(item, str):
            raise ValueError(f"'item' must be a data item name or null, got {item!r}")
        return cls(card, item)

    def __str__(self) -> str:
        return f"play {self.card}" + (f" naming {self.item}" if self.item else "")


ACTION_TYPES = {"Play": Play}
