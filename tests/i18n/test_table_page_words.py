"""Issue 30: the card table's own words (table.js) come from the catalogue, in the learner's language.

A Spanish playthrough found the anywidget's words in English ("Round 1 of 7", "You (player 0) 0 pts", "PLAYED
THIS TURN", "Name a data item:", "UNIDENTIFIED AREA", "Place 3", "YOUR ARCHIVE", "empty", "Deck 68 cards"...):
table.js wrote them itself. Now Python sends them in the synced ``words`` dict
(:func:`safari_kit.presentation.table_page_words.table_words_for`), with the plural forms of its counts chosen by
gettext, and table.js keeps no sentence of its own.

- in the pseudo-locale every word the table is sent is transformed (none was left unmarked);
- in Spanish none is the English one;
- table.js holds none of the old English strings (``OLD_ENGLISH``, also read by the browser test);
- the words say nothing of a hidden card; the table's own answers to a click speak the table's language.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from safari_kit.core.i18n import language
from tests.i18n.visible import SYMBOLS, data_words, english_words

TABLE_JS = Path(__file__).resolve().parents[2] / "safari_kit" / "widgets" / "static" / "table.js"

#: what table.js wrote in English before issue 30 (the words a learner read or heard on the table)
OLD_ENGLISH = (
    "Round ${v.round} of", "You (player", "`Player ${", " pts`", '"to play"', '}, "lead")', '}, "dealer")', '}, "out")',
    "★ winner", "Played this turn", "No card played yet this turn.", "no card played yet", "Name a data item:",
    "Unidentified Area", "`Place ${", "Place ${p.place}, face", "Your Archive", "Archive ·", '}, "empty")', '"Deck"',
    "card${", "Won → archive", "Already on your archive", "ALEX is on top of the archive", "Remember these",
    "turn failed", "Abilities earned", "You may still use", "Your Case Card", "Case Cards:", "Clue type:",
    '"Abilities:"', "Named: ", "Elimination rule on", "played ${", "just finished", "won by", "★ won the turn",
    "You are out.", "No cards in hand.", "Your hand", "Turns this round", "Earlier rounds", "Each step along this bar",
    "Weight bar:", "Face-down card", "Not clickable right now.", "Nothing on the table yet.", "arrow keys move",
    "could not be drawn", "✔ identified", "⚔ challenged", '}, "top")', "all ${", '"Clue Area"', '"You"',
    "The deck: face-down cards",
)
ALLOWED = data_words() | SYMBOLS


def _code(js: str) -> str:
    """table.js without its comments (they describe the cards in English, for programmers)."""
    return "\n".join(line.split("//")[0] if not line.lstrip().startswith("//") else "" for line in js.splitlines())


def test_table_js_keeps_no_english_sentence():
    code = _code(TABLE_JS.read_text(encoding="utf-8"))
    left = [old for old in OLD_ENGLISH if old in code]
    assert not left, f"table.js still writes these English words itself: {left}"
    assert 'model.get("words")' in code  # it reads them from Python


def _strings(value, where: str = "words"):
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{where}.{k}")


def _played_tables(lang: str):
    """Tables of both games shown at many moments (face-up banners, abilities, turns just finished, game end),
    built and played in ``lang``; yields each table after each redraw."""
    from safari_kit.knockout import KnockoutGame
    from safari_kit.widgets.table import CardTable
    from safari_kit.witness import WitnessGame

    rng = random.Random(7)
    with language(lang):
        for game in (WitnessGame(players=3, advanced=True), WitnessGame(players=2, case_module=True)):
            state = game.new_initial_state(seed=11)
            table = CardTable.for_witness(state, viewer=0)
            for _ in range(400):
                if state.is_terminal():
                    break
                state.apply(rng.choice(state.legal_actions()))
                table.show(state, viewer=0)
                yield table
        for elimination in (False, True):
            state = KnockoutGame(players=3, elimination=elimination).new_initial_state(seed=5)
            table = CardTable.for_knockout(state, viewer=1)
            for _ in range(300):
                if state.is_terminal():
                    break
                state.apply(rng.choice(state.legal_actions()))
                table.show(state, viewer=1)
                yield table


def test_pseudo_locale_transforms_every_word_the_table_is_sent():
    left: dict[str, str] = {}
    keys: set[str] = set()
    for table in _played_tables("en_XA"):
        for where, text in _strings(table.words):
            keys.add(where.split(".")[1])
            if english_words(text, ALLOWED):
                left.setdefault(text, where)
    assert {"remember", "abilities_line", "counts"} <= keys, keys  # the count-bound sentences were met too
    assert not left, f"words sent to the table that no catalogue string made: {left}"


def test_spanish_table_words_are_not_the_english_ones():
    from safari_kit.presentation.table_page_words import table_words_for

    same = []
    for table in _played_tables("es"):
        with language("en"):
            english = dict(_strings(table_words_for(table.view)))
        for where, text in _strings(table.words):
            if text == english.get(where) and re.search(r"[A-Za-z]{2,}", re.sub(r"\{\w+\}", "", text)):
                same.append((where, text))
    assert not same, f"English words in the Spanish table: {sorted(set(same))[:20]}"


def test_counts_take_the_languages_plural_forms():
    from safari_kit.presentation.table_page_words import table_words_for

    view = {"game": "knockout", "seats": [{"player": 0, "score": 1, "hand_size": 1},
                                          {"player": 1, "score": 2, "hand_size": 7}]}
    with language("es"):
        counts = table_words_for(view)["counts"]
    assert counts == {"cards": {"1": "1 carta", "7": "7 cartas"}, "points": {"1": "1 punto", "2": "2 puntos"}}
    with language("en"):
        counts = table_words_for(dict(view, game="witness", deck_count=68, seats=[]))["counts"]
    assert counts == {"cards": {"68": "68 cards"}, "points": {}}


def test_the_words_say_nothing_of_a_hidden_card():
    from safari_kit.widgets.table import CardTable
    from safari_kit.witness import WitnessGame

    state = WitnessGame(players=3).new_initial_state(seed=2)
    table = CardTable.for_witness(state, viewer=0)
    face_down = [state.card_at[p] for p in state.places if p not in state.face_up]
    hidden = [state.card_id(c) for c in state.deck + face_down]
    sent = json.dumps(table.words)
    assert hidden and not [cid for cid in hidden if re.search(rf"\b{re.escape(str(cid))}\b", sent)]


@pytest.mark.parametrize("click, spanish", [
    ({"kind": "button"}, "No se ha podido leer ese clic. Vuelve a hacer clic."),
    ({"kind": "sofa", "id": 1, "seq": 5}, "Eso no se puede pulsar."),
])
def test_the_tables_own_answers_speak_its_language(click, spanish):
    from safari_kit.widgets.table import CardTable
    from safari_kit.witness import WitnessGame

    with language("es"):
        table = CardTable.for_witness(WitnessGame(players=2).new_initial_state(seed=1), viewer=0)
    table.on_click(lambda target: None)
    table.click = click  # the kernel's context is English: the table answers in the language it was made in
    assert table.message == spanish


def test_a_view_set_by_a_lab_gets_its_words():
    """The Knockout lab sets ``table.view`` itself at a round's end: its counts get their words too."""
    from safari_kit.knockout import KnockoutGame
    from safari_kit.widgets.table import CardTable

    with language("es"):
        table = CardTable.for_knockout(KnockoutGame(players=3).new_initial_state(seed=1), viewer=0)
    seats = [dict(seat, hand_size=n, score=n) for seat, n in zip(table.view["seats"], (0, 1, 3))]
    table.view = dict(table.view, seats=seats)
    assert table.words["counts"] == {"cards": {"0": "0 cartas", "1": "1 carta", "3": "3 cartas"},
                                     "points": {"0": "0 puntos", "1": "1 punto", "3": "3 puntos"}}


