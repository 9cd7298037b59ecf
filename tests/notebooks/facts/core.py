"""The numbers a lesson's prose states, each tied to the kit's own computation (issue 12, part 3).

A lesson's text (``notebooks/NN-*.md``, outside the code cells) states numbers:
probabilities, counts, expected values, coverages. Each one is a *fact*: a
snippet of the lesson's wording with ``{}`` where a number goes, and a function
that computes those numbers with the kit. ``tests/notebooks/test_prose_facts.py``
renders every fact and checks that the lesson says exactly that, and that no
other number is left in the prose: a number that is not computed must be named
as :class:`Given` (a seed, a rule of the game, a count chosen for an example),
with the reason.

The facts live beside the tests, one module a lesson (``lesson_NN.py``: its
``FACTS`` and ``GIVEN``), not in the kit: they are checks, not something a
learner's kernel needs (issue 28).

So when the deck, a rule or a function changes, the facts change and the text
no longer matches; when someone edits a number in the text, it no longer
matches its fact. Both fail the test, which names the fact.

>>> f = Fact("02", "only **14** of them are Elephants", lambda: (14,))
>>> f.render()
'only 14 of them are Elephants'
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

__all__ = ["Fact", "Given", "prose", "render_value", "check_text", "facts_of"]


def render_value(x) -> str:
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, float):
        raise TypeError("format floats in the fact's function (the text's rounding), e.g. f'{x:.3f}'")
    return str(x)


def _plain(snippet: str) -> str:
    return re.sub(r"\s+", " ", snippet.replace("**", "").replace("*", "")).strip()


@dataclass(frozen=True)
class Fact:
    """``text`` as the lesson writes it, with ``{}`` for each computed number; ``compute()`` gives them."""

    lesson: str
    text: str
    compute: Callable[[], tuple]

    def render(self) -> str:
        values = self.compute()
        return _plain(self.text.format(*(render_value(v) for v in values)))


@dataclass(frozen=True)
class Given:
    """A number the lesson states that is not computed (a seed, a choice for an example), and why."""

    lesson: str
    text: str
    why: str

    def render(self) -> str:
        return _plain(self.text)


_BEFORE = [
    r"\$\$.*?\$\$",  # display formulas (symbols only)
    r"^#+ [^\n]*$",  # headings: section numbers, lesson titles
    r"\bTiming \(about \d+ min\)\.[^\n]*(?:\n(?!\n|- )[^\n]*)*",  # timings: test_lesson_timings.py
]


_AFTER = [
    r"\]\([^)]*\)",  # link targets
    r"\b(?:lessons?|notebook|Lessons?) 0\d(?:–0\d)?\b",  # a reference to a lesson
    r"\b0\d · ",  # a lesson's name in a link
    r"\b0\d (?=about|and|build|right after|estimates)",
    r"\b[WK]\d+(?:–[WK]\d+)?\b",  # rulings and card ids
    r"\(about \d+ minutes\)|about \d+ minutes",  # timings: tests/notebooks/test_lesson_timings.py
    r"\bseed \d+\b",  # a seed names a shuffle, it is not a result
    r"\bVariation 1\b",  # a rule's name
    r"\blog10\b|\blog₂",
    r"\bseats? \d\b",  # a seat names a player
    r"n/\(n\+1\)|\(n\+1\)|\bn ?\+ ?1\b|\bp/2\b|1/√n|p\(1 − p\)",  # symbolic formulas
    r"\bruns? \d+(?! times)\b",  # a run's number names a press of Simulate (lesson 05)
]


def prose(text: str, before: list[str] | None = None, after: list[str] | None = None) -> str:
    """A lesson's prose as facts are written against: no code cells, no inline code with digits or
    brackets, no emphasis, whitespace collapsed, and structural numbers (headings, lesson and ruling
    references, timings, seeds) removed. ``before``/``after``: the structural patterns of another language
    (the Spanish lessons' ``facts/es``), instead of the English ones."""
    if text.startswith("---"):
        text = text.split("---\n", 2)[2]
    lines, in_code = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if not in_code and line.strip() != "+++":
            lines.append(line)
    out = "\n".join(lines)
    out = re.sub(r"`([^`]*)`", lambda m: "" if re.search(r"[\d(]", m.group(1)) else m.group(1), out)
    for pattern in _BEFORE if before is None else before:
        out = re.sub(pattern, " ", out, flags=re.M | re.S)
    out = _plain(out)
    for pattern in _AFTER if after is None else after:
        out = re.sub(pattern, " ", out)
    return _plain(out)


def facts_of(lesson: str) -> list:
    """Lesson ``lesson``'s facts and givens, from its module ``lesson_NN.py`` beside this one."""
    module = importlib.import_module(f"{__package__}.lesson_{lesson}")
    found = [*module.FACTS, *module.GIVEN]
    wrong = [f for f in found if f.lesson != lesson]
    assert not wrong, f"lesson_{lesson}.py holds facts of another lesson: {wrong}"
    return found


def check_text(lesson: str, text: str) -> list[str]:
    """Problems with a lesson's text: facts it does not state as computed, and numbers no fact covers."""
    return check_facts(lesson, prose(text), facts_of(lesson))


def check_facts(label: str, body: str, facts) -> list[str]:
    """Problems of ``body`` (a lesson's prose, any language) against its ``facts``; ``label`` names the lesson."""
    problems = []
    covered = body
    for f in facts:
        try:
            snippet = f.render()
        except Exception as e:  # noqa: BLE001  (a fact that cannot be computed is a problem to report)
            problems.append(f"{label}: fact {f.text!r} could not be computed: {e!r}")
            continue
        if snippet not in body:
            problems.append(f"{label}: the text does not say {snippet!r}")
        covered = covered.replace(snippet, " ")
    for m in re.finditer(r"\d+(?:[.,]\d+)*", covered):
        a, b = max(0, m.start() - 40), m.end() + 40
        problems.append(f"{label}: the number {m.group(0)!r} is not tied to a fact: ...{covered[a:b]}...")
    return problems

