"""Issue 30: a lab speaks the language it was built in, in its callbacks too, whatever context runs them.

ipykernel runs a click's callback in its own context, not in the one that built the lab; a lab remembers its
learner's language (``lab.language``) and switches to it in each callback (``guarded``/``in_own_language``).
"""
from __future__ import annotations

from safari_kit.core.i18n import language
from safari_kit.widgets.labs.base import Lab, guarded


class _Broken(Lab):
    title = "Broken"

    def _reset(self) -> None:
        pass

    @guarded
    def click(self) -> None:
        raise RuntimeError("boom")


def test_a_lab_built_in_spanish_speaks_spanish_in_callbacks_run_outside_that_language():
    with language("es"):
        lab = _Broken(seed=3)
    assert lab.language == "es"
    assert (lab.reset_button.description, lab.seed_box.description) == ("Reiniciar", "Semilla")
    lab.click()  # the kernel's context: English
    assert "Algo ha fallado (RuntimeError: boom)" in lab.status.value and "Reiniciar" in lab.status.value


def test_an_english_lab_is_unchanged_beside_a_spanish_one():
    with language("es"):
        spanish = _Broken(seed=3, fair=True)
    english = _Broken(seed=3, fair=True)
    english.click()
    assert english.reset_button.description == "Reset"
    assert english.status.value.endswith(
        ">Something went wrong (RuntimeError: boom). Press Reset to start again.</div>")
    assert "Class seed 3: everyone using this seed has the same deal. Anyone who knows" in english.deal_note.value
    assert "Semilla de clase 3: todos" in spanish.deal_note.value


def test_the_identification_lab_in_spanish_writes_decimal_commas_and_reads_them():
    import re

    from safari_kit.widgets.labs import IdentificationLab

    with language("es"):
        lab = IdentificationLab(seed=5, players=3)
    assert lab.identify_button.description == "Identificar" and lab.guess_box.placeholder == "p. ej. 0,25 o 13/70"
    lab.identify_button.click()  # callbacks run outside the language: the lab switches itself
    lab.table.click = {"kind": "place", "id": lab.state.available_places()[-1], "seq": 1}
    assert re.search(r"[≈=] 0,\d", lab.prob.value) and not re.search(r"[≈=] 0\.\d", lab.prob.value), lab.prob.value
    lab.guess_box.value = "0,3"
    lab.reveal_button.click()
    assert lab.predictions and lab.predictions[-1].guess == 0.3, lab.status.value
    assert "La probabilidad exacta era" in lab.status.value and not lab.errors
