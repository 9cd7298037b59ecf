"""Validation of the card CSV: every problem at once, each with file, line and column.

Validation is *lazy* (as in pandera): it collects every problem it finds, then
raises one :class:`~safari_kit.core.errors.CardDataError` listing them all, so
a teacher editing the CSV can fix every row in one go.

The checks run in three stages; a later stage runs only when the earlier ones
leave something to check:

1. the file: readable, not empty, UTF-8 text, CSV with the same number of
   fields on every line, the right header;
2. every row (always, also with ``strict=False``): id, deck, name, elements,
   data items, blanks, duplicates;
3. the decks (only with ``strict=True`` and only when stage 2 found nothing,
   since a bad row would just echo here): the W1 balance of the 75 Mugshots
   and at least 49 Safari Pals (K1).

Row checks are plain Python over the cells as strings; pandas is used only
afterwards, by the loader, to build the frames.

>>> str(Problem("cards.csv", 17, "color", "Purple",
...             "one of Teal, Yellow, Orange, Pink, Violet"))
"cards.csv:17: column 'color': 'Purple' is not valid; expected one of Teal, Yellow, Orange, Pink, Violet"
>>> str(Problem("cards.csv", None, None, None, "a header line", issue="the file is empty"))
'cards.csv: the file is empty; expected a header line'
"""
from __future__ import annotations

import csv
import difflib
import io
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from safari_kit.cards.names import NAMES, is_ink, pattern_problem
from safari_kit.cards.schema import (
    COLUMNS, DECK_COLUMNS, DECKS, ELEMENT_COLUMNS, HAND_SIZE_FIRST_ROUND, ID_LETTER, ID_RE,
    INK_PATTERNS, KNOCKOUT, KNOCKOUT_MIN_CARDS, MAX_PLAYERS, MIN_PLAYERS, STAT_COLUMNS,
    STAT_RANGES, WITNESS, WITNESS_CARDS, WITNESS_PER_ELEMENT, WITNESS_PER_NAME,
    WITNESS_PER_NAME_ELEMENT, WITNESS_PER_PAIR, WITNESS_SETUP_CARDS,
)
from safari_kit.core.errors import CardDataError

__all__ = ["Problem", "Row", "ValidatedRows", "validate_bytes", "check_rows",
           "witness_deck_problems", "knockout_deck_problems", "check_player_count"]


@dataclass(frozen=True)
class Problem:
    """One problem in the card data.

    ``line`` is the 1-based line of the file (the header is line 1, the first
    card line 2) or None for a problem of the whole file or deck; ``column`` is
    the column name or None; ``value`` is the offending text (or None);
    ``expected`` says what would be right; ``issue`` says what is wrong.
    """

    file: str
    line: int | None
    column: str | None
    value: str | None
    expected: str
    issue: str = "is not valid"

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        parts = [where]
        if self.column is not None:
            parts.append(f"column {self.column!r}")
        body = self.issue if self.value is None else f"{self.value!r} {self.issue}"
        if self.expected:
            body += f"; expected {self.expected}"
        parts.append(body)
        return ": ".join(parts)


class Row(NamedTuple):
    """One card line of the CSV: its 1-based file line and its cells by column."""

    line: int
    cells: dict


@dataclass(frozen=True)
class ValidatedRows:
    """What :func:`validate_bytes` returns when the data is valid."""

    text: str
    header: tuple
    rows: tuple  # of Row, in file order


def _one_of(values) -> str:
    return "one of " + ", ".join(values)


# --------------------------------------------------------------------- stage 1
def _decode(data: bytes, file: str) -> tuple[str | None, list[Problem]]:
    if not data.strip():
        return None, [Problem(file, None, None, None, "a header line "
                              f"({','.join(COLUMNS)}) and one line per card",
                              issue="the file is empty")]
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        return None, [Problem(file, line, None, None, "a CSV text file (UTF-8)",
                              issue=f"the file is binary, not CSV text (a NUL byte at byte offset {nul})")]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start:exc.start + 1]
        return None, [Problem(file, line, None, None,
                              "UTF-8 text (in a spreadsheet: save as 'CSV UTF-8')",
                              issue=f"the file is not UTF-8: byte {bad!r} at byte offset {exc.start} "
                                    "cannot be decoded")]
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        return None, [Problem(file, None, None, None, f"CSV with the header {','.join(COLUMNS)}",
                              issue="looks like JSON, not CSV")]
    return text, []


