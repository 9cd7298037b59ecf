"""The words and public card faces that both the table's views and its click targets use.

Split out of :mod:`~safari_kit.presentation.views` (issue 28) so that
:mod:`~safari_kit.presentation.views` (what a seat sees) and
:mod:`~safari_kit.presentation.targets` (what a seat may click, and why a click
is refused) each import it, and neither imports the other back: the views
module re-exports the targets' names, so the targets must not import the views.

- :func:`learner_sentence`: an engine reason as a learner's sentence;
- the phase words, button labels and ability labels of Witness;
- :func:`mugshot_face` / :func:`pal_face` / :func:`deck_ranges`: the public face
  of a card the viewer may see (a Mugshot; a Safari Pal with its bars against
  the deck's public ranges).

>>> learner_sentence("the place is face up (W4)")
'The place is face up.'
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

from safari_kit.cards.model import DATA_ITEMS
from safari_kit.core.i18n import N_, Words, _, current_language, ngettext
from safari_kit.presentation.card_words import mugshot_elements, pal_name
from safari_kit.presentation.numbers import decimal, whole
from safari_kit.presentation.refusal_words import engine_words

__all__ = ["learner_sentence", "WITNESS_PHASE_WORDS", "WITNESS_BUTTONS", "mugshot_face", "ITEM_UNITS", "ITEM_SHORT",
           "LOG_ITEMS", "deck_ranges", "pal_face"]

# ----------------------------------------------------------------------------- sentences
_RULE_REF = re.compile(r"\s*\((?:[WK]\d+[a-z ]*)\)")


def learner_sentence(text: str) -> str:
    """An engine reason as a learner's sentence: no rule numbers, capital first letter, a full stop."""
    text = _RULE_REF.sub("", engine_words(str(text))).strip()  # in the learner's language (refusal_words)
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _who(player: int | None, viewer: int) -> str:
    if player is None or player < 0:
        return _("nobody")
    return _("you") if player == viewer else _("Player {player}").format(player=player)


def _Who(player: int | None, viewer: int) -> str:
    w = _who(player, viewer)
    return w[0].upper() + w[1:]


# ----------------------------------------------------------------------------- Witness
# the tables of words below are Words: each value is read in the learner's language (issue 30)
WITNESS_PHASE_WORDS = Words({  # (said to the viewer, said about another player)
    "choose": (N_("choose: Identify, reveal another clue, or Challenge"),
               N_("is choosing: Identify, another clue, or Challenge")),
    "identify": (N_("identify: pick a clue card, a clue type and a face-down place"), N_("is identifying")),
    "challenge": (N_("challenge: reveal face-down cards; after 4 safe ones you may stop"), N_("is challenging")),
    "archive": (N_("archive: put the cards won on your archive one at a time; the last one goes on top"),
                N_("is archiving the cards won")),
    "face_up": (N_("it failed, so everyone sees the face-up cards now. Remember them, then press Next turn"),
                N_("failed: the revealed cards lie face up. Remember them!")),
    "abilities": (N_("use a name ability, or end your turn"), N_("may use a name ability")),
    "alan": (N_("use ALAN: take archived cards into the Clue Area, then identify"), N_("is using ALAN")),
})
_TYPE_WORDS = Words({"animal": N_("Animal"), "texture": N_("Texture"), "color": N_("Color"), "name": N_("Name")})


def _witness_buttons() -> dict:
    from safari_kit.witness import actions as A

    return {  # one button per action without fields: (button id, label: English, read it with _())
        A.Identify: ("identify", N_("Identify")),
        A.RevealAnother: ("reveal_another", N_("Reveal another clue")),
        A.Challenge: ("challenge", N_("Challenge")),
        A.StopChallenge: ("stop", N_("Stop and archive")),
        A.TurnFaceDown: ("face_down", N_("Next turn")),  # one name in every lab (issue 27)
        A.AlanDone: ("alan_done", N_("ALAN: identify now")),
        A.UseAlan: ("use:ALAN", N_("ALAN: identify again")),
        A.EndTurn: ("end_turn", N_("End turn")),
    }


WITNESS_BUTTONS = _witness_buttons()
_ABILITY_WORDS = Words({
    "TAM": N_("TAM: swap two cards"), "TOM": N_("TOM: peek at a face-down card"),
    "SAM": N_("SAM: shuffle two face-down cards"), "KIM": N_("KIM: send an archived card back"),
    "KRIS": N_("KRIS: name an element and reveal"), "ALAN": N_("ALAN: identify again"),
})


