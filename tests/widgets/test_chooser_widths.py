"""The chooser's buttons are as wide as their words in every language (issue 30).

"Open lab" fitted a fixed 100px; its Spanish, "Abrir laboratorio", did not, and ipywidgets cuts a button's
label with an ellipsis. A button whose width is fixed in pixels must hold its longest label: measured here with
a generous average width per character of the chooser's 13px font (the browser tests show the page itself).
"""
from __future__ import annotations

import re

import ipywidgets as W
import pytest

from safari_kit.core.i18n import available_languages
from safari_kit.widgets.app import LabChooser

CHAR_PX, PADDING_PX = 7, 24  # 13px sans-serif (DejaVu Sans averages under 7px); a button's padding and border


def _buttons(widget):
    if isinstance(widget, W.Button):
        yield widget
    for child in getattr(widget, "children", ()):
        yield from _buttons(child)


def _needs(text: str) -> int:
    return len(text) * CHAR_PX + PADDING_PX


@pytest.mark.parametrize("lang", [x for x in available_languages() if x != "en_XA"])
def test_no_chooser_button_is_narrower_than_its_words(lang):
    chooser = LabChooser(seed=3, lang=lang)
    cut = []
    for button in _buttons(chooser.widget if hasattr(chooser, "widget") else chooser):
        fixed = re.fullmatch(r"(\d+)px", button.layout.width or "")
        if fixed and int(fixed.group(1)) < _needs(button.description):
            cut.append((button.description, button.layout.width))
    assert not cut, f"buttons narrower than their words in {lang!r}: {cut}"
