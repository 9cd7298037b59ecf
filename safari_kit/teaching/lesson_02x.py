"""More exercises of lesson 02 (identification): names, ALEX pairs, memory, the reveal-another break-even.

Lesson 02's first two exercises (``02.animal``, ``02.tam-name``) live in
``lesson_01_02.py``. Every answer here is computed from the deck with
:mod:`safari_kit.probability.witness`, never typed in.
"""
from __future__ import annotations

from fractions import Fraction

from safari_kit.teaching.exercises import Exercise, Hint, register


def _w():
    from safari_kit.probability import witness as W

    return W


def _id_of(name: str) -> str:
    from safari_kit.teaching.lesson_01_02 import _first_clear

    return _first_clear(name) if "?" not in name else next(c.id for c in _deck() if c.name == name)


def _deck():
    from safari_kit.teaching.lesson_01_02 import _witness

    return _witness()


def _others() -> int:
    return len(_deck()) - 1


def _name_p(name: str) -> Fraction:
    return Fraction(_w().match_count(_id_of(name), "name"), _others())


register(Exercise(
    "02.kris-name", "P(a face-down card shares a name with a KRIS clue card), knowing nothing else",
    lambda: _name_p("KRIS"),
    hints=[Hint(lambda a: a == Fraction(10, 74), "The clue card is one of the 10 KRIS cards, so it is not face down."),
           Hint(lambda a: a == Fraction(12, 74), "Which ink names could spell KRIS? A name with three letters never can.")],
    general_hint="Count the other KRIS cards, then the ink cards whose pattern has the right length and letters."))

register(Exercise(
    "02.ink-name", "P(a face-down card shares a possible name with the ??M clue card)",
    lambda: _name_p("??M"),
    hints=[Hint(lambda a: a == Fraction(1, 74), "??M could be any three-letter name ending in M: which names are those?"),
           Hint(lambda a: a == Fraction(30, 74), "Don't forget the other ink cards: T?M and ?AM could also end in M.")],
    general_hint="List the names ??M could be (TAM, TOM, SAM, KIM), count those cards, then add the matching ink cards."))


def _alex_pair() -> Fraction:
    return Fraction(_w().match_count(_id_of("TAM"), ("animal", "color")), _others())


register(Exercise(
    "02.alex-pair", "With ALEX on your archive you declare Animal + Color for the TAM clue card. P(match)?",
    _alex_pair,
    hints=[Hint(lambda a: a == Fraction(28, 74), "14 + 14 counts twice the cards with the same animal AND color: "
                                                "subtract them (inclusion–exclusion)."),
           Hint(lambda a: a == Fraction(14, 74), "A pair matches when EITHER type matches: more cards than one type.")],
    general_hint="|A ∪ C| = |A| + |C| − |A ∩ C|: count the cards sharing the animal, the color, and both."))


def _memory() -> Fraction:
    # 3 face-down cards remembered, none shares the clue's animal: they leave the pool, the 14 matches stay
    return Fraction(_w().match_count(_id_of("TAM"), "animal"), _others() - 3)


register(Exercise(
    "02.memory", "The clue card is the TAM Elephant. You remember 3 face-down cards and none is an Elephant. "
                 "P(an unknown place holds an Elephant)?",
    _memory,
    hints=[Hint(lambda a: a == Fraction(14, 74), "That is knowing nothing. The 3 cards you remember are not among "
                                                "the unknown ones: how many unknown cards are left?"),
           Hint(lambda a: a == Fraction(11, 71), "The remembered cards are not Elephants, so all 14 Elephants are "
                                                "still unknown.")],
    general_hint="Unknown cards = 74 − 3. Elephants among them: all of them."))


def _break_even() -> Fraction:
    p = Fraction(_w().match_count(_id_of("TAM"), "animal"), _others())
    return p / 2


register(Exercise(
    "02.break-even", "Identifying now succeeds with p = 14/74 and wins 2 cards. Reveal another wins 4 cards when "
                     "both identifications succeed. Above which value of p1·p2 is Reveal another better?",
    _break_even,
    hints=[Hint(lambda a: a == Fraction(14, 74), "Compare expected cards: 4·p1·p2 against 2·p. Solve for p1·p2."),
           Hint(lambda a: a == Fraction(14, 37), "4·p1·p2 > 2·p means p1·p2 > p/2, not 2p.")],
    general_hint="Expected cards: identify now 2·p; reveal another 4·p1·p2. When is the second bigger?"))
