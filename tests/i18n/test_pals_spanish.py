"""Issue 30: the Safari Pals and their data items in Spanish, in the Knockout lab and its Rules tutorial. The
names come from data/card-names.csv (safari_kit.presentation.card_words); the engine and the records keep
the English names."""
from __future__ import annotations

import itertools
import json

import pytest

pytest.importorskip("ipywidgets")

from safari_kit.cards.card_names import card_names  # noqa: E402
from safari_kit.core.i18n import language  # noqa: E402
from tests.i18n.visible import visible_strings  # noqa: E402

_seq = itertools.count(1)


def _played_knockout_lab(lang: str):
    """A Knockout lab built in ``lang``, with one turn played (an item named, a card played) and Next."""
    from safari_kit.widgets.labs import KnockoutLab

    with language(lang):
        lab = KnockoutLab(seed=3)
    obs = lab.state.observation(lab.learner)
    lab.table.click = {"kind": "item", "id": "weight_kg", "seq": next(_seq)}
    lab.table.click = {"kind": "card", "id": obs.hand[0], "seq": next(_seq)}
    lab.play_button.click()
    assert not lab.errors, lab.errors
    return lab, obs.hand


def _english_pal_names_in(texts) -> list[str]:
    names = card_names()
    english = [p for p in (c.name for c in _deck()) if names.word("pal", p, "es") != p]
    return sorted({p for text in texts for p in english if p in text})


def _deck():
    from safari_kit.cards.load import load_cards

    return load_cards().knockout


def test_the_knockout_labs_synced_state_names_every_pal_and_item_in_spanish():
    lab, hand = _played_knockout_lab("es")
    names = card_names()
    state = json.dumps(lab.table.view, ensure_ascii=False)
    shown = [text for _where, text in visible_strings(lab)]
    for cid in hand:
        spanish = names.word("pal", lab.game.by_id[cid].name, "es")
        assert spanish in state and any(spanish in text for text in shown), spanish
    assert _english_pal_names_in([*shown, state, str(lab.table.message)]) == []
    items = {it["id"]: it["long_label"] for it in lab.table.view["items"]}
    assert items == {"weight_kg": "Peso (kg)", "size_cm": "Tamaño (cm)", "top_speed_kmh": "Velocidad máxima (km/h)",
                     "lifespan_years": "Esperanza de vida (años)"}
    # numbers as a Spanish reader writes them: 0,73 and 4500 (Spanish groups digits from 10.000)
    ranges = {it["id"]: it["range_text"] for it in lab.table.view["items"]}
    assert ranges["weight_kg"] == "0,73–4500 kg" and ranges["top_speed_kmh"] == "0,3–112 km/h"
    assert not any("," in t and "kg" in t and "2,000" in t for t in shown)
    # the engine and the record keep the English names (the class's tables read them)
    assert all(lab.game.by_id[c].name == p.name for c, p in ((p.id, p) for p in _deck()))


def test_the_english_lab_is_unchanged():
    lab, hand = _played_knockout_lab("en")
    state = json.dumps(lab.table.view, ensure_ascii=False)
    for cid in hand:
        assert json.dumps(lab.game.by_id[cid].name) in state
    ranges = {it["id"]: it["range_text"] for it in lab.table.view["items"]}
    assert ranges["weight_kg"] == "0.73–4,500 kg"


def test_the_knockout_rules_tutorial_names_its_pals_in_spanish():
    from safari_kit.widgets.labs import RulesTutorial

    with language("es"):
        lab = RulesTutorial("knockout")
    lab.use_recorder(None)
    shown: list[str] = []
    for _k in range(lab.steps):
        shown += [text for _where, text in visible_strings(lab)]
        lab.next_button.click()
    assert _english_pal_names_in(shown) == []
    spanish = {card_names().word("pal", p.name, "es") for p in _deck()}
    assert sum(any(name in text for text in shown) for name in spanish) >= 10


# ---------------------------------------------------------------------------------------- the Mugshots' elements
_ELEMENT_WORDS = ("Elephant", "Owl", "Bear", "Goat", "Pig", "Brick", "Wood", "Circular Tile", "Diamond Tile",
                  "Wavy", "Teal", "Yellow", "Orange", "Pink", "Violet")


def _english_elements_in(strings) -> list[tuple[str, str]]:
    """English element words in what a learner reads, but the card faces' keys (``.animal``: the picture's)."""
    import re

    found = []
    for where, text in strings:
        if re.search(r"\.cards\.[A-Z]\d+\.(animal|texture|color)$", where):
            continue
        found += [(where, w) for w in _ELEMENT_WORDS if re.search(rf"\b{w}\b", text)]
    return found


def test_the_identification_labs_cards_and_sentences_name_the_elements_in_spanish():
    from safari_kit.widgets.labs import IdentificationLab

    with language("es"):
        lab = IdentificationLab(seed=3)
    lab.reveal_button.click()
    strings = visible_strings(lab)
    assert _english_elements_in(strings) == []
    faces = [f for f in lab.table.view["cards"].values() if isinstance(f, dict) and "words" in f]
    assert faces, "no face-up Mugshot"
    names = card_names()
    for face in faces:  # the picture's keys stay English, the words drawn on it are Spanish
        assert face["words"] == {k: names.word(k, face[k], "es") for k in ("color", "texture", "animal")}
        assert face["words"]["animal"] in face["label"]


def test_in_english_a_cards_words_are_its_keys():
    from safari_kit.widgets.labs import IdentificationLab

    lab = IdentificationLab(seed=3)
    faces = [f for f in lab.table.view["cards"].values() if isinstance(f, dict) and "words" in f]
    assert faces and all(f["words"] == {k: f[k] for k in ("color", "texture", "animal")} for f in faces)


def test_the_full_games_kris_list_says_the_elements_in_spanish_and_keeps_their_keys():
    from safari_kit.widgets.labs import FullGameLab
    from safari_kit.witness.state import KRIS_ELEMENTS

    with language("es"):
        lab = FullGameLab()
    options = dict(lab.kris_box.options)
    assert list(options.values()) == list(KRIS_ELEMENTS)
    assert options["Cabra"] == "Goat" and options["Turquesa"] == "Teal" and options["TAM"] == "TAM"
