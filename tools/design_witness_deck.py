"""Find a Safari Witness deck that satisfies ruling W1, and print it as CSV rows.

Why a script: the real deck's composition is not public, so our edition is a
balanced design (W1). The triples come from a simple algebraic rule and the
names from a seeded local search; the result is committed as static data in
``data/cards.csv`` and ``tests/cards/test_witness_deck.py`` checks it.

Run: ``python tools/design_witness_deck.py > /tmp/witness_rows.csv``
"""
from __future__ import annotations

import itertools
import random
import sys

ANIMALS = ["Elephant", "Owl", "Bear", "Goat", "Pig"]
TEXTURES = ["Brick", "Wood", "Circular Tile", "Diamond Tile", "Wavy"]
COLORS = ["Teal", "Yellow", "Orange", "Pink", "Violet"]
NAMES = ["TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN", "ALEX"]
INK_PATTERNS = ["??M", "T?M", "?AM", "AL??", "?L??"]


def triples() -> list[tuple[int, int, int]]:
    """The 75 (animal, texture, color) index triples with c - a - t mod 5 in {0, 1, 2}.

    Fixing any two coordinates leaves exactly 3 values of the third, so every
    cross-type pair is on exactly 3 cards, and each element on 15.
    """
    return [(a, t, c) for a, t, c in itertools.product(range(5), repeat=3) if (c - a - t) % 5 in (0, 1, 2)]


def ink_cards() -> list[tuple[int, int, int]]:
    """One card per animal, texture and color: (i, i, 2i mod 5) lies in the design."""
    return [(i, i, (2 * i) % 5) for i in range(5)]


def assign_names(cards: list[tuple[int, int, int]], seed: int = 7) -> list[int]:
    """Split 70 cards into 7 groups of 10 holding 2 of each animal, texture, color.

    Local search: swap names between two cards while the total imbalance falls.
    """
    rng = random.Random(seed)
    labels = [i // 10 for i in range(70)]
    rng.shuffle(labels)

    def cost(lab: list[int]) -> int:
        total = 0
        for g in range(7):
            members = [cards[k] for k in range(70) if lab[k] == g]
            for axis in range(3):
                counts = [0] * 5
                for m in members:
                    counts[m[axis]] += 1
                total += sum(abs(x - 2) for x in counts)
        return total

    best = cost(labels)
    while best:
        i, j = rng.randrange(70), rng.randrange(70)
        if labels[i] == labels[j]:
            continue
        labels[i], labels[j] = labels[j], labels[i]
        c = cost(labels)
        if c <= best:
            best = c
        else:
            labels[i], labels[j] = labels[j], labels[i]
    return labels


def main() -> None:
    all_cards = triples()
    inks = ink_cards()
    clear = [c for c in all_cards if c not in inks]
    labels = assign_names(clear)
    rows = []
    for card, label in zip(clear, labels):
        rows.append((card, NAMES[label]))
    for card, pattern in zip(inks, INK_PATTERNS):
        rows.append((card, pattern))
    rows.sort(key=lambda r: r[0])
    out = sys.stdout
    for k, ((a, t, c), name) in enumerate(rows, start=1):
        out.write(f"W{k:02d},witness,{name},{ANIMALS[a]},{TEXTURES[t]},{COLORS[c]},,,,\n")


if __name__ == "__main__":
    main()
