"""The cards' words in other languages (issue 30): ``data/card-names.csv``, data a translator edits, not code.

Why a data file and not the gettext catalogue: a Safari Pal's name and a Mugshot's elements are card data
(``data/cards.csv``), and a teacher who makes a deck of their own adds its names here too, beside the deck,
with no tool. Why one file with a column per language: a translator sees the English beside their own words
in any spreadsheet, and a third language is one more column, nothing else (the kit ships this one file).

The file: a header ``kind,en,<lang>,<lang>...`` and one line a word: ``kind`` is ``pal`` (a Safari Pal's name),
``animal``, ``texture`` or ``color`` (a Mugshot's element); ``en`` is the word exactly as ``cards.csv`` spells
it; each language's column holds the word in that language (blank: not translated yet, the English is shown).
The Witness names (KIM, TAM ...) are the game's and are not here.

This module reads and checks the file and says a word in a language given to it; it imports no gettext (the
cards layer does not know the learner's language: ``safari_kit.presentation.card_words`` asks with it).
Every problem is found at once and raised as one :class:`~safari_kit.core.errors.CardDataError`, each naming
the file, line and column, as the card CSV's own checks do.

>>> names = card_names()
>>> names.word("pal", "Lion", "es"), names.word("color", "Teal", "es"), names.word("pal", "Lion", "en")
('León', 'Turquesa', 'Lion')
>>> names.word("pal", "Dodo", "es")  # a word the file has not: its English
'Dodo'
"""
from __future__ import annotations

import csv
import functools
import io
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from safari_kit.cards.validate import Problem
from safari_kit.cards.vocabulary import ANIMALS, COLORS, TEXTURES
from safari_kit.core.errors import CardDataError

__all__ = ["CardNames", "KINDS", "NAMES_FILE", "card_names", "default_card_names_path", "read_card_names"]

NAMES_FILE = "card-names.csv"
#: what a line names: a Safari Pal, or one element of a Mugshot
KINDS = ("pal", "animal", "texture", "color")
_ELEMENTS = {"animal": ANIMALS, "texture": TEXTURES, "color": COLORS}
_LANG = re.compile(r"^[a-z]{2,3}(_[A-Z]{2})?$")
_SOURCE = "en"


def default_card_names_path() -> Path:
    """The kit's file: ``safari_kit/data/card-names.csv`` in an installed wheel, else the checkout's
    ``data/card-names.csv`` (beside ``data/cards.csv``, as :func:`safari_kit.cards.load.default_cards_path`)."""
    shipped = resources.files("safari_kit") / "data" / NAMES_FILE
    if shipped.is_file():
        return Path(str(shipped))
    return Path(__file__).resolve().parents[2] / "data" / NAMES_FILE


@dataclass(frozen=True)
class CardNames:
    """The words of one names file: ``words[lang][(kind, english)]`` (blank cells left out)."""

    path: Path
    languages: tuple[str, ...]
    words: dict[str, dict[tuple[str, str], str]] = field(repr=False)
    english: tuple[tuple[str, str], ...] = field(repr=False, default=())

    def word(self, kind: str, english: str, lang: str) -> str:
        """``english`` (a ``kind`` word as cards.csv spells it) in ``lang``; its English when the file has no
        word for it in that language (a language, a card or a cell not translated yet)."""
        return self.words.get(lang, {}).get((kind, english), english)

    def untranslated(self, lang: str) -> list[tuple[str, str]]:
        """The (kind, English) words with no ``lang`` word (all of them for a language without a column)."""
        have = self.words.get(lang, {})
        return [key for key in self.english if key not in have]


def _problem(path: Path, line: int | None, column: str | None, value: str | None, expected: str,
             issue: str = "is not valid") -> Problem:
    return Problem(str(path), line, column, value, expected, issue)


def _header_problems(path: Path, header: list[str]) -> list[Problem]:
    problems = []
    if header[:2] != ["kind", _SOURCE]:
        problems.append(_problem(path, 1, None, ",".join(header[:2]), "the header to start with kind,en",
                                 issue="is not the header"))
    seen: set[str] = set()
    for lang in header[2:]:
        if not _LANG.match(lang) or lang == _SOURCE:
            problems.append(_problem(path, 1, lang, lang, "a language code such as es or pt_BR (the folder's name "
                                     "in safari_kit/locale)", issue="is not a language column"))
        elif lang in seen:
            problems.append(_problem(path, 1, lang, lang, "each language once", issue="is a second column"))
        seen.add(lang)
    return problems


