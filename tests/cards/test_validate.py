"""Bad card files: each kind is caught, and the message names file, line, column and value."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from safari_kit.cards import (CardDataError, Cards, Mugshot, Problem, SafariPal,
                              check_player_count, load_cards)
from safari_kit.cards.html import mugshot_html, safari_pal_html
from safari_kit.cards.load import default_cards_path

HEADER_COLS = "id,deck,name,animal,texture,color,weight_kg,size_cm,top_speed_kmh,lifespan_years".split(",")


def problems_of(path, strict=True) -> CardDataError:
    with pytest.raises(CardDataError) as info:
        load_cards(path, strict=strict)
    err = info.value
    assert err.problems, "a CardDataError always lists its problems"
    assert str(path) in str(err)  # the full path heads the message
    return err


def find(err: CardDataError, line=..., column=..., value=...) -> Problem:
    """The one problem at ``line``/``column``/``value``; its text names each of them."""
    hits = [p for p in err.problems
            if (line is ... or p.line == line) and (column is ... or p.column == column)
            and (value is ... or p.value == value)]
    assert hits, f"no problem at line={line} column={column} value={value!r} in:\n{err}"
    p = hits[0]
    text = str(p)
    assert text.startswith("cards.csv") or text.startswith(str(p.file)), text
    if line not in (..., None):
        assert f"cards.csv:{line}:" in text, text
    if column not in (..., None):
        assert f"column {column!r}" in text, text
    if value not in (..., None):
        assert repr(value) in text, text
    assert text in str(err)
    return p


def replace_field(line: str, index: int, value: str) -> str:
    fields = line.split(",")
    fields[index] = value
    return ",".join(fields)


# ------------------------------------------------------------------ good files
def test_valid_file_loads_as_str_and_path(card_csv):
    path = card_csv()
    for p in (path, str(path)):
        cards = load_cards(p)
        assert isinstance(cards, Cards)
        assert len(cards.witness) == 75 and len(cards.knockout) == 49
        assert cards.path == path


def test_committed_cards_csv_loads_strictly():
    cards = load_cards()
    assert len(cards.witness) == 75
    assert len(cards.knockout) >= 49
    assert load_cards() is cards  # cached
    assert cards.path == default_cards_path()


def test_cards_objects_frames_and_lookup(card_csv):
    cards = load_cards(card_csv())
    m = cards.mugshot("W01")
    assert m == Mugshot("W01", "Elephant", "Brick", "Teal", "??M") and m.ink
    pal = cards.pal("K02")
    assert isinstance(pal, SafariPal) and pal.weight_kg == 12.5 and isinstance(pal.size_cm, float)
    with pytest.raises(KeyError, match="no witness card with id 'W99'"):
        cards.mugshot("W99")
    with pytest.raises(KeyError, match="no knockout card with id 'W01'"):
        cards.pal("W01")
    wf = cards.witness_frame
    assert list(wf.columns) == ["id", "name", "animal", "texture", "color", "ink"]
    assert isinstance(wf["color"].dtype, pd.CategoricalDtype)
    assert list(wf["animal"].cat.categories) == ["Elephant", "Owl", "Bear", "Goat", "Pig"]
    assert wf["ink"].dtype == bool and wf["ink"].sum() == 5
    assert list(wf["id"]) == [m.id for m in cards.witness]
    kf = cards.knockout_frame
    assert list(kf.columns) == ["id", "name", "weight_kg", "size_cm", "top_speed_kmh", "lifespan_years"]
    assert all(kf[c].dtype == float for c in kf.columns[2:])
    kf.loc[0, "weight_kg"] = -1.0  # a copy: the deck is unchanged
    assert cards.knockout_frame.loc[0, "weight_kg"] == 11.5
    with pytest.raises(AttributeError):
        cards.witness = ()


def test_cache_sees_an_edited_file(card_csv, knockout_lines):
    path = card_csv()
    first = load_cards(path)
    assert load_cards(path) is first
    card_csv(knockout=knockout_lines(50))
    assert len(load_cards(path).knockout) == 50


def test_bom_and_crlf_are_accepted(tmp_path, card_csv):
    text = card_csv().read_text(encoding="utf-8")
    path = tmp_path / "excel.csv"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    assert len(load_cards(path).witness) == 75


# ------------------------------------------------------------------ header
def test_missing_column(card_csv, witness_lines, knockout_lines):
    def drop(line):
        return ",".join(f for i, f in enumerate(line.split(",")) if i != 5)
    path = card_csv([drop(line) for line in witness_lines], [drop(line) for line in knockout_lines()],
                    header=",".join(c for c in HEADER_COLS if c != "color"))
    err = problems_of(path)
    p = find(err, 1, "color")
    assert "missing" in str(p)


def test_misspelled_column_suggests_the_close_match(card_csv):
    path = card_csv(header=",".join("colour" if c == "color" else c for c in HEADER_COLS))
    err = problems_of(path)
    p = find(err, 1, "colour", "colour")
    assert "did you mean 'color'" in str(p)
    find(err, 1, "color")  # and it is missing


def test_extra_column(card_csv, witness_lines, knockout_lines):
    path = card_csv([line + "," for line in witness_lines], [line + "," for line in knockout_lines()],
                    header=",".join(HEADER_COLS) + ",notes")
    err = problems_of(path)
    p = find(err, 1, "notes", "notes")
    assert "not a known column" in str(p)


# ------------------------------------------------------------------ rows
def test_unknown_color(card_csv, witness_lines):
    w = witness_lines
    w[15] = replace_field(w[15], 5, "Purple")
    err = problems_of(card_csv(w))
    p = find(err, 17, "color", "Purple")
    assert "one of Teal, Yellow, Orange, Pink, Violet" in str(p)
    assert len(err.problems) == 1  # no echo from the deck-level checks


def test_unknown_animal(card_csv, witness_lines):
    w = witness_lines
    w[0] = replace_field(w[0], 3, "Zebra")
    w[1] = replace_field(w[1], 3, "elephant")
    err = problems_of(card_csv(w))
    assert "Elephant, Owl, Bear, Goat, Pig" in str(find(err, 2, "animal", "Zebra"))
    assert "did you mean 'Elephant'" in str(find(err, 3, "animal", "elephant"))


@pytest.mark.parametrize("bad", ["tam", "T@M", "BOB", "T?MM"])
def test_malformed_name_pattern(card_csv, witness_lines, bad):
    w = witness_lines
    w[4] = replace_field(w[4], 2, bad)
    err = problems_of(card_csv(w))
    assert "name pattern" in str(find(err, 6, "name", bad))


def test_duplicate_ids_name_both_lines(card_csv, witness_lines):
    w = witness_lines
    w[9] = replace_field(w[9], 0, "W03")
    err = problems_of(card_csv(w))
    p = find(err, 11, "id", "W03")
    assert "line 4" in str(p)


def test_bad_id_pattern_and_letter(card_csv, witness_lines, knockout_lines):
    w, k = witness_lines, knockout_lines()
    w[0] = replace_field(w[0], 0, "X1")
    k[0] = replace_field(k[0], 0, "W100")
    err = problems_of(card_csv(w, k))
    find(err, 2, "id", "X1")
    assert "starting with K" in str(find(err, 77, "id", "W100"))


def test_blank_cell_in_used_column(card_csv, witness_lines, knockout_lines):
    w, k = witness_lines, knockout_lines()
    w[2] = replace_field(w[2], 4, "")
    k[3] = replace_field(k[3], 8, "")
    err = problems_of(card_csv(w, k))
    assert "blank" in str(find(err, 4, "texture", ""))
    assert "blank" in str(find(err, 80, "top_speed_kmh", ""))


def test_value_in_unused_column(card_csv, witness_lines, knockout_lines):
    w, k = witness_lines, knockout_lines()
    w[0] = replace_field(w[0], 6, "12")
    k[0] = replace_field(k[0], 5, "Teal")
    err = problems_of(card_csv(w, k))
    assert "witness card" in str(find(err, 2, "weight_kg", "12"))
    assert "knockout card" in str(find(err, 77, "color", "Teal"))


@pytest.mark.parametrize("column,index,bad,issue,unit_range", [
    ("weight_kg", 6, "heavy", "not a number", "kg between 0.001 and 10000"),
    ("size_cm", 7, "0", "not positive", "cm between 1 and 2000"),
    ("top_speed_kmh", 8, "-5", "not positive", "km/h between 0.1 and 150"),
    ("lifespan_years", 9, "900", "out of the plausible range", "years between 1 and 150"),
    ("weight_kg", 6, "50000", "out of the plausible range", "kg between 0.001 and 10000"),
    ("size_cm", 7, "nan", "not a number", "cm between 1 and 2000"),
    ("size_cm", 7, "1_000", "not a number", "cm between 1 and 2000"),
    ("weight_kg", 6, "12 kg", "not a number", "kg between 0.001 and 10000"),
    ("lifespan_years", 9, "inf", "not a number", "years between 1 and 150"),
])
def test_bad_stats_name_unit_and_range(card_csv, knockout_lines, column, index, bad, issue, unit_range):
    k = knockout_lines()
    k[5] = replace_field(k[5], index, bad)
    err = problems_of(card_csv(knockout=k))
    text = str(find(err, 82, column, bad))
    assert issue in text and unit_range in text


def test_unknown_deck(card_csv, knockout_lines):
    k = knockout_lines()
    k[0] = replace_field(k[0], 1, "poker")
    err = problems_of(card_csv(knockout=k))
    assert "witness, knockout" in str(find(err, 77, "deck", "poker"))


def test_duplicate_knockout_names_case_insensitive(card_csv, knockout_lines):
    k = knockout_lines()
    k[10] = replace_field(k[10], 2, "test animal 3")
    err = problems_of(card_csv(knockout=k))
    p = find(err, 87, "name", "test animal 3")
    assert "line 79" in str(p) and "'Test Animal 3'" in str(p)


# ------------------------------------------------------------------ not a card CSV
@pytest.mark.parametrize("content", [b"", b"  \n\n"])
def test_empty_file(tmp_path, content):
    path = tmp_path / "cards.csv"
    path.write_bytes(content)
    err = problems_of(path)
    assert "empty" in str(find(err, None))


def test_header_only_has_no_cards(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(",".join(HEADER_COLS) + "\n")
    assert "no cards" in str(problems_of(path, strict=False))


def test_binary_file(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    err = problems_of(path)
    assert "binary" in str(find(err, 3))  # after \r\n and \n


def test_json_file(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(json.dumps([{"id": "W01", "deck": "witness"}]))
    assert "JSON" in str(problems_of(path))


def test_not_a_card_header(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("a,b,c\n1,2,3\n")
    err = problems_of(path)
    assert "not the card header" in str(find(err, 1, None, "a,b,c"))


def test_ragged_rows_name_the_line(card_csv, witness_lines, knockout_lines):
    w, k = witness_lines, knockout_lines()
    w[3] = w[3] + ",extra"
    k[1] = "K02,knockout,Lion"
    err = problems_of(card_csv(w, k))
    assert "has 11 fields" in str(find(err, 5))
    assert "has 3 fields" in str(find(err, 78, None, "K02,knockout,Lion"))


def test_unbalanced_quote(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(",".join(HEADER_COLS) + '\nW01,witness,"TAM,Owl,Wood,Teal,,,,\n')
    assert "cards.csv" in str(problems_of(path))


def test_not_utf8_names_byte_offset_and_line(card_csv, tmp_path):
    data = card_csv().read_bytes()
    lines = data.split(b"\n")
    lines[2] = lines[2].replace(b"KIM", b"K\xcdM")  # Latin-1 Í
    path = tmp_path / "cards.csv"
    path.write_bytes(b"\n".join(lines))
    offset = data.index(b"KIM") + 1
    err = problems_of(path)
    text = str(find(err, 3))
    assert "not UTF-8" in text and f"byte offset {offset}" in text


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_path(tmp_path, kind):
    path = tmp_path / ("nope.csv" if kind == "missing" else "")
    err = problems_of(path)
    assert ("does not exist" if kind == "missing" else "is a directory") in str(err)


# ------------------------------------------------------------------ many at once
def test_every_problem_is_reported_at_once(card_csv, witness_lines, knockout_lines):
    w, k = witness_lines, knockout_lines()
    w[15] = replace_field(w[15], 5, "Purple")
    w[20] = replace_field(w[20], 2, "BOB")
    w[30] = replace_field(w[30], 0, "W01")
    k[0] = replace_field(k[0], 6, "heavy")
    k[1] = replace_field(k[1], 1, "poker")
    k[2] = k[2] + ",x"
    err = problems_of(card_csv(w, k))
    find(err, 17, "color", "Purple")
    find(err, 22, "name", "BOB")
    find(err, 32, "id", "W01")
    find(err, 77, "weight_kg", "heavy")
    find(err, 78, "deck", "poker")
    find(err, 79)
    assert len(err.problems) == 6
    assert str(err).startswith("6 problem(s) in card data")
    assert [p.line for p in err.problems] == sorted(p.line for p in err.problems)


# ------------------------------------------------------------------ deck level (strict)
def test_strict_witness_count(card_csv, witness_lines):
    err = problems_of(card_csv(witness_lines[:-1]))
    assert "witness deck has 74 cards; expected exactly 75 (W1)" in str(err)


def test_strict_witness_balance(card_csv, witness_lines):
    w = witness_lines
    w[1] = replace_field(w[1], 5, "Teal")  # W02 Elephant Brick Yellow -> Teal
    err = problems_of(card_csv(w))
    text = str(err)
    assert "column 'color': 'Teal' is on 16 witness cards; expected exactly 15 (W1)" in text
    assert "'Elephant + Teal' is on 4 witness cards" in text
    assert "'Brick Elephant Teal'" not in text
    find(err, 3, "animal+texture+color", "Elephant Brick Teal")  # same as W01 on line 2
    assert "is also on line 2" in text


def test_strict_names_and_ink(card_csv, witness_lines):
    w = witness_lines
    w[0] = replace_field(w[0], 2, "TAM")   # an ink card made clear
    w[1] = replace_field(w[1], 2, "K?M")   # a clear card made ink
    text = str(problems_of(card_csv(w)))
    assert "ink cards have the patterns" in text
    assert "'TAM' is the clear name of 11 cards" in text
    assert "'KIM' is the clear name of 9 cards" in text


def test_strict_knockout_count(card_csv, knockout_lines):
    text = str(problems_of(card_csv(knockout=knockout_lines(48))))
    assert "knockout deck has 48 cards; expected at least 49" in text


def test_lenient_accepts_a_custom_deck_but_not_a_row_error(card_csv, witness_lines, knockout_lines):
    custom = witness_lines[:12] + [replace_field(witness_lines[12], 2, "ZZZ")]
    ok = card_csv(witness_lines[:12], knockout_lines(10))
    cards = load_cards(ok, strict=False)
    assert len(cards.witness) == 12 and len(cards.knockout) == 10
    with pytest.raises(CardDataError):
        load_cards(ok)  # strict: unbalanced
    err = problems_of(card_csv(custom, knockout_lines(10)), strict=False)
    assert len(err.problems) == 1
    find(err, 14, "name", "ZZZ")


def test_lenient_knockout_only_deck(card_csv, knockout_lines):
    cards = load_cards(card_csv([], knockout_lines(14)), strict=False)
    assert cards.witness == () and len(cards.knockout) == 14
    assert cards.witness_frame.empty


# ------------------------------------------------------------------ player counts
def test_check_player_count(card_csv, knockout_lines):
    small = load_cards(card_csv(knockout=knockout_lines(14)), strict=False)
    check_player_count(small, "knockout", 2)
    with pytest.raises(CardDataError, match="at least 21 knockout cards for 3 players"):
        check_player_count(small, "knockout", 3)
    check_player_count(small, "witness", 7)
    tiny = load_cards(card_csv([], knockout_lines(14)), strict=False)
    with pytest.raises(CardDataError, match="witness deck has 0 cards"):
        check_player_count(tiny, "witness", 2)
    for bad in (1, 8, 2.0, True):
        with pytest.raises(ValueError, match="players must be an integer from 2 to 7"):
            check_player_count(small, "knockout", bad)
    with pytest.raises(ValueError, match="unknown game"):
        check_player_count(small, "poker", 2)
    check_player_count(load_cards(), "knockout", 7)


# ------------------------------------------------------------------ html
def test_card_html_is_escaped_and_readable_without_color():
    m = Mugshot("W01", "Elephant", "Circular Tile", "Teal", "T?M")
    html = m._repr_html_()
    assert html == mugshot_html(m)
    for word in ("Elephant", "Circular Tile", "Teal", "T?M", "ink", "W01"):
        assert word in html
    p = SafariPal("K01", "Lion <b>& co</b>", 190.0, 200.0, 80.0, 14.0)
    html = safari_pal_html(p)
    assert "Lion &lt;b&gt;&amp; co&lt;/b&gt;" in html and "<b>&" not in html
    for word in ("Weight (kg)", "190", "Size (cm)", "Top speed (km/h)", "80", "Lifespan (years)", "14"):
        assert word in html
    assert p._repr_html_() == html


# ------------------------------------------------------------------ fuzz
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_random_bytes_raise_only_card_data_errors(tmp_path, data):
    path = tmp_path / "cards.csv"
    path.write_bytes(b"id,deck,name,animal,texture,color,weight_kg,size_cm,top_speed_kmh,lifespan_years\n" + data)
    try:
        load_cards(path, strict=False)
    except CardDataError as err:
        assert err.problems and all(isinstance(p, Problem) for p in err.problems)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(row=st.integers(0, 123), col=st.integers(0, 9),
       text=st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=12))
def test_any_edited_cell_loads_or_raises_card_data_error(card_csv, row, col, text):
    lines = card_csv().read_text(encoding="utf-8").splitlines()
    fields = lines[1 + row].split(",")
    fields[col] = text
    lines[1 + row] = ",".join(fields)
    path = card_csv().with_name("edited.csv")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        cards = load_cards(path, strict=False)
    except CardDataError as err:
        assert err.problems
    else:
        assert len(cards.witness) + len(cards.knockout) >= 123
