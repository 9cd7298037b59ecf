"""Lesson 01 (meet the cards): answers and hints of its exercises.

The questions are in notebooks/01-meet-the-cards.md; every answer here is
computed from the shipped deck with the kit.
"""
from __future__ import annotations

import math
from fractions import Fraction

from safari_kit.teaching import deck
from safari_kit.core.i18n import N_
from safari_kit.teaching.exercises import Exercise, Hint, register


def _count(pred) -> int:
    return sum(1 for c in deck.witness() if pred(c))


def _share_of_deck(pred) -> Fraction:
    return Fraction(_count(pred), len(deck.witness()))


def _pink_given_owl() -> Fraction:
    return Fraction(_count(lambda c: c.animal == "Owl" and c.color == "Pink"), _count(lambda c: c.animal == "Owl"))


def _could_be(name: str) -> int:
    from safari_kit.cards.names import possible_names

    return _count(lambda c: name in possible_names(c.name))


def _speed_ties():
    from safari_kit.probability.knockout import ties_per_item

    return ties_per_item(deck.knockout())["top_speed_kmh"]


def _weight_orders() -> float:
    weights = [c.weight_kg for c in deck.knockout()]
    return math.log10(max(weights) / min(weights))


register(Exercise(
    "01.owl", lambda: _share_of_deck(lambda c: c.animal == "Owl"),
    hints=[Hint(lambda a: a == Fraction(1, 15), N_("Count the Owls, then divide by the number of ALL cards.")),
           Hint(lambda a: float(a) > 1, N_("A probability is between 0 and 1."))],
    general_hint=N_("How many Owls are there? Use value_counts() on the animal column.")))

register(Exercise(
    "01.owl-pink", lambda: _share_of_deck(lambda c: c.animal == "Owl" and c.color == "Pink"),
    hints=[Hint(lambda a: a == Fraction(2, 5),
                N_("That adds the chances; AND needs both at once. Look at the crosstab cell.")),
           Hint(lambda a: a == Fraction(3, 15), N_("Divide by all the cards in the deck, not only the Owls."))],
    general_hint=N_("Look up the Owl/Pink cell of pd.crosstab(deck.animal, deck.color).")))

register(Exercise(
    "01.pink-given-owl", _pink_given_owl,
    hints=[Hint(lambda a: a == Fraction(3, 75), N_("That is P(Owl AND Pink) out of the whole deck. Here you "
                                                  "only look at the Owls: how many Owls are there, and how "
                                                  "many of them are Pink?")),
           Hint(lambda a: a == Fraction(3, 5), N_("Divide by the number of Owls, not by the number of colors.")),
           Hint(lambda a: float(a) > 1, N_("A probability is between 0 and 1."))],
    general_hint=N_("Filter the Owls (deck[deck.animal == 'Owl']) and count the Pink ones.")))

register(Exercise(
    "01.could-be-tam", lambda: _could_be("TAM"),
    hints=[Hint(lambda a: a == 10, N_("Those are the clear TAMs. Some ink cards could be TAM too: check each "
                                     "ink pattern with possible_names().")),
           Hint(lambda a: a in (11, 12), N_("Closer! Check every one of the 5 ink patterns: a '?' can hide "
                                           "any letter.")),
           Hint(lambda a: a > 15, N_("Only cards with three letters ending in M can be TAM."))],
    general_hint=N_("Count the cards whose pattern matches TAM: names.possible_names(pattern) tells you.")))

register(Exercise(
    "01.weight-orders", _weight_orders, tolerance=0.05,
    hints=[Hint(lambda a: float(a) > 100, N_("That is the ratio itself. Take log10 of it: how many times do "
                                            "you multiply by 10 to get from the lightest to the heaviest?")),
           Hint(lambda a: 4.5 <= float(a) <= 5.5, N_("A round guess? Compute it from the data: "
                                                    "np.log10(pals.weight_kg.max() / pals.weight_kg.min())."))],
    general_hint=N_("Divide the heaviest weight by the lightest, then take log10 (one decimal is enough).")))

register(Exercise(
    "01.speed-tie", lambda: _speed_ties().p_tie.value,
    hints=[Hint(lambda a: a == Fraction(_speed_ties().cards_in_ties, len(deck.knockout())),
                N_("That is the share of cards that tie with SOME card. The question is about one random "
                  "pair: count the tied pairs, out of all C(57, 2) pairs.")),
           Hint(lambda a: a == Fraction(len(_speed_ties().groups), math.comb(len(deck.knockout()), 2)),
                N_("A group of g equal speeds makes C(g, 2) tied pairs, not just one.")),
           Hint(lambda a: float(a) > 0.5, N_("Ties are rare: most pairs of animals run at different speeds."))],
    general_hint=N_("Group the cards by top speed; a group of g cards gives C(g, 2) tied pairs.")))
