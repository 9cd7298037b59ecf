"""The Spanish lessons' numbers (``notebooks/es/NN-*.md``), each tied to the *same* computation as the English.

A Spanish fact does not compute anything itself: it names the English fact (by its English wording, in
``facts/lesson_NN.py``) and gives the Spanish wording. Its numbers are that fact's numbers written as a
Spanish reader writes them (:func:`spanish`: 0,189; 18,9 %). So when the deck or a rule changes, the English
and the Spanish text fail together; and a Spanish number that no English fact computes is reported like an
English one. Numbers that are a choice, not a result, are :class:`~tests.notebooks.facts.core.Given` here too.

The structural numbers of a Spanish text (headings, "lección 02", "semilla 7", "Tiempo (unos 20 min)") are
left out by the Spanish patterns below, as :mod:`..core` leaves out the English ones.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from ..core import Fact, Given, _plain, check_facts, facts_of, prose

__all__ = ["Traduccion", "Given", "spanish", "check_text_es", "facts_es", "prose_es"]

BEFORE_ES = [
    r"\$\$.*?\$\$",  # display formulas
    r"^#+ [^\n]*$",  # headings
    r"\bTiempo \(unos \d+ min\)\.[^\n]*(?:\n(?!\n|- )[^\n]*)*",  # timings (teacher notes)
]
AFTER_ES = [
    r"\]\([^)]*\)",  # link targets
    r"\b(?:[Ll]ecci[oó]n(?:es)?|cuaderno|[Ll]a|[Ll]as) 0\d(?:(?:–| y )0\d)?\b",  # "la lección 02", "las 02–03"
    r"\b0\d · ",  # a lesson's name in a link
    r"\b[WK]\d+(?:–[WK]\d+)?\b",  # rulings and card ids
    r"\(unos \d+ minutos\)|unos \d+ minutos",  # timings
    r"\bsemilla \d+\b",  # a seed names a shuffle
    r"\bVariante 1\b",  # a rule's name
    r"\blog10\b|\blog₂",
    r"\basientos? \d\b",
    r"n/\(n\+1\)|\(n\+1\)|\bn ?\+ ?1\b|\bp/2\b|1/√n|p\(1 − p\)",
    r"\btandas? \d+(?! veces)\b",  # a run names a press of Simular (lesson 05)
]

_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")
_PERCENT = re.compile(r"(?<=\d)\s*%")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")


def spanish(value) -> str:
    """A fact's value as the Spanish text writes it: a decimal comma, a space before %, fractions as they are.

    >>> spanish("0.189"), spanish("18.9%"), spanish(Fraction(7, 37)), spanish(75), spanish("1,000"), spanish("10,000")
    ('0,189', '18,9 %', '7/37', '75', '1000', '10.000')
    """
    if isinstance(value, float):
        raise TypeError("format floats in the fact's function (the text's rounding), e.g. f'{x:.3f}'")
    text = str(value)
    if _GROUPED.fullmatch(text):  # an English "1,000" or "10,000": Spanish groups from five digits (10.000)
        n = int(text.replace(",", ""))
        return str(n) if n < 10_000 else f"{n:,}".replace(",", ".")
    return _PERCENT.sub(" %", _DECIMAL_POINT.sub(",", text))


@dataclass(frozen=True)
class Traduccion:
    """The Spanish wording ``text`` of lesson ``lesson``'s English fact worded ``english``: the same numbers."""

    lesson: str
    english: str
    text: str
    #: the English fact's values as the Spanish text says them, where a value is a word ("an Elephant")
    convert: Callable[[tuple], tuple] | None = None

    def source(self) -> Fact:
        found = [f for f in facts_of(self.lesson) if isinstance(f, Fact) and f.text == self.english]
        assert len(found) == 1, f"lesson {self.lesson}: no English fact worded {self.english!r}"
        return found[0]

    def render(self) -> str:
        fact = self.source()
        values = fact.compute()
        if self.convert is not None:
            values = tuple(self.convert(values))
        assert self.text.count("{}") == len(values) == fact.text.count("{}"), (self.text, fact.text)
        return _plain(self.text.format(*(spanish(v) for v in values)))


#: the Spanish article of each Mugshot animal (for a fact that names one: "un elefante", "una cabra")
_FEMININE = {"Goat"}


def animal_es(english: str, article: bool = False) -> str:
    """A Mugshot animal as the Spanish text writes it in a sentence: the card-names data's word, lower case
    ("elefante"); ``article``: with its article ("un elefante"). ``english`` may carry one ("an Elephant")."""
    from safari_kit.core.i18n import language
    from safari_kit.presentation.card_words import element_word

    bare = english.split(" ", 1)[1] if english.startswith(("a ", "an ")) else english
    with language("es"):
        word = element_word("animal", bare).lower()
    return (("una " if bare in _FEMININE else "un ") + word) if article else word


def facts_es(lesson: str) -> list:
    """The Spanish lesson ``lesson``'s facts and givens (``facts/es/lesson_NN.py``)."""
    module = importlib.import_module(f"{__package__}.lesson_{lesson}")
    found = [*module.FACTS, *module.GIVEN]
    assert all(f.lesson == lesson for f in found), f"es/lesson_{lesson}.py holds facts of another lesson"
    return found


def prose_es(text: str) -> str:
    return prose(text, BEFORE_ES, AFTER_ES)


def check_text_es(lesson: str, text: str) -> list[str]:
    """Problems with a Spanish lesson's text: facts it does not say as computed, numbers no fact covers."""
    return check_facts(f"es/{lesson}", prose_es(text), facts_es(lesson))


_ = Fraction  # doctest namespace
