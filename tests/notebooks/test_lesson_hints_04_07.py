"""Lessons 04–07: every exercise's hint leads a learner who has only the lesson's text to the answer, and no
printout of a lesson answers an exercise (issue 27, part C).

The wrong answers are recounted here from ``data/cards.csv`` with the csv module and this file's own reading of
the rules (K3: a later card must be strictly higher; a seen card is in nobody's hand), not with the kit's
probability code; then ``check`` must answer each with the hint that names the mistake.
"""
from __future__ import annotations

import csv
import re
from fractions import Fraction
from math import comb
from pathlib import Path

from safari_kit.teaching import check

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SPEED = "top_speed_kmh"


def _pals() -> dict[str, dict]:
    with open(ROOT / "data" / "cards.csv", newline="", encoding="utf-8") as f:
        return {row["id"]: row for row in csv.DictReader(f) if row["deck"] == "knockout"}


def _faster(card: str, pool) -> int:
    pals = _pals()
    return sum(float(pals[c][SPEED]) > float(pals[card][SPEED]) for c in pool)


def _lead(U: int, H: int, k: int) -> Fraction:
    return Fraction(comb(U - H, k), comb(U, k))


def _text(key: str, answer) -> str:
    return check(key, answer).text


def _code_cells(lesson: str) -> list[str]:
    text = next(NOTEBOOKS.glob(f"{lesson}-*.md")).read_text(encoding="utf-8")
    return re.findall(r"```\{code-cell\}\n(.*?)```", text, flags=re.S)


# ----------------------------------------------------------------------------- lesson 04
def test_04_lead_one_card_is_asked_at_a_k_no_table_of_the_lesson_prints():
    """On the old lesson the cell right under the exercise printed the Lion's row "17/44 ≈ 0.3864" (same H, same
    k = 21) and the next table the Impala's own 0.386364: the exercise is now set at a k no cell prints."""
    from safari_kit.teaching import lesson_04

    pals = _pals()
    N = len(pals)
    H = _faster("K10", pals)
    answer = _lead(N - 1, H, lesson_04.LEAD_K)
    assert check("04.lead-one-card", answer).correct
    printed_k = set()
    for cell in _code_cells("04"):
        if "solution" in cell.split("\n", 1)[0]:
            continue
        printed_k |= {int(k) for k in re.findall(r"p_win_leading_card_only\([^)]*?,\s*(?:k=)?(\d+)\)", cell)}
        printed_k |= {int(k) for k in re.findall(r"\bU, k = N - 1, (\d+)", cell)}
    assert printed_k and lesson_04.LEAD_K not in printed_k, printed_k
    # no card on any item at a printed k has the answer's chance (to the 3 decimals the tables show)
    for k in printed_k:
        for card in pals:
            for item in ("weight_kg", "size_cm", SPEED, "lifespan_years"):
                h = sum(float(pals[c][item]) > float(pals[card][item]) for c in pals)
                assert round(float(_lead(N - 1, h, k)), 3) != round(float(answer), 3), (card, item, k)


def test_04_best_item_table_leaves_out_the_impala():
    """The table under 04.best-item shows its first rows only: the Impala (the 10th card) was one of them."""
    cell = next(c for c in _code_cells("04") if 'ranks["best item"]' in c)
    shown = int(re.search(r"\.head\((\d+)\)", cell).group(1))
    assert "K10" not in list(_pals())[:shown]


def test_04_lead_one_card_hints():
    pals = _pals()
    N, H, k = len(pals), _faster("K10", _pals()), 14
    assert check("04.lead-one-card", _lead(N - 1, H, k)).correct
    assert check("04.lead-one-card", round(float(_lead(N - 1, H, k)), 3)).correct
    assert "not 57" in _text("04.lead-one-card", _lead(N, H, k))                 # U = 57: own card not seen
    assert "rank minus 1" in _text("04.lead-one-card", _lead(N - 1, H + 1, k))   # H = the rank
    assert "k = 14" in _text("04.lead-one-card", _lead(N - 1, H, 21))            # the 4-player k of the examples
    assert "ONE opponent card" in _text("04.lead-one-card", Fraction(N - 1 - H, N - 1))
    assert "putting them back" in _text("04.lead-one-card", float(Fraction(N - 1 - H, N - 1) ** k))
    general = check("04.lead-one-card", Fraction(1, 3)).text
    assert "rank on top speed minus 1" in general and "Lion's cell" in general


def test_04_best_item_hints():
    assert check("04.best-item", "top speed").correct
    assert "biggest number" in _text("04.best-item", "size")   # the Impala's biggest number is its size
    assert "K10 in place of K23" in _text("04.best-item", "weight").replace("id, K10,", "K10")


def test_04_follow_hints():
    """You hold K10, K20, K30; the Warthog (K36) led on top speed; one player with 3 cards after you."""
    pals = _pals()
    seen = {"K10", "K20", "K30", "K36"}
    unseen = [c for c in pals if c not in seen]
    U, H, k = len(unseen), _faster("K10", unseen), 3
    right = _lead(U, H, k)
    assert check("04.follow", right).correct and check("04.follow", round(float(right), 3)).correct
    assert "57 − 3 − 1" in _text("04.follow", _lead(U + 3, H, k))            # only the Impala seen: U = 56
    assert "Warthog too" in _text("04.follow", _lead(U + 1, H, k))           # the Warthog left in U
    assert "Warthog too" in _text("04.follow", round(float(_lead(U + 1, H, k)), 3))
    assert "strictly faster" in _text("04.follow", _lead(U, H + 1, k))       # H = the Impala's rank
    assert "faster card" in _text("04.follow", 1)
    assert "leading chance" in _text("04.follow", check_lead := _lead(len(pals) - 1, H, 14))
    assert check_lead != right
