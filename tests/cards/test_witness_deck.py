"""Ruling W1: the committed witness deck, counted directly (not through validate.py)."""
from __future__ import annotations

import csv
import subprocess
import sys
from collections import Counter
from itertools import combinations

import pytest


ANIMALS = {"Elephant", "Owl", "Bear", "Goat", "Pig"}
TEXTURES = {"Brick", "Wood", "Circular Tile", "Diamond Tile", "Wavy"}
COLORS = {"Teal", "Yellow", "Orange", "Pink", "Violet"}
NAMES = {"TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN", "ALEX"}
AXES = {"animal": ANIMALS, "texture": TEXTURES, "color": COLORS}


@pytest.fixture
def deck(repo_root) -> list[dict]:
    with (repo_root / "data" / "cards.csv").open(encoding="utf-8", newline="") as f:
        return [row for row in csv.DictReader(f) if row["deck"] == "witness"]


def test_w1_75_mugshots_with_known_elements(deck):
    assert len(deck) == 75
    assert [r["id"] for r in deck] == [f"W{k:02d}" for k in range(1, 76)]
    for axis, allowed in AXES.items():
        assert {r[axis] for r in deck} == allowed
    for r in deck:
        assert all(r[c] == "" for c in ("weight_kg", "size_cm", "top_speed_kmh", "lifespan_years"))


def test_w1_each_element_on_exactly_15(deck):
    for axis, allowed in AXES.items():
        assert Counter(r[axis] for r in deck) == {e: 15 for e in allowed}, axis


def test_w1_every_cross_type_pair_on_exactly_3(deck):
    for a1, a2 in combinations(AXES, 2):
        counts = Counter((r[a1], r[a2]) for r in deck)
        assert len(counts) == 25 and set(counts.values()) == {3}, (a1, a2)


def test_w1_no_two_mugshots_share_animal_texture_and_color(deck):
    triples = [(r["animal"], r["texture"], r["color"]) for r in deck]
    assert len(set(triples)) == 75


def test_w1_70_clear_names_10_each(deck):
    clear = [r["name"] for r in deck if "?" not in r["name"]]
    assert len(clear) == 70
    assert Counter(clear) == {n: 10 for n in NAMES}


def test_w1_each_names_10_cards_hold_2_of_each_element(deck):
    for name in NAMES:
        group = [r for r in deck if r["name"] == name]
        for axis, allowed in AXES.items():
            assert Counter(r[axis] for r in group) == {e: 2 for e in allowed}, (name, axis)


def test_w1_5_ink_mugshots_one_per_element_with_the_patterns(deck):
    ink = [r for r in deck if "?" in r["name"]]
    assert sorted(r["name"] for r in ink) == sorted(["??M", "T?M", "?AM", "AL??", "?L??"])
    for axis, allowed in AXES.items():
        assert sorted(r[axis] for r in ink) == sorted(allowed), axis


def test_w1_design_script_reproduces_the_committed_rows(repo_root, witness_lines):
    out = subprocess.run([sys.executable, str(repo_root / "tools" / "design_witness_deck.py")],
                         capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.splitlines() == witness_lines
