"""Lesson 01 · Meet the cards: the numbers its prose states, each tied to the kit's computation."""
from __future__ import annotations

from fractions import Fraction

from .common import _animals, _count, _deck, _n_witness, _owl, _per_element
from .core import Fact, Given


def _n_pals() -> int:
    return len(_deck().knockout())


def _could_be(name: str) -> int:
    from safari_kit.cards.names import possible_names

    return _count(lambda c: name in possible_names(c.name))


def _ink_fitting(name: str) -> int:
    from safari_kit.cards.names import is_ink, possible_names

    return _count(lambda c: is_ink(c.name) and name in possible_names(c.name))


def _owl_pink_count() -> int:
    return _count(lambda c: c.animal == "Owl" and c.color == "Pink")



FACTS: tuple[Fact, ...] = (
    Fact("01", "Safari Witness uses {} Mugshots", lambda: (_n_witness(),)),
    Fact("01", "Safari Knockout uses {} Safari Pals", lambda: (_n_pals(),)),
    Fact("01", "Shuffle the {} Mugshots and draw one", lambda: (_n_witness(),)),
    Fact("01", "How many of the {} Mugshots could carry the name TAM?", lambda: (_n_witness(),)),
    Fact("01", "a balanced design: {} of each element, the same number in every pair cell", lambda: (_per_element(),)),
    Fact("01", 'P(Owl) = {} (dividing by the Owls instead of the deck) or "{} because {} animals"',
         lambda: (Fraction(1, _per_element()), _owl(), _animals())),
    Fact("01", "P(Owl and Pink) = {} + {} (adding for AND), or {}/{} (dividing by the Owls",
         lambda: (_owl(), Fraction(_per_element(), _n_witness()), _owl_pink_count(), _per_element())),
    Fact("01", "TAM count {}: forgetting the ink cards; {} or {}: missing two or one of the {} ink patterns that "
               "could read TAM (??M, T?M, ?AM; {} + {} = {})",
         lambda: (_could_be("TAM") - _ink_fitting("TAM"), _could_be("TAM") - 2, _could_be("TAM") - 1,
                  _ink_fitting("TAM"), _could_be("TAM") - _ink_fitting("TAM"), _ink_fitting("TAM"),
                  _could_be("TAM"))),
)

GIVEN: tuple[Given, ...] = (
    Given("01", "(1, 10, 100, 1000 kg)", "powers of ten, the meaning of a log scale"),
    Given("01", "a number from −1 to 1", "the range of a correlation, by definition"),
    Given("01", "Near 1: when one goes up, the other goes up too. Near 0: no straight-line link",
          "what a correlation's values mean, by definition"),
    Given("01", "answers that: (1000) = 3, because 1000 is ten times ten times ten", "log10(1000) = 3, arithmetic"),
    Given("01", "(or ranks: 1st, 2nd, 3rd …)", "the names of ranks"),
)
