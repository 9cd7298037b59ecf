"""data/card-names.csv (issue 30): the Safari Pals' names and the Mugshots' elements in each language, as data.
Every Pal and element has its Spanish word; the loader names the file, line and column of every problem."""
from __future__ import annotations

from pathlib import Path

import pytest

from safari_kit.cards.card_names import NAMES_FILE, card_names, default_card_names_path, read_card_names
from safari_kit.cards.load import default_cards_path, load_cards
from safari_kit.cards.vocabulary import ANIMALS, COLORS, TEXTURES
from safari_kit.core.errors import CardDataError

REPO = Path(__file__).resolve().parents[2]
PALS = tuple(p.name for p in load_cards().knockout)
GOOD = Path(default_card_names_path()).read_text(encoding="utf-8")


def test_the_file_sits_beside_the_deck():
    assert default_card_names_path() == default_cards_path().with_name(NAMES_FILE)


def test_every_pal_and_element_has_a_spanish_word_and_no_two_pals_share_one():
    names = read_card_names()
    assert names.languages == ("es",)
    assert names.untranslated("es") == []
    spanish = [names.word("pal", pal, "es") for pal in PALS]
    assert all(word.strip() for word in spanish)
    assert len({w.casefold() for w in spanish}) == len(PALS)
    assert sum(w != pal for w, pal in zip(spanish, PALS)) >= 50  # translated, not copied (Impala stays Impala)
    for kind, values in (("animal", ANIMALS), ("texture", TEXTURES), ("color", COLORS)):
        words = [names.word(kind, v, "es") for v in values]
        assert all(words) and words != list(values), kind
    assert names.word("pal", "Lion", "es") == "León" and names.word("animal", "Goat", "es") == "Cabra"
    assert card_names().word("pal", "Lion", "fr") == "Lion"  # a language without a column: the English


def _bad(tmp_path, text: str, name: str = "names.csv") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    with pytest.raises(CardDataError) as info:
        read_card_names(path, pals=PALS)
    return str(info.value)


def _replace(old: str, new: str) -> str:
    assert GOOD.count(old) == 1, old
    return GOOD.replace(old, new)


def test_each_bad_cell_is_named_by_file_line_and_column(tmp_path):
    lines = GOOD.splitlines()
    line_of = {row.split(",")[1]: i for i, row in enumerate(lines, start=1)}
    text = _replace("pal,Lion,León", "pall,Lion,León")
    text = text.replace("pal,Giraffe,Jirafa", "pal,Giraffe, Jirafa")
    text = text.replace("pal,Leopard,Leopardo", "pal,Leopard,León")
    text = text.replace("color,Teal,Turquesa", "color,Teal,Turquesa,verde")
    text = text.replace("pal,Cheetah,Guepardo", "pal,Cheeta,Guepardo")
    text = text.replace("pal,Topi,Topi", "pal,Topi,<b>Topi</b>")
    err = _bad(tmp_path, text)
    path = str(tmp_path / "names.csv")
    assert f"{path}:{line_of['Lion']}: column 'kind': 'pall' is not valid; expected one of pal, animal" in err
    assert f"{path}:{line_of['Giraffe']}: column 'es': ' Jirafa' has stray spaces" in err
    assert f"{path}:{line_of['Teal']}: the line has 4 fields; expected 3 fields" in err
    assert f"{path}:{line_of['Cheetah']}: column 'en': 'Cheeta' is not in the deck" in err
    assert f"{path}:{line_of['Topi']}: column 'es': '<b>Topi</b>' has a character" in err
    # Lion's line was refused, so Leopard's León is its own; but Lion and Cheetah have no line now
    assert f"{path}: column 'en': 'Lion' has no line" in err and "'Cheetah' has no line" in err
    assert "'Teal' has no line" in err
    assert err.count("\n") == 8, err  # every problem at once, one line each


def test_two_pals_with_one_spanish_name_and_a_second_line_are_refused(tmp_path):
    lines = GOOD.splitlines()
    text = _replace("pal,Leopard,Leopardo", "pal,Leopard,LEÓN") + "pal,Lion,Otro león\n"
    err = _bad(tmp_path, text)
    leopard = next(i for i, row in enumerate(lines, start=1) if row.startswith("pal,Leopard,"))
    lion = next(i for i, row in enumerate(lines, start=1) if row.startswith("pal,Lion,"))
    assert f":{leopard}: column 'es': 'LEÓN' names two Safari Pals; expected a name of its own (line {lion} has it)" \
        in err
    assert f":{len(lines) + 1}: column 'en': 'Lion' is a second line; expected each pal once (first on line {lion})" \
        in err


def test_the_header_and_the_encoding_are_checked(tmp_path):
    err = _bad(tmp_path, GOOD.replace("kind,en,es", "kind,english,es", 1))
    assert ":1: 'kind,english' is not the header; expected the header to start with kind,en" in err
    err = _bad(tmp_path, GOOD.replace("kind,en,es", "kind,en,Spanish", 1))
    assert ":1: column 'Spanish': 'Spanish' is not a language column" in err
    err = _bad(tmp_path, GOOD.encode("utf-8").replace("León".encode("utf-8"), "León".encode("latin-1")))
    lion = next(i for i, row in enumerate(GOOD.splitlines(), start=1) if row.startswith("pal,Lion,"))
    assert f"names.csv:{lion}: is not UTF-8" in err and "save it as 'CSV, UTF-8'" in err
    assert "the file is empty" in _bad(tmp_path, "")
    missing = tmp_path / "nowhere.csv"
    with pytest.raises(CardDataError, match="nowhere.csv: cannot be read"):
        read_card_names(missing, pals=PALS)


def test_a_blank_word_is_not_translated_yet_and_a_new_language_is_a_column(tmp_path):
    text = "\n".join(row + ("," if i else ",fr") for i, row in enumerate(GOOD.splitlines())) + "\n"
    text = text.replace("pal,Lion,León,", "pal,Lion,León,Lion d'Afrique")
    path = tmp_path / "names.csv"
    path.write_text(text, encoding="utf-8")
    names = read_card_names(path, pals=PALS)
    assert names.languages == ("es", "fr")
    assert names.word("pal", "Lion", "fr") == "Lion d'Afrique" and names.word("pal", "Giraffe", "fr") == "Giraffe"
    assert len(names.untranslated("fr")) == len(PALS) + 15 - 1 and names.untranslated("es") == []


def test_the_wheel_ships_the_names_beside_the_deck():
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert '"data/card-names.csv" = "safari_kit/data/card-names.csv"' in text