#: the seat badges: the learner's own seat ("Tú") has its own words, the verb in the second person
SEAT_BADGES = ("to_play", "lead", "dealer", "winner", "out")


@pytest.mark.parametrize("lang, others, yours", [
    ("es", ("le toca", "empieza", "reparte", "★ gana", "fuera"),
     ("te toca", "empiezas", "repartes", "★ ganas", "fuera")),
    ("en", ("to play", "lead", "dealer", "★ winner", "out"), ("to play", "lead", "dealer", "★ winner", "out")),
])
def test_the_learners_own_seat_badges_speak_to_the_learner(lang, others, yours):
    """A Spanish learner read "Tú (jugador 0) ... le toca / empieza" (third person) on their own seat: the badges
    beside the learner's seat are their own messages ("te toca", "empiezas"); English says the same words."""
    from safari_kit.presentation.table_page_words import table_words_for

    with language(lang):
        words = table_words_for({"game": "knockout", "seats": []})
    assert tuple(words[k] for k in SEAT_BADGES) == others
    assert tuple(words[f"you_{k}"] for k in SEAT_BADGES) == yours


def test_table_js_gives_the_learners_seat_its_own_badges():
    """Every seat badge goes through badge(seat, key), which says ``you_<key>`` on the learner's seat."""
    code = _code(TABLE_JS.read_text(encoding="utf-8"))
    direct = re.findall(r'say\("(?:%s)"\)' % "|".join(SEAT_BADGES), code)
    assert not direct, f"table.js says a seat badge without asking whose seat it is: {direct}"
    assert 'say("you_" + key)' in code and code.count("badge(a, ") == 2 and code.count("badge(p, ") == 5
