"""The Case Cards' words for a learner, in the learner's language (issue 30).

The rules engine (:mod:`safari_kit.witness.cases`) scores the Case Cards and keeps their English texts; it writes
no words in a learner's language (the engine layers import no gettext). This module is the catalogue's copy:
:data:`CASE_TEXTS` holds each card's text (``tests/i18n`` checks it against the engine's), and :func:`case_why`
writes why a card scored what it did from the engine's :func:`~safari_kit.witness.cases.case_outcome`. In English
both are exactly the engine's words (``case_points``), which the tests check too.
"""
from __future__ import annotations

from safari_kit.core.i18n import N_, Words, _, ngettext

__all__ = ["CASE_TEXTS", "case_text", "case_why"]

#: each Case Card's text (the catalogue's copy of safari_kit.witness.cases.CASE_CARDS' texts)
CASE_TEXTS = Words({
    "choose_texture": N_("Choose one texture: 1 pt for every 2 Mugshots with that texture."),
    "choose_color": N_("Choose one color: 1 pt for every 2 Mugshots with that color."),
    "choose_animal": N_("Choose one animal: 1 pt for every 2 Mugshots with that animal."),
    "choose_name": N_("Choose one name: 1 pt for every 2 Mugshots with that name (ink cards that match count)."),
    "set_textures": N_("2 pts for a set of 5 different textures; 5 pts in total for two sets."),
    "set_colors": N_("2 pts for a set of 5 different colors; 5 pts in total for two sets."),
    "set_animals": N_("2 pts for a set of 5 different animals; 5 pts in total for two sets."),
    "names": N_("2/3/4 pts for 5/6/7 different names (each ink card counts as one name)."),
})
_NOTHING = Words({"texture": N_("no texture to choose"), "color": N_("no color to choose"),
                  "animal": N_("no animal to choose"), "name": N_("no name to choose")})


def _points(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)


def _sets(kind: str, n: int) -> str:
    """``n`` complete sets of the kind, its plural from the catalogue (Spanish: serie completa / series completas)."""
    if kind == "texture":
        return ngettext("{n} complete set of 5 textures", "{n} complete sets of 5 textures", n).format(n=n)
    if kind == "color":
        return ngettext("{n} complete set of 5 colors", "{n} complete sets of 5 colors", n).format(n=n)
    return ngettext("{n} complete set of 5 animals", "{n} complete sets of 5 animals", n).format(n=n)


def case_text(key: str) -> str:
    """Case Card ``key``'s text in the learner's language (a key the kit does not know: the key itself)."""
    return CASE_TEXTS.get(key, key)


def case_why(key: str, cards) -> str:
    """Why Case Card ``key`` scores what it does for the archive ``cards``, in the learner's language."""
    from safari_kit.witness.cases import case_outcome

    o = case_outcome(key, cards)
    if key.startswith("choose_"):
        if o.best is None:
            return _NOTHING[o.kind]
        cards = ngettext("{n} card", "{n} cards", o.number).format(n=o.number)
        return _("chose {best}: {cards} -> {points}").format(best=o.best, cards=cards, points=_points(o.points))
    if key.startswith("set_"):
        return _("{what} -> {points}").format(what=_sets(o.kind, o.number), points=_points(o.points))
    names = ngettext("{n} different name", "{n} different names", o.number).format(n=o.number)
    if not o.inks:
        return _("{what} -> {points}").format(what=names, points=_points(o.points))
    inks = ", ".join(_("{ink} as {name}").format(ink=k, name=v) for k, v in o.inks)
    return _("{names} (inks: {inks}) -> {points}").format(names=names, inks=inks, points=_points(o.points))
