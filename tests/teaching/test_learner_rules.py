"""The learners' rules pages (issue 27): one source per game, every ruling in plain words, the same everywhere.

What is checked, with a control for each check that it can fail:

* every ruling docs/rules.md states (W1-W11, K1-K5) has a learner text, and the Rules tutorial's rulings too;
* each learner text agrees with docs/rules.md in substance (:mod:`safari_kit.tutorial.learner_rules.agreement`:
  the numbers both ways, the names, the key facts; its docstring says the limits);
* the lessons' pages ``notebooks/rules-safari-*.ipynb`` say what the source says (generated, then compared),
  have only markdown cells, and show every picture as a ``data:`` image (nothing to run, nothing to copy);
* every picture the sources name is drawn, and the app's page shows them;
* the words are for a 15-year-old: no sentence over 25 words, no code names.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from safari_kit.tutorial import learner_rules as LR
from safari_kit.tutorial import rulebook, tutorials
from safari_kit.tutorial.learner_rules import agreement, notebook

ROOT = Path(__file__).resolve().parents[2]
DOCS_RULINGS = sorted(rulebook._rulings(), key=lambda c: (c[0], int(c[1:])))


def test_docs_state_all_sixteen_rulings():
    assert set(DOCS_RULINGS) == {f"W{i}" for i in range(1, 12)} | {f"K{i}" for i in range(1, 6)}


@pytest.mark.parametrize("code", DOCS_RULINGS)
def test_every_ruling_has_a_learner_text_that_agrees_with_docs(code):
    assert len(LR.ruling_markdown(code).split()) >= 15, code
    found = agreement.problems(code)
    assert not found, "\n".join(found)


def test_no_learner_text_for_a_ruling_the_docs_lack():
    assert agreement.all_problems() == []
    assert set(LR.rulings()) == set(DOCS_RULINGS)


def test_every_ruling_the_tutorial_names_has_a_learner_text():
    for code in tutorials.RULINGS:
        assert LR.ruling_markdown(code) and LR.ruling_html(code).startswith("<"), code


# -- controls: the checks are not vacuous -------------------------------------------------------------------

def test_control_a_missing_learner_text_fails(monkeypatch):
    """A page whose W6 section lost its ruling mark: W6 has no learner text, and the check says so."""
    text = LR.source_path("witness").read_text(encoding="utf-8").replace("<!-- ruling W6 -->\n", "")
    broken = LR.parse(text, "witness")
    monkeypatch.setattr(LR, "rulings", lambda: {c: s for g in ("knockout",) for s in LR.page(g).sections
                                               for c in s.rulings} | {c: s for s in broken.sections
                                                                      for c in s.rulings})
    found = agreement.problems("W6")
    assert found and "no text for ruling 'W6'" in found[0], found
    assert any(p.startswith("W6") or "'W6'" in p for p in agreement.all_problems())


def test_control_a_changed_number_fails_both_ways():
    learner = LR.ruling_markdown("W6")
    assert agreement.problems("W6", learner=learner) == []
    wrong = learner.replace("4", "5")  # the refill's size changed on the learners' page only
    found = agreement.problems("W6", learner=wrong)
    assert any("says 5" in p for p in found) and any("never does" in p for p in found), found
    docs = rulebook.ruling_markdown("W7").replace("10 or more", "12 or more")
    found = agreement.problems("W7", docs=docs)
    assert any("docs/rules.md says 12" in p for p in found), found


def test_control_a_forgotten_name_and_a_reworded_fact_fail():
    learner = LR.ruling_markdown("W4")
    found = agreement.problems("W4", learner=learner.replace("KIM, TAM or ALAN", "a power"))
    assert {"W4: docs/rules.md names KIM, the learner text does not",
            "W4: docs/rules.md names ALAN, the learner text does not"} <= set(found), found
    found = agreement.problems("K3", learner=LR.ruling_markdown("K3").replace("played first", "played last"))
    assert any("card played first wins" in p for p in found), found


# -- the lessons' pages: generated from the source, then compared ----------------------------------------------

@pytest.mark.parametrize("game", list(LR.GAMES))
def test_the_lessons_page_says_what_the_source_says(game):
    assert notebook.drift(game) == "", notebook.drift(game)


@pytest.mark.parametrize("game", list(LR.GAMES))
def test_the_lessons_page_reads_without_running_a_cell(game):
    nb = json.loads(notebook.path_of(game).read_text(encoding="utf-8"))
    assert {c["cell_type"] for c in nb["cells"]} == {"markdown"}
    text = "".join("".join(c["source"]) for c in nb["cells"])
    images = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert len(images) == len(LR.pictures(game)) >= 3
    assert all(src.startswith(("data:image/svg+xml;base64,", "data:image/png;base64,")) for src in images)
    assert "](cards:" not in text and "<!--" not in text  # the source's own marks are not shown


def test_control_a_changed_sentence_in_the_notebook_is_drift(tmp_path):
    shutil.copy(notebook.path_of("knockout"), tmp_path / "rules-safari-knockout.ipynb")
    assert notebook.drift("knockout", tmp_path) == ""
    path = tmp_path / "rules-safari-knockout.ipynb"
    path.write_text(path.read_text(encoding="utf-8").replace("strictly higher", "higher"), encoding="utf-8")
    diff = notebook.drift("knockout", tmp_path)
    assert "-A later card has to be strictly higher to win." in diff and "+A later card has to be higher" in diff


def test_the_pages_are_not_lessons():
    """Named rules-*, not NN-*: the landing page, prose facts and timings count 0N-* lessons only."""
    for name in LR.NOTEBOOKS.values():
        assert not re.match(r"\d", name) and (ROOT / "notebooks" / f"{name}.md").is_file()


# -- pictures ----------------------------------------------------------------------------------------------------

def test_every_picture_is_drawn_and_every_drawing_is_used():
    # every language's page (issue 30: witness.es.md has its own drawings; the pseudo-locale shows the English)
    named = {p.path.name for g in LR.GAMES for lang in LR.languages(g) for p in LR.pictures(g, lang)}
    drawn = {p.name for p in LR.PICTURES.iterdir()}
    assert named == drawn, (named - drawn, drawn - named)


def test_a_picture_written_wrong_names_its_line():
    text = "# Rules of X\n\n## Cards\n<!-- ruling W1 -->\n![a card](card:W21)\n"
    with pytest.raises(LR.RulesTextError, match=r"line 5: expected a picture"):
        LR.parse(text, "witness", "witness.md")


def test_the_apps_page_shows_the_pictures():
    html = LR.page_html("witness")
    assert html.count("<img ") == len(LR.pictures("witness")) and html.count("<figcaption") == html.count("<img ")
    assert "](cards:" not in html and "<!--" not in html


# -- words for a 15-year-old -------------------------------------------------------------------------------------

_CODE_NAMES = re.compile(r"`|\b(?:Use[A-Z]\w+|RevealNext|StopChallenge|TurnFaceDown|ArchiveCard|state\.|"
                         r"full_view|legal|engine|[WK]\d{2}\b)")


def sentences(game: str) -> list[str]:
    """The sentences of a page as a learner reads them (captions included, Markdown marks out)."""
    p = LR.page(game)
    text = "\n\n".join([p.intro, *(s.body for s in p.sections)])
    text = re.sub(r"!\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"^\s*(?:-|\d+\.)\s+", "", text, flags=re.M).replace("*", "")
    out = []
    for block in re.split(r"\n\s*\n", text):
        for line in block.splitlines():
            out.extend(s.strip() for s in re.split(r"(?<=[.!?;])\s+", line) if s.strip())
    return out


@pytest.mark.parametrize("game", list(LR.GAMES))
def test_sentences_are_short_and_free_of_code_names(game):
    said = sentences(game)
    long = [(len(s.split()), s) for s in said if len(s.split()) > 25]
    assert not long, long
    assert not [s for s in said if _CODE_NAMES.search(s)]


@pytest.mark.parametrize("game", list(LR.GAMES))
def test_the_lessons_page_passes_the_lessons_sentence_measure(game):
    """The lessons' measure (safari_kit.authoring.learner_words: what tests/notebooks/test_learner_words.py
    applies to NN-* lessons) on the rules pages too: stricter here, no sentence over 25 words at all."""
    from safari_kit.authoring.learner_words import LONG, measure

    words = measure(notebook.path_of(game))
    assert len(words.sentences) >= 50 and not words.problems(), words.summary()
    assert max(s.words for s in words.sentences) <= LONG, words.summary()


def test_the_learner_texts_state_the_engines_own_numbers():
    """Beyond docs/rules.md: the numbers the engine plays by, read from its constants, are the learners' too."""
    from safari_kit.knockout import rules as KR
    from safari_kit.witness import game as WG
    from safari_kit.witness import rules as WR

    said = {
        "W11": f"You play with {WG.MIN_PLAYERS} to {WG.MAX_PLAYERS} players.",
        "W6": f"When it has fewer than {WR.UNIDENTIFIED_SIZE}, cards from the deck fill it up to "
              f"{WR.UNIDENTIFIED_SIZE}.",
        "W5": f"After {WR.MIN_SAFE} or more safe cards you may",
        "W7": f"a player's archive reaches {WR.ARCHIVE_TO_END} cards or more.",
        "K2": f"You play with {KR.MIN_PLAYERS} to {KR.MAX_PLAYERS} players, sitting in a circle.\nThe game has "
              f"{KR.ROUNDS} rounds.",
    }
    for code, words in said.items():
        assert words in LR.ruling_markdown(code).replace("**", ""), (code, words)
