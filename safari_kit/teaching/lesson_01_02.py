"""Exercises of lessons 01 (meet the cards) and 02 (identification): answers computed from the deck."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from safari_kit.teaching.exercises import Exercise, Hint, register


@lru_cache(maxsize=1)
def _witness():
    from safari_kit.cards.load import load_cards

    return load_cards().witness


def _share_count(card_id: str, clue_type: str) -> int:
    from safari_kit.cards.names import shared_names

    cards = _witness()
    me = next(c for c in cards if c.id == card_id)
    if clue_type == "name":
        return sum(1 for c in cards if c.id != me.id and shared_names(c.name, me.name))
    return sum(1 for c in cards if c.id != me.id and getattr(c, clue_type) == getattr(me, clue_type))


def _fraction_of_deck(pred) -> Fraction:
    cards = _witness()
    return Fraction(sum(1 for c in cards if pred(c)), len(cards))


register(Exercise(
    "01.owl", "P(a random Mugshot is an Owl)", lambda: _fraction_of_deck(lambda c: c.animal == "Owl"),
    hints=[Hint(lambda a: a == Fraction(1, 15), "Count the Owls, then divide by the number of ALL cards."),
           Hint(lambda a: float(a) > 1, "A probability is between 0 and 1.")],
    general_hint="How many Owls are there? Use value_counts() on the animal column."))

register(Exercise(
    "01.owl-pink", "P(a random Mugshot is an Owl AND Pink)",
    lambda: _fraction_of_deck(lambda c: c.animal == "Owl" and c.color == "Pink"),
    hints=[Hint(lambda a: a == Fraction(2, 5), "That adds the chances; AND needs both at once. Look at the crosstab cell."),
           Hint(lambda a: a == Fraction(3, 15), "Divide by all the cards in the deck, not only the Owls.")],
    general_hint="Look up the Owl/Pink cell of pd.crosstab(deck.animal, deck.color)."))


def _first_clear(name: str) -> str:
    return next(c.id for c in _witness() if c.name == name)


register(Exercise(
    "02.animal", "A clue card is revealed. P(a face-down card shares its animal), knowing nothing else",
    lambda: Fraction(_share_count(_first_clear("TAM"), "animal"), len(_witness()) - 1),
    hints=[Hint(lambda a: a == Fraction(1, 5), "1/5 is right for a card before any card is seen. The clue card is out of the pool now: how many cards are left, and how many of them share its animal?"),
           Hint(lambda a: a == Fraction(15, 74), "The clue card itself is one of the 15; it cannot be face down too.")],
    general_hint="Count the cards that are still possible (all but the clue card) and those sharing its animal."))

register(Exercise(
    "02.tam-name", "P(a face-down card shares a name with a TAM clue card)",
    lambda: Fraction(_share_count(_first_clear("TAM"), "name"), len(_witness()) - 1),
    hints=[Hint(lambda a: a == Fraction(9, 74), "Don't forget the ink cards whose hidden letters could spell TAM."),
           Hint(lambda a: a == Fraction(10, 74), "The clue card is one of the 10 TAMs, so it is not in the pool.")],
    general_hint="Count the other TAMs, then add each ink card whose pattern matches TAM."))
