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


def test_the_chooser_speaks_the_pages_language_and_the_learner_may_pick_another(monkeypatch):
    """Issue 30, the language choice: ?lang=es in the page's address (Voilà's $QUERY_STRING), else the class's
    $SAFARI_KIT_LANG, else the browser's Accept-Language (Voilà's http_header_envs); the chooser's list changes it."""
    from safari_kit.widgets.app import LabChooser, page_language

    for name in ("QUERY_STRING", "HTTP_ACCEPT_LANGUAGE", "SAFARI_KIT_LANG"):
        monkeypatch.delenv(name, raising=False)
    assert page_language() == "en"
    monkeypatch.setenv("HTTP_ACCEPT_LANGUAGE", "es-AR,es;q=0.9,en;q=0.8")
    assert page_language() == "es"
    monkeypatch.setenv("SAFARI_KIT_LANG", "en")  # the teacher's class language wins over the browser's
    assert page_language() == "en"
    monkeypatch.setenv("QUERY_STRING", "lang=es&x=1")  # the address wins over both
    assert page_language() == "es"
    monkeypatch.setenv("QUERY_STRING", "lang=" + "x" * 5000)  # nothing the page sends is trusted
    assert page_language() == "en" and page_language("es") == "es"

    chooser = LabChooser(seed=4, lang="es")
    assert chooser.open_button.description == "Abrir laboratorio"
    assert [label for label, _v in chooser.language_list.options] == ["English", "Español"]
    shown = chooser.widget
    chooser.language_list.value = "en"
    assert chooser.widget is shown and chooser.open_button.description == "Open lab"
    assert chooser.open_button in shown.children[1].children  # the page's widget shows the new words
    chooser.language_list.value = "es"
    lab = chooser.open("Safari Witness", "Identification")
    assert lab.language == "es" and lab.identify_button.description == "Identificar"
    chooser.language_list.value = "en"  # a lab is open: it keeps its words, the next one speaks English
    assert lab.identify_button.description == "Identificar"
    assert chooser.open("Safari Witness", "Identification").identify_button.description == "Identify"


def test_make_apps_voila_passes_the_browsers_languages_to_the_kernel():
    """voila.json (make app): Voilà gives the kernel the page's Accept-Language as $HTTP_ACCEPT_LANGUAGE
    (VoilaConfiguration.http_header_envs, Voilà >= 0.5), which page_language reads."""
    import json
    from pathlib import Path

    from safari_kit.widgets.app import ACCEPT_LANGUAGE_ENV

    config = json.loads((Path(__file__).resolve().parents[2] / "voila.json").read_text(encoding="utf-8"))
    headers = config["VoilaConfiguration"]["http_header_envs"]
    assert ["HTTP_" + h.upper().replace("-", "_") for h in headers] == [ACCEPT_LANGUAGE_ENV]


def test_a_new_game_button_that_calls_reset_straight_speaks_the_labs_language():
    """The Full game's New game calls lab.reset from the click: reset itself switches to the lab's language."""
    from safari_kit.widgets.labs import FullGameLab

    with language("es"):
        lab = FullGameLab(seed=4, players=3)
    assert lab.new_button.description == "Partida nueva"
    lab.new_button.click()  # outside any language: the kernel's English
    assert lab.live.text.startswith("Partida nueva: 3 jugadores."), lab.live.text
