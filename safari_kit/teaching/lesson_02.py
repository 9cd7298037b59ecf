"""Lesson 02 (identification): answers and hints of its exercises.

The questions are in notebooks/02-identification.md. The running example is the
first clear TAM card (an Elephant) as the clue; every answer is computed from
the deck, with :mod:`safari_kit.probability.witness` where it helps, never
typed in.
"""
from __future__ import annotations

from fractions import Fraction

from safari_kit.teaching import deck
from safari_kit.teaching.exercises import Exercise, Hint, register


def _w():
    from safari_kit.probability import witness as W

    return W


def _others() -> int:
    """The cards that may lie face down: all but the clue card."""
    return len(deck.witness()) - 1


def _share_count(card_id: str, clue_type: str) -> int:
    from safari_kit.cards.names import shared_names

    cards = deck.witness()
    me = next(c for c in cards if c.id == card_id)
    if clue_type == "name":
        return sum(1 for c in cards if c.id != me.id and shared_names(c.name, me.name))
    return sum(1 for c in cards if c.id != me.id and getattr(c, clue_type) == getattr(me, clue_type))


def _name_p(name: str) -> Fraction:
    return Fraction(_w().match_count(deck.first_named(name), "name"), _others())


register(Exercise(
    "02.animal", lambda: Fraction(_share_count(deck.first_named("TAM"), "animal"), _others()),
    hints=[Hint(lambda a: a == Fraction(1, 5),
                "1/5 is right for a card before any card is seen. The clue card is out of the pool now: "
                "how many cards are left, and how many of them share its animal?"),
           Hint(lambda a: a == Fraction(15, 74), "The clue card itself is one of the 15; it cannot be face down too.")],
    general_hint="Count the cards that are still possible (all but the clue card) and those sharing its animal."))

register(Exercise(
    "02.tam-name", lambda: Fraction(_share_count(deck.first_named("TAM"), "name"), _others()),
    hints=[Hint(lambda a: a == Fraction(9, 74), "Don't forget the ink cards whose hidden letters could spell TAM."),
           Hint(lambda a: a == Fraction(10, 74), "The clue card is one of the 10 TAMs, so it is not in the pool.")],
    general_hint="Count the other TAMs, then add each ink card whose pattern matches TAM."))

register(Exercise(
    "02.kris-name", lambda: _name_p("KRIS"),
    hints=[Hint(lambda a: a == Fraction(10, 74), "The clue card is one of the 10 KRIS cards, so it is not face down."),
           Hint(lambda a: a == Fraction(12, 74),
                "Which ink names could spell KRIS? A name with three letters never can.")],
    general_hint="Count the other KRIS cards, then the ink cards whose pattern has the right length and letters."))

register(Exercise(
    "02.ink-name", lambda: _name_p("??M"),
    hints=[Hint(lambda a: a == Fraction(1, 74),
                "??M could be any three-letter name ending in M: which names are those?"),
           Hint(lambda a: a == Fraction(30, 74),
                "Don't forget the other ink cards: T?M and ?AM could also end in M.")],
    general_hint="List the names ??M could be (TAM, TOM, SAM, KIM), count those cards, "
                 "then add the matching ink cards."))


def _alex_pair() -> Fraction:
    return Fraction(_w().match_count(deck.first_named("TAM"), ("animal", "color")), _others())


register(Exercise(
    "02.alex-pair", _alex_pair,
    hints=[Hint(lambda a: a == Fraction(28, 74), "14 + 14 counts twice the cards with the same animal AND color: "
                                                "subtract them (inclusion–exclusion)."),
           Hint(lambda a: a == Fraction(14, 74), "A pair matches when EITHER type matches: more cards than one type.")],
    general_hint="|A ∪ C| = |A| + |C| − |A ∩ C|: count the cards sharing the animal, the color, and both."))


def _memory() -> Fraction:
    # 3 face-down cards remembered, none shares the clue's animal: they leave the pool, the 14 matches stay
    return Fraction(_w().match_count(deck.first_named("TAM"), "animal"), _others() - 3)


register(Exercise(
    "02.memory", _memory,
    hints=[Hint(lambda a: a == Fraction(14, 74), "That is knowing nothing. The 3 cards you remember are not among "
                                                "the unknown ones: how many unknown cards are left?"),
           Hint(lambda a: a == Fraction(11, 71), "The remembered cards are not Elephants, so all 14 Elephants are "
                                                "still unknown.")],
    general_hint="Unknown cards = 74 − 3. Elephants among them: all of them."))


def _break_even() -> Fraction:
    p = Fraction(_w().match_count(deck.first_named("TAM"), "animal"), _others())
    return p / 2


register(Exercise(
    "02.break-even", _break_even,
    hints=[Hint(lambda a: a == Fraction(14, 74),
                "Compare expected cards: 4·P(both) against 2·p. Solve for P(both)."),
           Hint(lambda a: a == Fraction(14, 37), "4·P(both) > 2·p means P(both) > p/2, not 2p.")],
    general_hint="Expected cards: identify now 2·p; reveal another 4·P(both succeed). When is the second bigger?"))
