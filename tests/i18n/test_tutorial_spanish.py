"""Issue 30: the Rules tutorials in Spanish, the class records' quiz answers kept in English."""
from __future__ import annotations

from safari_kit.core.i18n import language


def test_a_spanish_learner_reads_the_tutorial_in_spanish_and_the_records_keep_english_answers():
    from safari_kit.widgets.labs import RulesTutorial

    with language("es"):
        lab = RulesTutorial("knockout")
    records = []
    lab.record = lambda kind, **fields: records.append((kind, fields))
    assert lab.next_button.description == "Siguiente" and lab.reset_button.description == "Empezar de nuevo"
    assert "Paso 1 de" in lab.counter.value and "Ronda 1: el reparto" in lab.step_title.value
    while lab.question is None:
        lab.next_button.click()
    assert "¿Qué pasa después?" in lab.quiz_text.value
    choices = [b.description for b in lab.quiz_buttons if b.layout.display != "none"]
    assert choices == ["No: puede jugar cualquier carta", "Sí: una carta más alta, si la tiene"]
    lab.answer(0)
    assert records == [("quiz_answer", {"question": "knockout-q1", "answer": "No: any card may be played",
                                        "correct": True})]
    assert lab.status.value and "¡Correcto!" in lab.status.value
    lab.next_button.click()
    assert "El jugador 1 ve tu carta" in lab.explanation.value
    assert not lab.errors, lab.errors


def test_the_witness_tutorial_names_cards_in_spanish():
    from safari_kit.tutorial.tutorials import witness_script

    script = witness_script()  # cached: the cards' words are said in the language of the moment
    with language("es"):
        spanish = script.explain(0)
    english = script.explain(0)
    assert "Tu pista es la carta " in spanish and ", se llama " in spanish
    assert english.endswith("named TOM) (W3).") and "Your clue is the " in english