def mugshot_face(card) -> dict:
    """The public face of a face-up Mugshot (only ever called for face-up cards): a fresh dict the caller may
    change, copied from the one worked out once per card and language (a table's redraw asks for every face-up
    card, each time: issue 28 found the redraws spending most of their time here)."""
    face = _mugshot_face(card, current_language())
    return {**face, "words": dict(face["words"])}


@lru_cache(maxsize=4096)
def _mugshot_face(card, lang: str) -> dict:
    """:func:`mugshot_face` in ``lang``, the current language when it is called (a Mugshot is a frozen value)."""
    hidden = card.name.count("?")
    words = mugshot_elements(card)  # the learner's language (data/card-names.csv); the keys stay English
    label = _("{color} {animal}, {texture}, named {name}").format(**words)
    if hidden:
        label += " " + ngettext("({n} letter hidden by ink)", "({n} letters hidden by ink)", hidden).format(n=hidden)
    return {"id": card.id, "animal": card.animal, "texture": card.texture, "color": card.color,
            "name": card.name, "ink": hidden > 0, "label": label,
            "words": {k: words[k] for k in ("color", "texture", "animal")}}


# ----------------------------------------------------------------------------- Knockout
ITEM_UNITS = Words({"weight_kg": "kg", "size_cm": "cm", "top_speed_kmh": "km/h", "lifespan_years": N_("years")})
#: the data items' long names (safari_kit.cards.model.DATA_ITEM_LABELS, said in the learner's language)
ITEM_LABELS = Words({"weight_kg": N_("Weight (kg)"), "size_cm": N_("Size (cm)"),
                     "top_speed_kmh": N_("Top speed (km/h)"), "lifespan_years": N_("Lifespan (years)")})
ITEM_SHORT = Words({"weight_kg": N_("Weight"), "size_cm": N_("Size"), "top_speed_kmh": N_("Top speed"),
                    "lifespan_years": N_("Lifespan")})
LOG_ITEMS = ("weight_kg",)


def short_number(v: float, digits: int) -> str:
    """``v`` with at most ``digits`` decimals and no trailing zeros, in the learner's language (``0.73``,
    Spanish ``0,73``); from 100 up a whole number with the language's group marks (``4,500``, ``4500``)."""
    if v >= 100:
        return whole(round(v))
    text = f"{v:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:.0f}"
    return decimal(v, len(text.partition(".")[2]))


def _fmt(v: float) -> str:
    return short_number(v, 1 if v >= 10 else 2)


def deck_ranges(cards) -> dict:
    """The public range of every data item over the whole deck (the bars' scales)."""
    out = {}
    for item in DATA_ITEMS:
        values = [float(getattr(c, item)) for c in cards]
        lo, hi = min(values), max(values)
        out[item] = {"id": item, "label": ITEM_SHORT[item], "long_label": ITEM_LABELS[item],
                     "unit": ITEM_UNITS[item], "min": lo, "max": hi,
                     "scale": "log" if item in LOG_ITEMS else "linear",
                     "range_text": f"{_fmt(lo)}–{_fmt(hi)} {ITEM_UNITS[item]}"}
    return out


def _fraction(v: float, r: dict) -> float:
    lo, hi = r["min"], r["max"]
    if r["scale"] == "log":
        lo = max(lo, 1e-9)
        if hi <= lo:
            return 1.0
        f = (math.log(max(v, lo)) - math.log(lo)) / (math.log(hi) - math.log(lo))
    else:
        f = v / hi if hi > 0 else 1.0
    return round(min(1.0, max(0.04, f)), 4)


def pal_face(card, ranges: dict, items=DATA_ITEMS) -> dict:
    """The public face of a Safari Pal the viewer may see: name, values, bars against the deck's range."""
    bars = []
    for item in items:
        v = float(getattr(card, item))
        r = ranges[item]
        bars.append({"item": item, "label": r["label"], "unit": r["unit"], "value": v,
                     "text": f"{_fmt(v)} {r['unit']}", "fraction": _fraction(v, r), "scale": r["scale"]})
    name = pal_name(card)  # the learner's language (data/card-names.csv)
    label = name + ": " + ", ".join(f"{b['label'].lower()} {b['text']}" for b in bars)
    return {"id": card.id, "name": name, "bars": bars, "label": label}


# ----------------------------------------------------------------------------- either game
def _is_knockout(state) -> bool:
    return hasattr(state, "trick") and not hasattr(state, "places")
