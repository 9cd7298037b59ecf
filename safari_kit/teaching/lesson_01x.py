"""More exercises of lesson 01 (meet the cards): conditional counts, ink names, Safari Pals data.

``01.owl`` and ``01.owl-pink`` live in :mod:`safari_kit.teaching.lesson_01_02`;
these add independence, name patterns, ties and ranges. Every answer is
computed from the shipped deck with the kit.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from safari_kit.teaching.exercises import Exercise, Hint, register


@lru_cache(maxsize=1)
def _cards():
    from safari_kit.cards.load import load_cards

    return load_cards()


def _count(pred) -> int:
    return sum(1 for c in _cards().witness if pred(c))


def _pink_given_owl() -> Fraction:
    return Fraction(_count(lambda c: c.animal == "Owl" and c.color == "Pink"), _count(lambda c: c.animal == "Owl"))


def _could_be(name: str) -> int:
    from safari_kit.cards.names import possible_names

    return _count(lambda c: name in possible_names(c.name))


def _speed_ties():
    from safari_kit.probability.knockout import ties_per_item

    return ties_per_item(_cards().knockout)["top_speed_kmh"]


def _weight_orders() -> float:
    weights = [c.weight_kg for c in _cards().knockout]
    return math.log10(max(weights) / min(weights))


register(Exercise(
    "01.pink-given-owl", "Among the Owls only: P(the card is Pink)", _pink_given_owl,
    hints=[Hint(lambda a: a == Fraction(3, 75), "That is P(Owl AND Pink) out of the whole deck. Here you only look "
                                               "at the Owls: how many Owls are there, and how many of them are Pink?"),
           Hint(lambda a: a == Fraction(3, 5), "Divide by the number of Owls, not by the number of colors."),
           Hint(lambda a: float(a) > 1, "A probability is between 0 and 1.")],
    general_hint="Filter the Owls (deck[deck.animal == 'Owl']) and count the Pink ones."))

register(Exercise(
    "01.could-be-tam", "How many Mugshots COULD carry the name TAM (clear TAMs and ink cards that match)?",
    lambda: _could_be("TAM"),
    hints=[Hint(lambda a: a == 10, "Those are the clear TAMs. Some ink cards could be TAM too: check each ink pattern "
                                   "with possible_names()."),
           Hint(lambda a: a in (11, 12), "Closer! Check every one of the 5 ink patterns: a '?' can hide any letter."),
           Hint(lambda a: a > 15, "Only cards with three letters ending in M can be TAM.")],
    general_hint="Count the cards whose pattern matches TAM: names.possible_names(pattern) tells you."))

register(Exercise(
    "01.speed-tie", "Two different Safari Pals are drawn at random. P(they have the same top speed)",
    lambda: _speed_ties().p_tie.value,
    hints=[Hint(lambda a: a == Fraction(_speed_ties().cards_in_ties, len(_cards().knockout)),
                "That is the share of cards that tie with SOME card. The question is about one random pair: "
                "count the tied pairs, out of all C(57, 2) pairs."),
           Hint(lambda a: a == Fraction(len(_speed_ties().groups), math.comb(len(_cards().knockout), 2)),
                "A group of g equal speeds makes C(g, 2) tied pairs, not just one."),
           Hint(lambda a: float(a) > 0.5, "Ties are rare: most pairs of animals run at different speeds.")],
    general_hint="Group the cards by top speed; a group of g cards gives C(g, 2) tied pairs."))

register(Exercise(
    "01.weight-orders", "How many orders of magnitude (powers of ten) does weight span? log10(heaviest / lightest)",
    _weight_orders, tolerance=0.05,
    hints=[Hint(lambda a: float(a) > 100, "That is the ratio itself. Take log10 of it: how many times do you "
                                         "multiply by 10 to get from the lightest to the heaviest?"),
           Hint(lambda a: 4.5 <= float(a) <= 5.5, "A round guess? Compute it from the data: "
                                                  "np.log10(pals.weight_kg.max() / pals.weight_kg.min()).")],
    general_hint="Divide the heaviest weight by the lightest, then take log10 (one decimal is enough)."))
