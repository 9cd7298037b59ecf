"""Computations several lessons' facts share: the deck, the rules, name matches, sections."""
from __future__ import annotations

import re
from fractions import Fraction


def _w():
    from safari_kit.probability import witness as W

    return W


def _deck():
    from safari_kit.teaching import deck

    return deck


def _tam() -> str:
    return _deck().first_named("TAM")


def _n_witness() -> int:
    return len(_deck().witness())


def _others() -> int:
    return _n_witness() - 1


def _count(pred) -> int:
    return sum(1 for c in _deck().witness() if pred(c))


def _inks() -> int:
    from safari_kit.cards.names import is_ink

    return _count(lambda c: is_ink(c.name))


def _per_element() -> int:
    """Cards per animal (= per texture, per color: W1 balance)."""
    cards = _deck().witness()
    sizes = {sum(1 for c in cards if getattr(c, kind) == getattr(cards[0], kind)) for kind in
             ("animal", "texture", "color")}
    assert len(sizes) == 1
    return sizes.pop()


def _pair_cell() -> int:
    cards = _deck().witness()
    cells = {sum(1 for c in cards if c.animal == a.animal and c.color == a.color) for a in cards}
    assert len(cells) == 1
    return cells.pop()


def _owl() -> Fraction:
    return Fraction(_count(lambda c: c.animal == "Owl"), _n_witness())


def _animals() -> int:
    return len({c.animal for c in _deck().witness()})


def _safe() -> int:
    return _w().safe_count(_tam())


def _rules():
    from safari_kit.knockout.game import cards_per_player
    from safari_kit.knockout.rules import ROUNDS
    from safari_kit.witness.rules import ARCHIVE_TO_END, MIN_SAFE

    return {"rounds": ROUNDS, "deal": cards_per_player, "archive_to_end": ARCHIVE_TO_END, "min_safe": MIN_SAFE}


def _approx(x, digits: int) -> str:
    return f"{float(x):.{digits}f}"


def _section(lesson: str, title: str) -> int:
    """The number of the lesson's section whose heading starts with ``title`` ("## 3. Title"): a
    reference such as "see section 3" is tied to the heading it points to."""
    from pathlib import Path

    path = next((Path(__file__).resolve().parents[3] / "notebooks").glob(f"{lesson}-*.md"))
    found = re.findall(rf"^## (\d+)\. {re.escape(title)}", path.read_text(encoding="utf-8"), flags=re.M)
    assert len(found) == 1, (lesson, title, found)
    return int(found[0])