def _check_text(path: Path, line: int, column: str, text: str) -> Problem | None:
    if text != text.strip() or "  " in text:
        return _problem(path, line, column, text, "no spaces at either end and single spaces inside",
                        issue="has stray spaces")
    if any(ch in text for ch in "<>&\"") or any(ord(ch) < 32 for ch in text):
        return _problem(path, line, column, text, "plain words (no <, >, &, \" or control characters)",
                        issue="has a character a card's name may not hold")
    return None


def _parse(path: Path, text: str, pals: tuple[str, ...] | None) -> tuple[CardNames, list[Problem]]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows or not any(rows[0]):
        return CardNames(path, (), {}), [_problem(path, None, None, None, "a header line kind,en,es,... and one "
                                                  "line a word", issue="the file is empty")]
    header = [h.strip() for h in rows[0]]
    problems = _header_problems(path, header)
    langs = tuple(header[2:])
    words: dict[str, dict[tuple[str, str], str]] = {lang: {} for lang in langs}
    english: dict[tuple[str, str], int] = {}
    said: dict[tuple[str, str], int] = {}  # (lang, the word in lower case) -> its line: no two Pals alike
    for line, cells in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in cells):
            continue  # a blank line
        if len(cells) != len(header):
            problems.append(_problem(path, line, None, None, f"{len(header)} fields, as the header has",
                                     issue=f"the line has {len(cells)} fields"))
            continue
        kind, en = cells[0], cells[1]
        if kind not in KINDS:
            problems.append(_problem(path, line, "kind", kind, "one of " + ", ".join(KINDS)))
            continue
        known = pals if kind == "pal" else _ELEMENTS[kind]
        if known is not None and en not in known:
            problems.append(_problem(path, line, "en", en, f"a {kind} of data/cards.csv, spelled as there",
                                     issue="is not in the deck"))
            continue
        if (kind, en) in english:
            problems.append(_problem(path, line, "en", en, f"each {kind} once (first on line "
                                     f"{english[kind, en]})", issue="is a second line"))
            continue
        english[kind, en] = line
        for lang, word in zip(langs, cells[2:]):
            if not word:
                continue  # not translated yet: the English is shown
            bad = _check_text(path, line, lang, word)
            if bad is not None:
                problems.append(bad)
                continue
            if kind == "pal":
                first = said.setdefault((lang, word.casefold()), line)
                if first != line:
                    problems.append(_problem(path, line, lang, word, f"a name of its own (line {first} has it)",
                                             issue="names two Safari Pals"))
                    continue
            words[lang][kind, en] = word
    for kind, values in (("pal", pals or ()), *_ELEMENTS.items()):
        for en in values:
            if (kind, en) not in english:
                problems.append(_problem(path, None, "en", en, f"a line '{kind},{en},...' (blank words are allowed)",
                                         issue=f"has no line: every {kind} of data/cards.csv needs one"))
    return CardNames(path, langs, words, tuple(english)), problems


def read_card_names(path: str | Path | None = None, pals: tuple[str, ...] | None = None) -> CardNames:
    """Read and check a names file (the kit's when ``path`` is None). ``pals``: the deck's Safari Pal names
    (the kit's deck when ``path`` is None); every Pal and element needs a line, and every line a card.
    Raises :class:`CardDataError` listing every problem."""
    if path is None:
        path = default_card_names_path()
        if pals is None:
            from safari_kit.cards.load import load_cards  # the kit's own deck, read once by card_names()

            pals = tuple(p.name for p in load_cards().knockout)
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CardDataError([_problem(path, None, None, None, "a readable names file",
                                      issue=f"cannot be read ({exc.strerror or exc})")]) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CardDataError([_problem(path, line, None, None, "UTF-8 text (save it as 'CSV, UTF-8')",
                                      issue=f"is not UTF-8 (byte {exc.start})")]) from None
    names, problems = _parse(path, text, pals)
    if problems:
        raise CardDataError(problems)
    return names


@functools.lru_cache(maxsize=1)
def card_names() -> CardNames:
    """The kit's names file, read and checked once per process; English only when the file is not there (an
    install without it)."""
    path = default_card_names_path()
    if not path.is_file():
        return CardNames(path, (), {})
    return read_card_names()
