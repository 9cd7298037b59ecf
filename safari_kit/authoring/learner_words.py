"""The sentences a learner reads in a lesson, and how long they are (issue 27: words for a 15-year-old).

A learner meets a lesson as its student copy (:mod:`safari_kit.authoring.student`: no solution cells, no
teacher sections). What is measured is the *prose* of that copy: its markdown cells, without

* fenced code blocks and HTML comments (code is not prose);
* headings (a title is not a sentence) and table rows (a table cell is a label, not a sentence);
* images, horizontal rules and HTML tags.

Inline markup is read as a learner reads it: a link is its text, ``**bold**`` and ``*italic*`` are their
words, an inline code span is one word.

**What a sentence is.** Prose is cut into blocks at blank lines; each list item (``-``, ``*``, ``+``,
``1.``) is a block of its own, so a bullet item counts as (at least) one sentence, and a lead-in ending in
a colon before a list is a sentence. A block is cut into sentences after ``.``, ``!`` or ``?`` (closing
quotes, brackets and emphasis marks may follow) when white space follows; a full stop after a known
abbreviation (e.g., i.e., etc., vs. ...) or between digits (0.38) does not end a sentence. Semicolons and
colons inside a block do *not* end a sentence: two ideas joined by a semicolon are one long sentence.

**What a word is.** A run of characters between white space that holds at least one letter or digit
(``|A ∪ C|`` is two words, ``∪`` none; ``17/44`` is one).

The limits the tests hold every lesson to (:data:`LONG`, :data:`MAX_WORDS`, :data:`MAX_LONG_SHARE`) come
from issue 27: sentences of at most about 25 words, never over 40.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from safari_kit.authoring.student import read_lesson, student_copy

#: a sentence over this many words is "long"
LONG = 25
#: no sentence may be over this many words
MAX_WORDS = 40
#: at most this share of a lesson's sentences may be long
MAX_LONG_SHARE = 0.05

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}|:{3,})")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_TABLE = re.compile(r"^\s*\|")
_RULE = re.compile(r"^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_EMPHASIS = re.compile(r"(\*\*|__|\*|(?<!\w)_|_(?!\w))")
ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "no.", "Dr.", "Mr.", "Mrs.", "Ms.", "p.")
_END = re.compile(r"(?<=[.!?])[\"'”’)\]*_]*\s+")
_WORD = re.compile(r"[^\W_]", re.UNICODE)


@dataclass(frozen=True)
class Sentence:
    """One sentence of a lesson's prose: its words and the markdown cell (1-based, in the copy) it is in."""

    text: str
    cell: int

    @property
    def words(self) -> int:
        return count_words(self.text)


@dataclass
class LessonWords:
    """The sentences of one lesson's student copy, and what the limits say of them."""

    lesson: str
    sentences: list[Sentence] = field(default_factory=list)

    @property
    def long(self) -> list[Sentence]:
        return [s for s in self.sentences if s.words > LONG]

    @property
    def too_long(self) -> list[Sentence]:
        return [s for s in self.sentences if s.words > MAX_WORDS]

    @property
    def long_share(self) -> float:
        return len(self.long) / len(self.sentences) if self.sentences else 0.0

    @property
    def longest(self) -> int:
        return max((s.words for s in self.sentences), default=0)

    def problems(self) -> list[str]:
        """What breaks the limits, one line each with the offending sentences and their word counts ([] if none)."""
        out = []
        if self.too_long:
            out.append(f"{self.lesson}: {len(self.too_long)} sentence(s) over {MAX_WORDS} words:")
            out += [f"  [{s.words} words, cell {s.cell}] {s.text}" for s in self.too_long]
        if self.long_share > MAX_LONG_SHARE:
            out.append(f"{self.lesson}: {self.long_share:.0%} of {len(self.sentences)} sentences are over {LONG} "
                       f"words (at most {MAX_LONG_SHARE:.0%} may be):")
            out += [f"  [{s.words} words, cell {s.cell}] {s.text}" for s in self.long]
        return out

    def summary(self) -> str:
        return (f"{self.lesson}: {len(self.sentences)} sentences, {self.long_share:.0%} over {LONG} words "
                f"({len(self.long)}), longest {self.longest} words")


def count_words(text: str) -> int:
    """Words of ``text``: runs between white space holding a letter or a digit."""
    return sum(1 for token in text.split() if _WORD.search(token))


def _plain(line: str) -> str:
    """A markdown line as a learner reads it: link text, code spans as one word, no emphasis marks or tags."""
    line = _IMAGE.sub(" ", line)
    line = _LINK.sub(r"\1", line)
    spans: list[str] = []

    def keep(m: re.Match[str]) -> str:  # a code span is one word: its text without white space
        spans.append("`" + "".join(m.group(2).split()) + "`")
        return f"\x00{len(spans) - 1}\x00"

    line = _CODE_SPAN.sub(keep, line)
    line = _EMPHASIS.sub("", _TAG.sub(" ", line))
    return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], line)


def prose_blocks(markdown: str) -> list[str]:
    """The blocks of prose of one markdown cell (paragraphs and list items), in plain words."""
    markdown = _COMMENT.sub("", markdown)
    blocks: list[list[str]] = [[]]
    fence: str | None = None
    for line in markdown.split("\n"):
        m = _FENCE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark):].strip():
                fence = None
            blocks.append([])
            continue
        if fence is not None:
            continue
        if not line.strip() or _HEADING.match(line) or _TABLE.match(line) or _RULE.match(line):
            blocks.append([])
            continue
        item = _ITEM.match(line)
        if item:
            blocks.append([line[item.end():]])
            continue
        blocks[-1].append(line.lstrip(" >"))
    joined = (" ".join(_plain(x).strip() for x in block) for block in blocks)
    return [b for b in (" ".join(j.split()) for j in joined) if count_words(b)]


def split_sentences(block: str) -> list[str]:
    """Sentences of one block of prose (see the module's docstring for where a sentence ends)."""
    out: list[str] = []
    start = 0
    for m in _END.finditer(block):
        before = block[start:m.end()]
        last = before.split()[-1] if before.split() else ""
        bare = last.strip("\"'“”‘’()[]*_")
        if bare.lower() in (a.lower() for a in ABBREVIATIONS) or re.fullmatch(r"(?:[A-Za-z]\.){2,}", bare):
            continue
        out.append(before.strip())
        start = m.end()
    out.append(block[start:].strip())
    return [s for s in out if count_words(s)]


def sentences_of(notebook: dict) -> list[Sentence]:
    """Every sentence of the markdown cells of ``notebook`` (a student copy), in order."""
    found = []
    for index, cell in enumerate(notebook.get("cells", []), start=1):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else source
        for block in prose_blocks(text):
            found += [Sentence(s, index) for s in split_sentences(block)]
    return found


def learner_copy(path: str | Path) -> dict:
    """The student copy of lesson ``path`` (a notebook, read with its text twin as ``make student`` does)."""
    copy, _ = student_copy(read_lesson(path), path)
    return copy


def measure(path: str | Path, name: str | None = None) -> LessonWords:
    """The sentences of the learners' copy of lesson ``path``."""
    path = Path(path)
    return LessonWords(name or path.stem, sentences_of(learner_copy(path)))
