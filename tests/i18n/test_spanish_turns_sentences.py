"""Issue 30: the sentences the Spanish browser turns wait for are the catalogue's, and the patterns tell Spanish
from English (browser-free: the walk itself is tests/browser/test_pseudo_locale_browser.py, a minute of Voilà).

tests/browser/spanish_turns.py reads every expected sentence from the Spanish catalogue (never written Spanish);
if a msgid it names left the catalogue (the kit reworded the English), the browser test would only time out on
that lab. Here, in a second: every sentence is translated, its pattern matches the Spanish sentence the kit
writes (fields filled in) and not the English one, and a chance counts as Spanish only with a decimal comma.
"""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

from safari_kit.core.i18n import language
from safari_kit.presentation.numbers import count_first, decimal, whole
from tests.browser.spanish_turns import NUMBER_FIELDS, SAID, TurnProblem, es, sentence, spanish_numbers

ALL = [(kind, m) for kind, messages in SAID.items() for m in messages]


def _filled(template: str) -> str:
    """``template`` with its fields filled as a page would show them (HTML tags left out, as innerText)."""
    text = re.sub(r"<[^>]+>", "", template)
    return re.sub(r"\{(\w+)\}", lambda m: "12" if m[1] in NUMBER_FIELDS else f"Oso, Violeta: {m[1]} 3", text)


@pytest.mark.parametrize(("kind", "message"), ALL, ids=[f"{k}-{i}" for i, (k, _) in enumerate(ALL)])
def test_each_sentence_is_translated_and_its_pattern_is_spanish_only(kind, message):
    assert es(message) != message, f"{kind}: {message!r} is not in the Spanish catalogue"
    pattern = sentence(message)
    assert pattern.search(_filled(es(message))), (kind, pattern.pattern)
    assert not pattern.search(_filled(message)), f"{kind}: the English sentence passes for Spanish"


def test_a_field_stays_on_its_line_and_a_number_field_is_a_number():
    step = sentence(*SAID["step"])
    assert step.search(es("Step {k} of {n}").format(k=4, n=20))
    assert not step.search("Paso 4: Archivar en tu orden y rellenar\nRonda 1 de 7"), "a step counter found in a panel"
    not_safe = es(SAID["challenge"][0])
    assert sentence(SAID["challenge"][0]).search(not_safe.format(place=3, card="Oso"))
    assert not sentence(SAID["challenge"][0]).search(not_safe.format(place=3, card="\nOso")), "a field ran on"


def test_a_named_field_must_be_those_words():
    declared = "{who} declared {types} at place {place}: {card} — {outcome}."
    mine = sentence(declared, who=es("You"))
    assert mine.search(es(declared).format(who=es("You"), types="Nombre", place=1, card="Oso", outcome="acierto"))
    with language("es"):
        player_1 = es("Player {player}").format(player=1)
    assert not mine.search(es(declared).format(who=player_1, types="Nombre", place=1, card="Oso",
                                               outcome="acierto")), "a bot's line passes for the learner's"


def test_a_sentence_missing_from_the_catalogue_is_named():
    with pytest.raises(TurnProblem, match="not in the Spanish catalogue: 'Nobody wrote this sentence'"):
        sentence("Nobody wrote this sentence")


def test_chances_with_a_decimal_comma_only():
    with language("es"):
        spanish = f"{count_first(Fraction(7, 37), (14, 74))}; {decimal(0.1234, 4)}"
        big = whole(10_000)
    assert "0,189" in spanish and big == "10.000"
    assert spanish_numbers(spanish + " " + big, "here") == []  # a grouped whole number is no decimal point
    assert spanish_numbers("14/74 ≈ 0.189", "the result")[0].startswith("the result: no chance written")
    mixed = spanish_numbers("0,189 and 0.189", "the table")
    assert len(mixed) == 1 and "decimal point ['0.189']" in mixed[0]
    # a sure next reveal (1) beside exact chances in one decimal (2/5 = 0,4): failed a full run of session 13
    with language("es"):
        exact = count_first(Fraction(2, 5), (26, 65))
    assert exact.endswith("0,4")
    assert spanish_numbers(f"Probabilidad de que la siguiente sea segura: 1. Revelar 2 más: {exact}", "here") == []
    assert spanish_numbers("2/5 = 0.4", "the result")[0].startswith("the result: no chance written")
