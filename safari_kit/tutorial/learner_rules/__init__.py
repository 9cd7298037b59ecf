"""The learners' own rules of each game: one text per game, shown in the lessons, the app, the site and the tutorial.

Why a second rules text beside docs/rules.md: that page is for the kit's developers (code names, test names,
"index triples ... mod 5"); a 15-year-old needs short sentences and pictures of the cards (issue 27). This
package holds the ONE source of each game's learners' page, ``witness.md`` and ``knockout.md`` (shipped in
the wheel), and renders it for every place a learner reads it:

* the lessons' pages ``notebooks/rules-safari-witness.ipynb`` / ``rules-safari-knockout.ipynb`` (markdown
  cells only, pictures as ``data:`` images, so nothing has to run): :mod:`.notebook` writes and checks them;
* the app's "Rules of Safari Witness" entry and the Rules tutorial: :func:`page_html`, :func:`ruling_html`
  (:mod:`.html`).

The source is Markdown in a small subset (headings, paragraphs, ``-`` and ``1.`` lists, bold, italics) plus
two marks of its own:

* ``<!-- ruling W4 -->`` under a ``##`` heading: that section says ruling W4 of docs/rules.md in plain words
  (the Rules tutorial shows it for W4; tests/teaching/test_learner_rules.py checks every ruling has one and
  that it names the numbers and names docs/rules.md's ruling fixes);
* ``![caption](cards:W28,W16)`` on a line of its own: a picture of those cards (``back3``: a face-down card at
  place 3;
  ``cards:K23,K06?item=weight_kg``: Safari Pals with the named data item marked), drawn by
  ``tools/draw_rules_cards.py`` into ``pictures/``.

Each language has its own whole document, one file a language (``witness.es.md``: a translator translates the
page as a page, not sentence by sentence; the pseudo-locale's ``witness.en_XA.md`` is made by ``tools/i18n.py
pseudo``, never by hand). :func:`page` reads the learner's language's file, else the English one; the ruling
marks, the sections and the pictures are the same in every language (tests/i18n/test_rules_pages_spanish.py),
and a picture is drawn once a language (its words: ``knockout-K04.es.png``), else the English one is shown.

>>> page("witness").title
'Rules of Safari Witness'
>>> page("witness", "es").title
'Reglas de Safari Witness'
>>> [s.rulings for s in page("knockout").sections][:2]
[('K1',), ('K2',)]
>>> "higher wins" in ruling_markdown("K1")
True
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from safari_kit.core.i18n import SOURCE_LANGUAGE, _, current_language

__all__ = ["GAMES", "NOTEBOOKS", "PICTURES", "Picture", "Section", "Page", "RulesTextError", "page", "pictures",
           "rulings", "ruling_markdown", "ruling_game", "page_html", "ruling_html", "data_url", "page_pointer",
           "languages", "page_language"]

#: the games, and the name a learner reads
GAMES = {"witness": "Safari Witness", "knockout": "Safari Knockout"}
#: the lessons' page of each game (notebooks/<name>.ipynb and .md: other lessons link to these names)
NOTEBOOKS = {"witness": "rules-safari-witness", "knockout": "rules-safari-knockout"}
HERE = Path(__file__).resolve().parent
PICTURES = HERE / "pictures"

_RULING = re.compile(r"^<!--\s*ruling\s+([WK]\d+(?:\s*,\s*[WK]\d+)*)\s*-->\s*$")
_PICTURE = re.compile(r"^!\[([^\]]+)\]\(cards:([A-Za-z0-9,]+)(?:\?item=([a-z_]+))?\)\s*$")
_SUFFIX = {"witness": ".svg", "knockout": ".png"}
_MIME = {".svg": "image/svg+xml", ".png": "image/png"}


class RulesTextError(ValueError):
    """A learners' rules text that breaks its own format (names the file, the line and what was expected)."""


