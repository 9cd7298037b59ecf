"""Small inline HTML for cards, used by ``_repr_html_`` in notebooks.

Every element is written as a word, so the card reads the same without color.

>>> from safari_kit.cards.model import Mugshot
>>> print(mugshot_html(Mugshot("W01", "Elephant", "Brick", "Teal", "??M")))  # doctest: +ELLIPSIS
<div class="safari-card safari-mugshot" ...><b>??M</b> <small>(ink)</small>...Elephant...Brick...Teal...W01...</div>
"""
from __future__ import annotations

from html import escape

from safari_kit.cards.vocabulary import DATA_ITEM_LABELS, DATA_ITEMS

_BOX = ("display:inline-block;border:1px solid #888;border-radius:6px;padding:4px 8px;"
        "margin:2px;font-family:sans-serif;font-size:12px;line-height:1.4;min-width:9em")
_SWATCH = {"Teal": "#2a9d8f", "Yellow": "#e9c46a", "Orange": "#f4a261",
           "Pink": "#e78ac3", "Violet": "#8e6cc4"}


def mugshot_html(m) -> str:
    """A compact card: name (ink marked), animal, texture and color as words, and the id."""
    ink = " <small>(ink)</small>" if m.ink else ""
    swatch = _SWATCH.get(m.color, "#ccc")
    return (f'<div class="safari-card safari-mugshot" style="{_BOX};border-left:6px solid {swatch}" '
            f'title="{escape(str(m))}">'
            f"<b>{escape(m.name)}</b>{ink}<br>"
            f"{escape(m.animal)}<br>{escape(m.texture)}<br>{escape(m.color)}<br>"
            f'<small style="color:#666">{escape(m.id)}</small></div>')


def safari_pal_html(p) -> str:
    """A compact card: the animal's name, the four data items with units, and the id."""
    items = "".join(f"<tr><td>{escape(DATA_ITEM_LABELS[k])}</td>"
                    f'<td style="text-align:right">{p.value(k):g}</td></tr>' for k in DATA_ITEMS)
    return (f'<div class="safari-card safari-pal" style="{_BOX}" title="{escape(str(p))}">'
            f"<b>{escape(p.name)}</b>"
            f'<table style="font-size:inherit;border-collapse:collapse">{items}</table>'
            f'<small style="color:#666">{escape(p.id)}</small></div>')
