"""What a learner reads and hears in a lab, collected from Python: the words of a widget tree.

Used by tests/i18n/test_pseudo_locale.py: every string a learner can see (a button's label, a tooltip, an
HTML widget's text and its aria-label/title/alt, a list's options, the card table's words) and every
sentence said to a screen reader, from the ipywidgets and anywidget state that is sent to the page.
"""
from __future__ import annotations

import csv
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import ipywidgets as W

REPO = Path(__file__).resolve().parents[2]
_ATTRS = ("aria-label", "title", "alt", "placeholder", "aria-description")


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self._skip += 1
        for name, value in attrs:
            if name in _ATTRS and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("style", "script") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(data)


def html_words(value: str) -> list[str]:
    parser = _Text()
    parser.feed(str(value))
    parser.close()
    return parser.parts


#: the card table's state keys that hold words (not ids, colours or numbers)
_SKIP_KEYS = {"id", "key", "kind", "css", "color", "colour", "style", "class", "classes", "_esm", "_css",
              "_model_name", "_view_name", "_model_module", "_view_module", "layout", "game", "phase", "seat_kind",
              "end_reason", "focus_to", "selector", "action", "scale", "item", "bars.item"}


#: an anywidget's synced traits that hold ids or state, never words (the highlight's labels are not drawn)
_SKIP_TRAITS = ("click", "selectable_ids", "layout", "game", "focus_to", "highlight", "lang")


def _strings(value, where: str, out: list[tuple[str, str]]) -> None:
    if isinstance(value, str):
        for part in html_words(value) if "<" in value else [html.unescape(value)]:
            out.append((where, part))
    elif isinstance(value, dict):
        for k, v in value.items():
            if str(k) not in _SKIP_KEYS:
                _strings(v, f"{where}.{k}", out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, where, out)


def visible_strings(widget, where: str = "") -> list[tuple[str, str]]:
    """(where, text) for every string the page shows or says, under ``widget`` (a widget or a lab)."""
    out: list[tuple[str, str]] = []
    seen: set[int] = set()

    def walk(w, path: str) -> None:
        if id(w) in seen:
            return
        seen.add(id(w))
        name = f"{path}/{type(w).__name__}"
        layout = getattr(w, "layout", None)
        if getattr(layout, "display", None) == "none" or getattr(layout, "visibility", None) == "hidden":
            return
        for attr in ("description", "tooltip", "placeholder", "button_text"):
            text = getattr(w, attr, None)
            if isinstance(text, str) and text:
                _strings(text, f"{name}.{attr}", out)
        if isinstance(w, (W.HTML, W.HTMLMath, W.Label)):
            _strings(w.value, f"{name}.value", out)
        if isinstance(w, (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select, W.SelectMultiple,
                          W.SelectionSlider)):
            _strings(list(w._options_labels), f"{name}.options", out)
            _strings(list(getattr(w, "tooltips", []) or []), f"{name}.tooltips", out)
        if isinstance(w, W.DOMWidget) and not isinstance(w, W.Box) and hasattr(w, "_esm"):  # anywidgets
            for trait in w.trait_names(sync=True):
                if not trait.startswith("_") and trait not in _SKIP_TRAITS:
                    _strings(getattr(w, trait), f"{name}.{trait}", out)
        for child in getattr(w, "children", ()) or ():
            walk(child, name)

    root = getattr(widget, "layout", widget) if not isinstance(widget, W.Widget) else widget
    if not isinstance(root, W.Widget):
        root = getattr(widget, "widget", root)
    walk(root, where)
    return out


def data_words() -> set[str]:
    """Words that come from the card data, not from the kit's catalogue (names, animals, textures, colours):
    they are translated as data (issue 30, left for later), not by gettext."""
    words: set[str] = set()
    with (REPO / "data" / "cards.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            for key in ("name", "animal", "texture", "color"):
                words.update(re.findall(r"[A-Za-z]+", row.get(key) or ""))
    return words


#: not words: units, short symbols of the lessons' formulas, the games' and the kit's names
SYMBOLS = {"kg", "cm", "km", "kmh", "P", "N", "n", "k", "SE", "vs", "ok", "OK", "ALAN", "KIM", "TAM", "TOM",
           "SAM", "KRIS", "ALEX", "Python", "Safari", "Witness", "Knockout", "Pals", "Kit"}


def english_words(text: str, allowed: set[str]) -> list[str]:
    """The plain-ASCII words of ``text`` (two letters or more) that are not data or symbols: in the
    pseudo-locale every catalogued letter is accented, so what is left was never catalogued."""
    text = re.sub(r"\{[^{}]*\}", " ", text)
    return [w for w in re.findall(r"(?<![^\W\d_])[A-Za-z]{2,}(?![^\W\d_])", text) if w not in allowed]