def _parse(text: str, file: str) -> tuple[list[str] | None, list[Row], list[Problem]]:
    problems: list[Problem] = []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    header: list[str] | None = None
    rows: list[Row] = []
    prev_end = 0
    try:
        for fields in reader:
            start, prev_end = prev_end + 1, reader.line_num
            if not fields:
                continue  # a blank line (pandas skips them too)
            if header is None:
                header = [f.strip() for f in fields]
                continue
            if len(fields) != len(header):
                problems.append(Problem(
                    file, start, None, ",".join(fields),
                    f"{len(header)} fields, like the header (quote a value that holds a comma)",
                    issue=f"has {len(fields)} field{'s' if len(fields) != 1 else ''}"))
                continue
            rows.append(Row(start, dict(zip(header, fields))))
    except csv.Error as exc:
        problems.append(Problem(file, reader.line_num or None, None, None,
                                "well-formed CSV (balanced double quotes)",
                                issue=f"cannot be read as CSV ({exc})"))
    return header, rows, problems


def _check_header(header: list[str], file: str) -> tuple[list[Problem], bool]:
    """Problems of the header line, and whether the rows can be checked at all."""
    if not set(header) & set(COLUMNS):
        return [Problem(file, 1, None, ",".join(header), ",".join(COLUMNS),
                        issue="is not the card header")], False
    problems = []
    counts = Counter(header)
    for name, n in counts.items():
        if n > 1:
            problems.append(Problem(file, 1, name, name, "each column once", issue=f"appears {n} times"))
    missing = [c for c in COLUMNS if c not in counts]
    extra = [c for c in header if c not in COLUMNS]
    for col in extra:
        close = difflib.get_close_matches(col, missing or COLUMNS, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? Expected " if close else ""
        problems.append(Problem(file, 1, col, col, hint + _one_of(COLUMNS),
                                issue="is not a known column"))
    for col in missing:
        problems.append(Problem(file, 1, col, None, f"the header {','.join(COLUMNS)}",
                                issue=f"column {col!r} is missing"))
    return problems, True


# --------------------------------------------------------------------- stage 2
# Plain decimal numbers only: Python's float() would also take "1_000", "nan",
# "inf" and non-ASCII digits, which pandas may read differently.
_NUMBER_RE = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")

def _check_stat(file: str, line: int, col: str, raw: str) -> Problem | None:
    rng = STAT_RANGES[col]
    expected = f"a number of {rng.unit} between {rng.low:g} and {rng.high:g}"
    if not _NUMBER_RE.match(raw):
        return Problem(file, line, col, raw, expected + " (digits and a decimal point, no units)",
                       issue="is not a number")
    value = float(raw)
    if value <= 0:
        return Problem(file, line, col, raw, expected, issue="is not positive")
    if not rng.low <= value <= rng.high:
        return Problem(file, line, col, raw, expected, issue=f"is out of the plausible range for {col}")
    return None


def check_rows(rows, file: str, header=COLUMNS) -> list[Problem]:
    """Every per-row problem (ids, decks, names, elements, data items, blanks, duplicates)."""
    problems: list[Problem] = []
    present = set(header)
    first_id: dict[str, int] = {}
    first_name: dict[str, tuple[int, str]] = {}
    for line, cells in rows:
        deck = cells["deck"].strip() if "deck" in present else None
        if deck is not None and deck not in DECKS:
            problems.append(Problem(file, line, "deck", cells["deck"], _one_of(DECKS),
                                    issue="is not a known deck" if deck else "is blank"))
            deck = None
        used = DECK_COLUMNS.get(deck, ()) if deck is not None else ()
        # id
        if "id" in present:
            card_id = cells["id"]
            if not card_id.strip():
                problems.append(Problem(file, line, "id", card_id, "an id such as W01 or K01", issue="is blank"))
            else:
                m = ID_RE.match(card_id)
                if m is None:
                    problems.append(Problem(file, line, "id", card_id,
                                            "W or K followed by digits (W01 for witness, K01 for knockout)"))
                elif deck in ID_LETTER and m.group(1) != ID_LETTER[deck]:
                    problems.append(Problem(file, line, "id", card_id,
                                            f"an id starting with {ID_LETTER[deck]} on a {deck} card"))
                if card_id in first_id:
                    problems.append(Problem(file, line, "id", card_id,
                                            f"a unique id (also on line {first_id[card_id]})",
                                            issue=f"is a duplicate of line {first_id[card_id]}"))
                else:
                    first_id[card_id] = line
        if deck is None:
            continue  # cannot tell which columns this row should use
        # blanks and values in columns this deck does not use
        for col in COLUMNS[3:]:
            if col not in present:
                continue
            raw = cells[col]
            if col in used and not raw.strip():
                problems.append(Problem(file, line, col, raw, f"a value on every {deck} card", issue="is blank"))
            elif col not in used and raw.strip():
                other = WITNESS if deck == KNOCKOUT else KNOCKOUT
                problems.append(Problem(file, line, col, raw, f"blank on a {deck} card ({col} is for {other} cards)",
                                        issue=f"is set on a {deck} card"))
        # name
        if "name" in present:
            name = cells["name"]
            if deck == WITNESS and name.strip():
                why = pattern_problem(name)
                if why:
                    problems.append(Problem(file, line, "name", name, why,
                                            issue="is not a valid name pattern"))
            elif deck == KNOCKOUT and name.strip():
                if name != name.strip():
                    problems.append(Problem(file, line, "name", name, "no spaces around the name",
                                            issue="has spaces around it"))
                key = " ".join(name.split()).casefold()
                if key in first_name:
                    prev_line, prev = first_name[key]
                    problems.append(Problem(file, line, "name", name,
                                            f"a unique animal name in the knockout deck "
                                            f"(line {prev_line} has {prev!r})",
                                            issue=f"is a duplicate of line {prev_line}"))
                else:
                    first_name[key] = (line, name)
            elif not name.strip():
                problems.append(Problem(file, line, "name", name, "a name on every card", issue="is blank"))
        # elements
        if deck == WITNESS:
            for col, allowed in ELEMENT_COLUMNS.items():
                raw = cells.get(col, "")
                if col in present and raw.strip() and raw not in allowed:
                    hint = difflib.get_close_matches(raw.strip().title(), allowed, n=1, cutoff=0.6)
                    exp = _one_of(allowed) + (f" (did you mean {hint[0]!r}?)" if hint else "")
                    problems.append(Problem(file, line, col, raw, exp))
        else:
            for col in STAT_COLUMNS:
                raw = cells.get(col, "")
                if col in present and raw.strip():
                    p = _check_stat(file, line, col, raw.strip())
                    if p:
                        problems.append(p)
    return problems


# --------------------------------------------------------------------- stage 3
def witness_deck_problems(rows, file: str) -> list[Problem]:
    """Every way the witness rows miss the W1 design (rows already valid one by one)."""
    problems: list[Problem] = []

    def deck_problem(column, value, issue, expected):
        problems.append(Problem(file, None, column, value, expected + " (W1)", issue=issue))

    n = len(rows)
    if n != WITNESS_CARDS:
        deck_problem(None, None, f"the witness deck has {n} cards", f"exactly {WITNESS_CARDS}")
    cols = list(ELEMENT_COLUMNS)
    for col, allowed in ELEMENT_COLUMNS.items():
        counts = Counter(r.cells[col] for r in rows)
        for e in allowed:
            if counts[e] != WITNESS_PER_ELEMENT:
                deck_problem(col, e, f"is on {counts[e]} witness cards", f"exactly {WITNESS_PER_ELEMENT}")
    for c1, c2 in combinations(cols, 2):
        counts = Counter((r.cells[c1], r.cells[c2]) for r in rows)
        for e1 in ELEMENT_COLUMNS[c1]:
            for e2 in ELEMENT_COLUMNS[c2]:
                k = counts[(e1, e2)]
                if k != WITNESS_PER_PAIR:
                    deck_problem(f"{c1}+{c2}", f"{e1} + {e2}", f"is on {k} witness cards",
                                 f"every pair of a {c1} and a {c2} on exactly {WITNESS_PER_PAIR}")
    seen: dict[tuple, int] = {}
    for r in rows:
        key = tuple(r.cells[c] for c in cols)
        if key in seen:
            problems.append(Problem(file, r.line, "animal+texture+color", " ".join(key),
                                    "no two Mugshots with the same animal, texture and color (W1)",
                                    issue=f"is also on line {seen[key]}"))
        else:
            seen[key] = r.line
    clear = [r for r in rows if not is_ink(r.cells["name"])]
    by_name = defaultdict(list)
    for r in clear:
        by_name[r.cells["name"]].append(r)
    for name in NAMES:
        group = by_name.get(name, [])
        if len(group) != WITNESS_PER_NAME:
            deck_problem("name", name, f"is the clear name of {len(group)} cards", f"exactly {WITNESS_PER_NAME}")
            continue
        for col, allowed in ELEMENT_COLUMNS.items():
            counts = Counter(r.cells[col] for r in group)
            for e in allowed:
                if counts[e] != WITNESS_PER_NAME_ELEMENT:
                    deck_problem("name", name, f"has {counts[e]} cards with {col} {e}",
                                 f"each name's 10 cards to hold exactly {WITNESS_PER_NAME_ELEMENT} of each {col}")
    for name in sorted(set(by_name) - set(NAMES)):
        deck_problem("name", name, "is not one of the 7 names", _one_of(NAMES))
    ink = [r for r in rows if is_ink(r.cells["name"])]
    patterns = Counter(r.cells["name"] for r in ink)
    if patterns != Counter(INK_PATTERNS):
        got = ", ".join(r.cells["name"] for r in ink) or "none"
        deck_problem("name", None, f"the ink cards have the patterns {got}",
                     "exactly 5 ink cards with the patterns " + ", ".join(INK_PATTERNS))
    for col, allowed in ELEMENT_COLUMNS.items():
        counts = Counter(r.cells[col] for r in ink)
        for e in allowed:
            if counts[e] != 1:
                deck_problem(col, e, f"is on {counts[e]} ink cards", "exactly 1")
    return problems


def knockout_deck_problems(rows, file: str) -> list[Problem]:
    """The knockout deck must hold at least 49 Safari Pals (K1: 7 players, 7 cards each)."""
    if len(rows) < KNOCKOUT_MIN_CARDS:
        return [Problem(file, None, None, None,
                        f"at least {KNOCKOUT_MIN_CARDS} (K1: 7 players are dealt 7 cards each)",
                        issue=f"the knockout deck has {len(rows)} cards")]
    return []


# --------------------------------------------------------------------- entry
def validate_bytes(data: bytes, file: str = "cards.csv", *, strict: bool = True,
                   path=None) -> ValidatedRows:
    """Check raw CSV bytes; return the rows, or raise one CardDataError with every problem.

    ``file`` is the name used in messages, ``path`` the one stored on the error.

    >>> validate_bytes(b"", "x.csv")
    Traceback (most recent call last):
    ...
    safari_kit.core.errors.CardDataError: 1 problem(s) in card data x.csv:
      x.csv: the file is empty; expected a header line
      (id,deck,name,animal,texture,color,weight_kg,size_cm,top_speed_kmh,lifespan_years) and one line per card
    """
    path = file if path is None else path
    text, problems = _decode(data, file)
    if text is None:
        raise CardDataError(problems, path)
    header, rows, problems = _parse(text, file)
    if header is None:
        raise CardDataError([Problem(file, None, None, None, "a header line", issue="the file is empty")], path)
    header_problems, checkable = _check_header(header, file)
    problems = header_problems + problems
    if not checkable:
        raise CardDataError(problems, path)
    if not rows and not problems:
        problems.append(Problem(file, None, None, None, "one line per card after the header",
                                issue="the file has no cards"))
    row_problems = check_rows(rows, file, header)
    problems += row_problems
    if strict and not problems:
        problems += witness_deck_problems([r for r in rows if r.cells["deck"] == WITNESS], file)
        problems += knockout_deck_problems([r for r in rows if r.cells["deck"] == KNOCKOUT], file)
    if problems:
        problems.sort(key=lambda p: (p.line is None, p.line or 0))
        raise CardDataError(problems, path)
    return ValidatedRows(text, tuple(header), tuple(rows))


def check_player_count(cards, game: str, players: int) -> None:
    """Raise unless ``cards`` can set up ``game`` for ``players`` players.

    ``ValueError`` for a player count outside 2..7 (W11, K2); ``CardDataError``
    when the deck is too small: Knockout deals 7 cards to each player in round 1
    (K2), Witness needs 4 Unidentified Mugshots and a first card to reveal.
    """
    if game not in DECKS:
        raise ValueError(f"unknown game {game!r}; expected {_one_of(DECKS)}")
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
    path = getattr(cards, "path", None)
    file = getattr(path, "name", None) or str(path or "cards")
    if game == KNOCKOUT:
        need, have = HAND_SIZE_FIRST_ROUND * players, len(cards.knockout)
        why = f"at least {need} knockout cards for {players} players (7 each in round 1, K2)"
    else:
        need, have = WITNESS_SETUP_CARDS, len(cards.witness)
        why = f"at least {need} witness cards to set up (4 Unidentified Mugshots and one to reveal)"
    if have < need:
        raise CardDataError([Problem(file, None, None, None, why,
                                     issue=f"the {game} deck has {have} cards")], path)
