"""Reveal another: P(both succeed) counts ordered pairs of *different* cards (issue 12, part 3).

Lesson 02 once said E = 4·p1·p2 with each chance taken alone, which ignores
drawing without replacement. These tests enumerate the ordered pairs of cards
that can lie under the two declared places and compare with the lesson's worked
example (p1 = 13/73, p2 = 12/72 given the first success) and with the kit.
"""
from fractions import Fraction
from itertools import permutations

import numpy as np

from safari_kit.probability import witness as W
from safari_kit.probability.knowledge import Knowledge
from safari_kit.witness import WitnessGame

TAM = "W03"  # the first clear TAM, an Elephant (lesson 02's clue card)


def _fresh(game):
    """A fresh table with the TAM Elephant as the clue (the four place cards are not Elephants, unseen)."""
    others = [c.id for c in game.cards if c.animal != "Elephant"][:4]
    state = game.new_initial_state(seed=1, deck_order=others + [TAM])
    return Knowledge.from_observation(state.observation(state.current_player), game=game)


def test_worked_example_by_enumeration():
    game = WitnessGame(players=2)
    tam = game.index[TAM]
    second = next(i for i, c in enumerate(game.cards) if c.animal == "Elephant" and i != tam)
    pool = [i for i in range(len(game.cards)) if i not in (tam, second)]
    elephant = {i for i, c in enumerate(game.cards) if c.animal == "Elephant"}
    both = sum(1 for x, y in permutations(pool, 2) if x in elephant and y in elephant)
    total = len(pool) * (len(pool) - 1)
    assert (len(pool), both, total) == (73, 13 * 12, 73 * 72)
    assert Fraction(both, total) == Fraction(13, 73) * Fraction(12, 72) == Fraction(13, 438)
    assert Fraction(both, total) < Fraction(13, 73) ** 2  # the with-replacement guess is too high
    # the kit's plan for this second clue, on a fresh table, declaring animal twice
    kn = _fresh(game)
    plan = W.best_two_clue_plan(kn, tam, second, type_choices=[("animal",)])
    assert plan is not None and plan[2].value == Fraction(13, 438)


def test_reveal_another_value_by_enumeration_on_a_fresh_table():
    """E = 4·(1/N)·Σ_X P(both | X), P(both | X) by enumerating ordered pairs of different pool cards."""
    game = WitnessGame(players=2)
    kn = _fresh(game)
    t = W.tables(game)
    c1 = kn.clue[0]
    pool = sorted(kn.pool)
    total = Fraction(0)
    for x in pool:
        rest = [int(c) for c in pool if c != x]
        best = Fraction(0)
        for t1 in W.SINGLE_TYPES:
            a = np.array([(t.match[t1][c1] >> c) & 1 for c in rest], dtype=np.int64)
            for t2 in W.SINGLE_TYPES:
                b = np.array([(t.match[t2][x] >> c) & 1 for c in rest], dtype=np.int64)
                pairs = np.outer(a, b)
                np.fill_diagonal(pairs, 0)  # the two places hold different cards
                best = max(best, Fraction(int(pairs.sum()), len(rest) * (len(rest) - 1)))
        total += best
    assert W.reveal_another_value(kn).value == 4 * total / len(pool)
