"""Issue 30: the lessons' checks answer a Spanish learner in Spanish, and read what a Spanish learner types.

The exercises' hints are written once, in English, in the lessons' modules (``N_("...")``); ``check()`` says
them in the learner's language. Every hint must be in the Spanish catalogue (a new hint that is not marked, or
not translated, fails here by its exercise key).
"""
from __future__ import annotations

import re

from safari_kit.core.i18n import _, language
from safari_kit.teaching.exercises import check, exercises


def test_a_spanish_learner_is_answered_in_spanish_and_may_type_a_decimal_comma():
    with language("es"):
        assert check("02.animal", "0,189").text.startswith("¡Correcto! Como fracción exacta es 7/37.")
        assert check("02.animal", "14/74").text == "¡Correcto! "
        assert check("02.animal", ...).text.startswith("Escribe tu respuesta en lugar de los ...")
        wrong = check("01.owl", "1/15").text
        assert wrong == "Todavía no. Cuenta los búhos (Owl) y divide entre el número de TODAS las cartas.", wrong
        assert check("01.owl", "dos").text.startswith("No entiendo 'dos' como un número")


def test_english_feedback_is_unchanged():
    assert check("02.animal", "0.189").text == "Correct! As an exact fraction it is 7/37."
    assert check("01.owl", "1/15").text == "Not yet. Count the Owls, then divide by the number of ALL cards."


def test_every_hint_of_every_exercise_is_in_the_spanish_catalogue():
    untranslated = []
    with language("es"):
        for key, exercise in sorted(exercises().items()):
            for text in [h.text for h in exercise.hints] + [exercise.general_hint]:
                if callable(text):  # a hint written when said (it names words said elsewhere)
                    with language("en"):
                        english = text()
                    if text() == english:
                        untranslated.append(f"{key}: {english[:70]!r}")
                elif _(text) == text and re.search(r"[A-Za-z]{3,}", text):  # a formula reads the same in Spanish
                    untranslated.append(f"{key}: {text[:70]!r}")
    assert not untranslated, "hints not in the Spanish catalogue (mark them N_(), then tools/i18n.py all):\n" + \
        "\n".join(untranslated)


def test_the_best_item_hint_names_the_data_items_as_the_labs_do():
    """Lesson 04's best-item hint gave a Spanish learner English examples ("weight", "top speed"): it names the
    data items as the Knockout lab writes them in the learner's language, and each name it gives is accepted; it never
    gives the answer as its example (it once said "top speed", the Impala's best item)."""
    from safari_kit.teaching.exercises import exercises as all_exercises

    for lang, names, not_there in (("es", ("Peso", "Esperanza de vida"), ("weight", "lifespan")),
                                   ("en", ("Weight", "Lifespan"), ())):
        with language(lang):
            text = check("04.best-item", "nope").text
            quoted = re.findall(r'"([^"]+)"', text)
            assert tuple(quoted) == names, text
            assert not [w for w in not_there if w in text.lower()], text
            compare = all_exercises()["04.best-item"].compare
            assert compare(quoted[1], "lifespan_years") and compare(quoted[0], "weight_kg")
            answer = all_exercises()["04.best-item"].answer()
            assert not [q for q in quoted if compare(q, answer)], f"the hint gives the answer {answer!r}: {text}"
