"""Issue 30: the learners' rules pages in Spanish (safari_kit/tutorial/learner_rules/witness.es.md, knockout.es.md).

A rules page is a whole document, translated as a page, one file a language. What a program can hold it to:

* the same sections in the same order, each with the same ruling marks and the same pictures (cards and data
  item) as the English page;
* each section keeps the English one's numbers and names (TAM ... ALEX, the ink patterns T?M ...): a ruling says
  exactly what the English text says (../shared/RULINGS.md), so a number changed in translation fails here;
* the Rules tutorial and the app's page show it to a Spanish learner, and the page pointer names the Spanish page;
* the lessons' pages in Spanish (notebooks/es/rules-safari-*.ipynb) say what the Spanish source says, with the
  pictures drawn in Spanish (``knockout-K04.es.png``): ``python -m safari_kit.tutorial.learner_rules.notebook
  --write`` makes them, as it makes the English ones;
* the sentences are short, as the English ones are (a 15-year-old reads them).
"""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from safari_kit.core.i18n import language
from safari_kit.tutorial import learner_rules as LR
from safari_kit.tutorial.learner_rules import notebook

GAMES = sorted(LR.GAMES)
_NUMBER = re.compile(r"(?<![\w?])\d+(?:[.,]\d+)?(?![\w?])")
_NAMES = re.compile(r"(?<![\w?])(?:[A-Z?]{3,4})(?![\w?])")


def _numbers(text: str) -> Counter:
    return Counter(_NUMBER.findall(re.sub(r"^\s*\d+\.\s", "", text, flags=re.M)))


def _names(text: str) -> set[str]:
    return {n for n in _NAMES.findall(text) if "?" in n or n in {"TAM", "TOM", "SAM", "KIM", "KRIS", "ALAN", "ALEX"}}


@pytest.mark.parametrize("game", GAMES)
def test_the_spanish_page_has_the_english_sections_rulings_and_pictures(game):
    en, es = LR.page(game, "en"), LR.page(game, "es")
    assert es.lang == "es" and es.title.startswith("Reglas de ")
    assert [s.rulings for s in es.sections] == [s.rulings for s in en.sections]
    assert [(p.cards, p.item) for p in LR.pictures(game, "es")] == [(p.cards, p.item) for p in LR.pictures(game)]
    assert all(p.lang == "es" for p in LR.pictures(game, "es"))


@pytest.mark.parametrize("game", GAMES)
def test_every_section_keeps_the_english_numbers_and_names(game):
    en, es = LR.page(game, "en"), LR.page(game, "es")
    differ = []
    for where, a, b in [("introduction", en.intro, es.intro),
                        *((s.title, s.body, t.body) for s, t in zip(en.sections, es.sections))]:
        if _numbers(a) != _numbers(b):
            differ.append(f"{where}: numbers {sorted(_numbers(a).elements())} in English, "
                          f"{sorted(_numbers(b).elements())} in Spanish")
        if _names(a) != _names(b):
            differ.append(f"{where}: names {sorted(_names(a))} in English, {sorted(_names(b))} in Spanish")
    assert not differ, "\n".join(differ)


def test_control_a_changed_number_is_found():
    text = LR.source_path("witness", "es").read_text(encoding="utf-8").replace("Hay 75 Mugshots", "Hay 74 Mugshots")
    changed = LR.parse(text, "witness", lang="es")
    assert _numbers(changed.sections[1].body) != _numbers(LR.page("witness", "en").sections[1].body)


def test_a_spanish_learner_reads_the_rulings_and_the_pointer_in_spanish():
    with language("es"):
        assert LR.ruling_markdown("K3", None).startswith("1. Quien **empieza** juega una carta")
        assert "Reglas de Safari Knockout" in LR.page_pointer("K3")
        assert LR.page_pointer("W4").startswith("Todas las reglas")
        assert "lang='es'" in LR.page_html("witness") and "Las cartas" in LR.page_html("witness")
    assert LR.ruling_markdown("K3").startswith("1. The **lead** plays")  # English by default (agreement.py's)
    assert LR.page_language("witness", "de") == "en"  # a language with no page of its own: the English one


def test_the_rules_tutorial_shows_the_spanish_ruling():
    pytest.importorskip("ipywidgets")
    from safari_kit.widgets.labs import RulesTutorial

    with language("es"):
        lab = RulesTutorial("knockout")
    shown = []
    for _step in range(lab.steps):
        shown.append(lab.explanation.value)
        lab.next_button.click()
    text = "\n".join(shown)
    assert "Quien <b>empieza</b> juega una carta" in text and "The <b>lead</b> plays" not in text


@pytest.mark.parametrize("game", GAMES)
def test_the_spanish_lessons_page_says_what_the_source_says(game):
    assert "es" in notebook.page_languages()
    assert notebook.drift(game, lang="es") == ""
    nb = json.loads(notebook.path_of(game, notebook.folder_of("es")).read_text(encoding="utf-8"))
    assert {c["cell_type"] for c in nb["cells"]} == {"markdown"}
    assert notebook.path_of(game, notebook.folder_of("es")).with_suffix(".md").is_file()
    assert nb["cells"][0]["source"][0].startswith("# Reglas de ")


def test_control_a_changed_spanish_sentence_is_drift(tmp_path):
    page = notebook.notebook("witness", "es")
    page["cells"][1]["source"][2] = "Juegan de 2 a 8 jugadores.\n"
    (tmp_path / "rules-safari-witness.ipynb").write_text(json.dumps(page), encoding="utf-8")
    assert "Juegan de 2 a 8" in notebook.drift("witness", tmp_path, lang="es")


@pytest.mark.parametrize("game", GAMES)
def test_the_spanish_pictures_are_drawn_in_spanish(game):
    for picture in LR.pictures(game, "es"):
        assert picture.file_name.endswith(f".es{picture.path.suffix}")
        assert picture.path == LR.PICTURES / picture.file_name and picture.path.is_file(), \
            f"{picture.file_name} is not drawn: run tools/draw_rules_cards.py"


@pytest.mark.parametrize("game", GAMES)
def test_the_spanish_sentences_are_short(game):
    p = LR.page(game, "es")
    text = "\n".join([p.intro, *(s.body for s in p.sections)])
    text = "\n".join(line for line in text.splitlines() if not line.startswith("!["))
    long = [s for s in re.split(r"(?<=[.!?:])\s+", " ".join(text.split())) if len(s.split()) > 30]
    assert not long, long
