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
from typing import Iterable, NamedTuple

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


class CaseOutcome(NamedTuple):
    """What a Case Card scored and why, as numbers and data (a learner's words are written from it one layer up:
    the rules write no words for learners in their language, issue 30)."""

    points: int
    kind: str  # "texture", "color", "animal" or "name"
    best: str | None = None  # "choose_" cards: the element chosen (None: nothing to choose)
    number: int = 0  # "choose_": cards with it; "set_": complete sets (at most 2); "names": different names
    inks: tuple[tuple[str, str], ...] = ()  # "names": each ink card's name as read, and the name it counts as


def case_outcome(case: str, cards: Iterable[Mugshot]) -> CaseOutcome:
    """Points a Case Card scores for an archive, and the numbers behind them."""
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
            return CaseOutcome(0, kind)
        best = max(counts, key=lambda k: (counts[k], -_order(kind, k)))
        return CaseOutcome(counts[best] // 2, kind, best, counts[best])
    if case.startswith("set_"):
        kind = case.removeprefix("set_")[:-1]
        counts = Counter(getattr(c, kind) for c in cards)
        sets = min(counts.get(e, 0) for e in _TYPE_OF[kind])
        return CaseOutcome({0: 0, 1: 2}.get(sets, 5), kind, number=min(sets, 2))
    n, assignment = distinct_names(cards)
    return CaseOutcome({5: 2, 6: 3, 7: 4}.get(n, 0), "name", number=n, inks=tuple(sorted(assignment.items())))


def case_points(case: str, cards: Iterable[Mugshot]) -> tuple[int, str]:
    """Points a Case Card scores for an archive, and a one-line explanation (English: the records' and the
    tests' words; a learner reads :func:`safari_kit.presentation.case_words.case_why`)."""
    o = case_outcome(case, cards)
    points = _count(o.points, "point", "points")
    if case.startswith("choose_"):
        if o.best is None:
            return 0, f"no {o.kind} to choose"
        return o.points, f"chose {o.best}: {_count(o.number, 'card', 'cards')} -> {points}"
    if case.startswith("set_"):
        sets = _count(o.number, "complete set", "complete sets")
        return o.points, f"{sets} of 5 {o.kind}s -> {points}"
    inks = ", ".join(f"{k} as {v}" for k, v in o.inks)
    names = _count(o.number, "different name", "different names")
    return o.points, f"{names}{' (inks: ' + inks + ')' if inks else ''} -> {points}"


def _count(n: int, one: str, many: str) -> str:
    """English only (the engine's words; a learner reads them from the catalogue, with its plural forms)."""
    return f"{n} {one if n == 1 else many}"


def _order(kind: str, element: str) -> int:
    values = NAMES if kind == "name" else _TYPE_OF[kind]
    return values.index(element)


__all__ = ["CASE_CARDS", "CASE_BY_KEY", "CaseCard", "CaseOutcome", "case_outcome", "case_points",
           "distinct_names", "possible_names"]