@dataclass(frozen=True)
class Picture:
    """A picture of cards in a rules page: which cards, the data item marked (Knockout), its caption."""

    game: str
    cards: tuple[str, ...]
    caption: str
    item: str | None = None
    #: the language of the page it is on: its words (a Pal's name, a data item) are drawn in that language
    lang: str = SOURCE_LANGUAGE

    @property
    def file_name(self) -> str:
        tail = "" if self.lang == SOURCE_LANGUAGE else f".{self.lang}"
        return "-".join((self.game, *self.cards, *([self.item] if self.item else []))) + tail + _SUFFIX[self.game]

    @property
    def path(self) -> Path:
        """The language's own drawing, else the English one (the pseudo-locale has none of its own)."""
        own = PICTURES / self.file_name
        if self.lang == SOURCE_LANGUAGE or own.is_file():
            return own
        return PICTURES / Picture(self.game, self.cards, self.caption, self.item).file_name


@dataclass(frozen=True)
class Section:
    """A ``##`` section of a page; ``rulings``: the rulings of docs/rules.md it says in plain words."""

    title: str
    rulings: tuple[str, ...]
    body: str  # Markdown, the ruling marks taken out, pictures still as ``![..](cards:..)``


@dataclass(frozen=True)
class Page:
    game: str
    title: str
    intro: str
    sections: tuple[Section, ...]
    lang: str = SOURCE_LANGUAGE


def source_path(game: str, lang: str = SOURCE_LANGUAGE) -> Path:
    """The source of ``game``'s page in ``lang`` (``witness.md`` in English, ``witness.es.md`` ...)."""
    if game not in GAMES:
        raise KeyError(f"no rules page for {game!r}: the games are {', '.join(GAMES)}")
    name = f"{game}.md" if lang == SOURCE_LANGUAGE else f"{game}.{lang}.md"
    return Path(str(resources.files(__package__) / name))


def languages(game: str) -> list[str]:
    """The languages ``game``'s page is written in, English first (the pseudo-locale's made copy included)."""
    folder = source_path(game).parent
    return [SOURCE_LANGUAGE, *sorted(p.name[len(game) + 1:-3] for p in folder.glob(f"{game}.*.md"))]


def page_language(game: str, lang: str | None = None) -> str:
    """The language ``game``'s page is shown in for ``lang`` (default: the learner's): its own, else English."""
    lang = current_language() if lang is None else lang
    return lang if lang in languages(game) else SOURCE_LANGUAGE


def parse(text: str, game: str, file: str = "<text>", lang: str = SOURCE_LANGUAGE) -> Page:
    """The page a source text describes; :class:`RulesTextError` names the line that breaks the format."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise RulesTextError(f"{file}, line 1: expected the page's title as '# Rules of ...'")
    title = lines[0][2:].strip()
    blocks: list[tuple[str, list[str], list[str]]] = [("", [], [])]  # (title, rulings, lines)
    for number, line in enumerate(lines[1:], start=2):
        if line.startswith("## "):
            blocks.append((line[3:].strip(), [], []))
            continue
        if line.startswith("#"):
            raise RulesTextError(f"{file}, line {number}: only '# ' (the title) and '## ' headings are used")
        mark = _RULING.match(line)
        if mark:
            if not blocks[-1][0]:
                raise RulesTextError(f"{file}, line {number}: a ruling mark must stand under a '## ' heading")
            blocks[-1][1].extend(code.strip() for code in mark.group(1).split(","))
            continue
        if line.startswith("![") and not _PICTURE.match(line):
            raise RulesTextError(f"{file}, line {number}: expected a picture as '![caption](cards:W21,back3)' "
                                 f"or '![caption](cards:K23,K06?item=weight_kg)', got {line[:60]!r}")
        blocks[-1][2].append(line)
    intro = "\n".join(blocks[0][2]).strip()
    sections = tuple(Section(t, tuple(r), "\n".join(body).strip()) for t, r, body in blocks[1:])
    seen: dict[str, str] = {}
    for s in sections:
        for code in s.rulings:
            if code in seen:
                raise RulesTextError(f"{file}: ruling {code} is marked in two sections, {seen[code]!r} and "
                                     f"{s.title!r}: a ruling's learner text is one section")
            seen[code] = s.title
    return Page(game, title, intro, sections, lang)


def page(game: str, lang: str | None = None) -> Page:
    """The learners' rules page of ``game`` ("witness" or "knockout") in ``lang`` (default: the learner's
    language; English where the page has no text in it), read from its source in the wheel."""
    return _page(game, page_language(game, lang))


@lru_cache(maxsize=None)
def _page(game: str, lang: str) -> Page:
    path = source_path(game, lang)
    return parse(path.read_text(encoding="utf-8"), game, str(path), lang)


def picture_of(line: str, game: str, lang: str = SOURCE_LANGUAGE) -> Picture | None:
    """The picture a line of the source asks for, or None when the line is text."""
    m = _PICTURE.match(line)
    if not m:
        return None
    return Picture(game, tuple(m.group(2).split(",")), m.group(1), m.group(3), lang)


def pictures(game: str, lang: str = SOURCE_LANGUAGE) -> list[Picture]:
    """Every picture of ``game``'s page in ``lang``, in order."""
    p = page(game, lang)
    text = "\n".join([p.intro, *(s.body for s in p.sections)])
    return [pic for line in text.splitlines() if (pic := picture_of(line, game, p.lang)) is not None]


