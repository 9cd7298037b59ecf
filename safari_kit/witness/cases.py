"""Case Cards and their scoring (ruling W9).

"Choose one ..." cards are scored with the best choice for the player. Ink
names count as one name each, the one that helps most, assigned by a maximum
bipartite matching so that no name counts twice.

>>> from safari_kit.cards.model import Mugshot
>>> cards = [Mugshot("a", "Owl", "Wood", "Teal", n) for n in ("TAM", "TOM", "SAM", "KIM", "KRIS")]
>>> case_points("names", cards + [Mugshot("b", "Owl", "Wood", "Teal", "??M")])[0]
2
>>> case_points("names", cards + [Mugshot("b", "Owl", "Wood", "Teal", "?L??")])[0]
3
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from safari_kit.cards.model import ANIMALS, COLORS, TEXTURES, Mugshot
from safari_kit.cards.names import NAMES, is_ink, matches, possible_names


@dataclass(frozen=True, slots=True)
class CaseCard:
    key: str
    text: str


CASE_CARDS = (
    CaseCard("choose_texture", "Choose one texture: 1 pt for every 2 Mugshots with that texture."),
    CaseCard("choose_color", "Choose one color: 1 pt for every 2 Mugshots with that color."),
    CaseCard("choose_animal", "Choose one animal: 1 pt for every 2 Mugshots with that animal."),
    CaseCard("choose_name", "Choose one name: 1 pt for every 2 Mugshots with that name (ink cards that match count)."),
    CaseCard("set_textures", "2 pts for a set of 5 different textures; 5 pts in total for two sets."),
    CaseCard("set_colors", "2 pts for a set of 5 different colors; 5 pts in total for two sets."),
    CaseCard("set_animals", "2 pts for a set of 5 different animals; 5 pts in total for two sets."),
    CaseCard("names", "2/3/4 pts for 5/6/7 different names (each ink card counts as one name)."),
)
CASE_BY_KEY = {c.key: c for c in CASE_CARDS}
_TYPE_OF = {"texture": TEXTURES, "color": COLORS, "animal": ANIMALS}


def distinct_names(cards: Iterable[Mugshot]) -> tuple[int, dict[str, str]]:
    """How many different names the cards show, inks matched at best (W9).

    Returns the count (at most 7) and the assignment ``{ink card id: name}``
    that achieves it. Clear names count once each; each ink card may add one
    name it matches that no other card has claimed (augmenting-path matching).
    """
    cards = list(cards)
    clear = {c.name for c in cards if not is_ink(c.name)}
    inks = [c for c in cards if is_ink(c.name)]
    free = [n for n in NAMES if n not in clear]
    owner: dict[str, int] = {}

    def augment(i: int, seen: set[str]) -> bool:
        for name in free:
            if name in seen or not matches(inks[i].name, name):
                continue
            seen.add(name)
            if name not in owner or augment(owner[name], seen):
                owner[name] = i
                return True
        return False

    for i in range(len(inks)):
        augment(i, set())
    assignment = {inks[i].id: name for name, i in owner.items()}
    return min(7, len(clear) + len(owner)), assignment


def case_points(case: str, cards: Iterable[Mugshot]) -> tuple[int, str]:
    """Points a Case Card scores for an archive, and a one-line explanation."""
    cards = list(cards)
    if case not in CASE_BY_KEY:
        raise ValueError(f"unknown case card {case!r}; expected one of {', '.join(CASE_BY_KEY)}")
    if case.startswith("choose_"):
        kind = case.removeprefix("choose_")
        if kind == "name":
            counts = {n: sum(1 for c in cards if matches(c.name, n)) for n in NAMES}
        else:
            counts = Counter(getattr(c, kind) for c in cards)
        if not counts or max(counts.values()) == 0:
            return 0, f"no {kind} to choose"
        best = max(counts, key=lambda k: (counts[k], -_order(kind, k)))
        return counts[best] // 2, f"chose {best}: {counts[best]} card(s) -> {counts[best] // 2} pt(s)"
    if case.startswith("set_"):
        kind = case.removeprefix("set_")[:-1]
        counts = Counter(getattr(c, kind) for c in cards)
        sets = min(counts.get(e, 0) for e in _TYPE_OF[kind])
        points = {0: 0, 1: 2}.get(sets, 5)
        return points, f"{min(sets, 2)} complete set(s) of 5 {kind}s -> {points} pt(s)"
    n, assignment = distinct_names(cards)
    points = {5: 2, 6: 3, 7: 4}.get(n, 0)
    inks = ", ".join(f"{k} as {v}" for k, v in sorted(assignment.items()))
    return points, f"{n} different name(s){' (inks: ' + inks + ')' if inks else ''} -> {points} pt(s)"


def _order(kind: str, element: str) -> int:
    values = NAMES if kind == "name" else _TYPE_OF[kind]
    return values.index(element)


__all__ = ["CASE_CARDS", "CASE_BY_KEY", "CaseCard", "case_points", "distinct_names", "possible_names"]