def data_url(picture: Picture) -> str:
    """The picture as a ``data:`` URL: shown by JupyterLab, JupyterLite, Voici and Voilà without any address."""
    path = picture.path
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FileNotFoundError(f"the card picture {path} is missing ({exc.strerror}): run "
                                "tools/draw_rules_cards.py, or reinstall safari_kit") from exc
    return f"data:{_MIME[path.suffix]};base64,{base64.b64encode(data).decode('ascii')}"


@lru_cache(maxsize=None)
def rulings(lang: str = SOURCE_LANGUAGE) -> dict[str, Section]:
    """Every ruling's learner section in ``lang`` (English by default: what agreement.py checks), by code."""
    return {code: s for game in GAMES for s in page(game, lang).sections for code in s.rulings}


def ruling_game(code: str) -> str:
    """The game whose page holds ruling ``code``."""
    return "witness" if code.startswith("W") else "knockout"


def ruling_markdown(code: str, lang: str | None = SOURCE_LANGUAGE) -> str:
    """Ruling ``code`` in a learner's words (its section of the page, without pictures); ``lang=None``: in the
    learner's language."""
    lang = page_language(ruling_game(code), lang)
    found = rulings() if lang == SOURCE_LANGUAGE else rulings(lang)
    if code not in found:
        raise KeyError(f"the learners' rules have no text for ruling {code!r}; they have "
                       f"{', '.join(sorted(found, key=lambda c: (c[0], int(c[1:]))))}")
    body = found[code].body
    return "\n".join(line for line in body.splitlines() if picture_of(line, ruling_game(code)) is None).strip()


def page_html(game: str) -> str:
    """The whole page as HTML in the learner's language, pictures as ``data:`` images (the app's rules page)."""
    from safari_kit.tutorial.learner_rules.html import page_html as render

    return render(page(game))


def ruling_html(code: str) -> str:
    """Ruling ``code``'s learner text as HTML in the learner's language (the Rules tutorial), without pictures."""
    from safari_kit.tutorial.learner_rules.html import markdown_html

    return markdown_html(ruling_markdown(code, None), ruling_game(code), pictures=False)


def page_pointer(code: str) -> str:
    """Where a learner reads ruling ``code``'s whole page: its name in the app and beside the lessons."""
    game = ruling_game(code)
    return _("All the rules, with pictures of the cards: the page {title}. In the app, choose it in the Lab list. "
             "Beside the lessons, open {notebook}.").format(title=page(game).title,
                                                            notebook=f"{NOTEBOOKS[game]}.ipynb")
