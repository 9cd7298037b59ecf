"""Answer leaks: does a copy of a lesson give an exercise's answer away?

A student copy (``make student``) must let a learner *work out* every answer. This module looks for
each registered exercise's answer in a notebook's text (markdown and code) and in its outputs, in
the forms a learner would type or read, and reports every place it finds one. The tests run it on
the student copies (expecting nothing) and on the teacher's copies (expecting the leaks that the
"For teachers" notes are known to hold: a detector that finds nothing there could not fail).

How an answer is looked for, and why:

* **Distinctive numbers** (a fraction like 7/37, an integer of 10 or more, a decimal answer): every
  number written in the lesson is read (``14/74``, ``14 / 74``, ``\\frac{14}{74}``, ``0.189``,
  ``18.9%``, ``1,534``) and compared *by value* with the answer, so ``14/74`` is found for 7/37 and
  ``0.19`` for 0.189. Decimals and percents count from two significant digits: ``0.2`` is not
  taken for 0.189.
* **Common numbers** (small integers, fractions like 1/2 or 7/8, a ratio of 2) are written
  everywhere ("step 2", "1/2 of the cards"), so only *answer-giving* wording counts: "it is 2",
  "(5 instead of 6)", "with probability 1/2", "twice", "two times", "4 times the trials ... 2",
  or the number (digits or words) right beside the words of the exercise's own question ("stops
  after 4 safe reveals" for "after how many safe reveals may you stop?"). The exercise's question
  itself is not searched for its own answer this way.
* **Common wrong answers explained**: a number for which the exercise's check gives a specific hint
  (a known wrong answer), beside the question's words and followed by a correction ("5 safe reveals
  (counting the challenged card)"), tells the learner what the answer is not and why.
* **Answers in words**: :data:`WORDED` lists, per exercise whose answer is a word or a rule, the
  phrases that give it away ("strictly higher" for the tie quiz; an item name beside the card it
  is asked about).

Where: the text of every cell (markdown and code: a learner scrolls), and the outputs of every cell, above
an exercise's check or below it (issue 27: a printout one screen below an exercise answers it for a learner
who scrolls on before answering). Only an output that says it is a recap is left out: a code cell tagged
``recap``, or one under a markdown heading whose title says "Recap" or "Summary" (to the next heading of the
same or a higher level); ``recaps=True`` reports those too. Only the exercises of the notebook's own lesson
are looked for (``02-*.ipynb``: ``02.*``): a later lesson may use an earlier answer. Lesson 07's quiz asks
the rules its tutorials show, so its answers are looked for in its text only (:data:`READ_IN_OUTPUTS`).

Run ``python -m safari_kit.authoring.answer_leaks FOLDER`` to list the leaks of every notebook in a
folder (exit status 1 if there is one).
"""
from __future__ import annotations

import html
import json
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable

from safari_kit.authoring.leak_words import (
    NUMBER_WORDS, TIMES_WORDS, FRACTION_WORDS, WORDED, READ_IN_OUTPUTS, STOP, GENERIC, _LETTERS, LABELS, ANSWERING,
    CORRECTION, EXERCISE_WORD, GIVING_BEFORE, GIVING_AFTER, notebook_language, comma_decimals,
    _writes_decimal_comma,
)

__all__ = ["Leak", "AnswerForms", "answer_forms", "find_leaks", "find_leaks_in_folder", "lesson_of", "recap_cells",
           "WORDED"]

INT = r"\d{1,3}(?:,\d{3})+|\d+"
_FRACTION = re.compile(rf"(?<![\w.,/])({INT})\s*[/⁄]\s*({INT})(?![\w/]|[.,]\d)")
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\{\s*(\d+)\s*\}\{\s*(\d+)\s*\}|\bFraction\(\s*(\d+)\s*,\s*(\d+)\s*\)")
_DECIMAL = re.compile(r"(?<![\w.,/])(\d*\.\d+)(?![\d/])")
_PERCENT = re.compile(r"(?<![\w.,/])(\d+(?:\.\d+)?)\s*(?:%|percent\b|per cent\b)")
_INTEGER = re.compile(rf"(?<![\w.,/⁄\\])({INT})(?![\w/⁄%]|[.,]\d)")
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Leak:
    """One place where an answer shows: the exercise, where (``file cell N, source|output``), why, and the text."""

    key: str
    where: str
    why: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.key} ({self.why}): …{self.text}…"


@dataclass(frozen=True)
class AnswerForms:
    """An exercise's answer as the detector looks for it."""

    key: str
    value: Any                 # Fraction, float, int, or a str for a compare exercise
    distinctive: bool          # found anywhere by value; otherwise only with answer-giving wording
    words: tuple[str, ...]     # the answer in words or as a ratio ("two", "twice", "a coin flip")
    question_terms: tuple[str, ...]
    wrong: tuple[Any, ...]     # common wrong answers (a specific hint applies)
    tolerance: float
    pools: tuple[int, ...] = ()  # the counts the question counts out of ("the other 74 cards"): a count answer
    #                              written as a chance over one of them ("31/74") gives the count away


def lesson_of(name: str) -> str | None:
    """The lesson number of a notebook file name, ``"02"`` for ``02-identification.ipynb``."""
    m = re.match(r"(\d\d)-", Path(name).name)
    return m.group(1) if m else None


def _number(value: Any) -> Fraction | float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000) if float(Fraction(value).limit_denominator(1000)) == value \
            else value
    return None


def _is_distinctive(value: Fraction | float) -> bool:
    if isinstance(value, float):
        return True
    if value.denominator == 1:
        return abs(value) >= 10
    return value.denominator >= 10


def _stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def question_terms(question: str) -> tuple[str, ...]:
    """The content words (stems) of what an exercise *asks*: its sentences with "?" or "how many/what/which".

    The rest of the question (the set-up: "Player 1 failed with two clue cards") is no answer's context.
    """
    text = re.sub(rf"\*\*{EXERCISE_WORD} `[^`]+`\.\*\*", " ", question)
    text = re.sub(r"`[^`]*`|\([^)]*\)", " ", text)
    asked = [t for t in re.split(r"(?<=[.?!])\s+", text)
             if "?" in t or re.search(r"\b(?:how many|how much|what|which|when)\b", t, re.I)] or [text]
    words = {_stem(w) for t in asked for w in re.findall(_LETTERS, t) if len(w) >= 3}
    return tuple(sorted(w for w in words if w not in STOP and w not in GENERIC))


def _wrong_answers(exercise, candidates: Iterable[Fraction]) -> tuple[Any, ...]:
    wrong = []
    for value in candidates:
        for hint in exercise.hints:
            try:
                if hint.applies(value):
                    wrong.append(value)
                    break
            except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
                continue
    return tuple(wrong)


def answer_forms(exercise, question: str = "") -> AnswerForms:
    """What to look for: ``exercise``'s answer (computed by its ``answer()``), its words, its question's terms."""
    raw = exercise.answer()
    value = _number(raw)
    words: list[str] = []
    if value is None:                       # a compare exercise: its words are in WORDED
        return AnswerForms(exercise.key, raw, False, (), question_terms(question), (), 0.0)
    exact = value if isinstance(value, Fraction) else None
    if exact is not None and exact.denominator == 1 and 0 <= exact < len(NUMBER_WORDS):
        n = int(exact)
        words += [NUMBER_WORDS[n], f"{NUMBER_WORDS[n]} times", f"{n} times", f"{n}×", f"×{n}", f"{n}x",
                  f"factor of {n}", f"factor {n}", f"{n}-fold", f"{NUMBER_WORDS[n]}fold"]
        words += TIMES_WORDS.get(n, [])
    if exact is not None:
        words += FRACTION_WORDS.get(exact, [])
    candidates = [Fraction(n) for n in range(0, 13)]
    if exact is not None:
        candidates += [exact + d for d in (Fraction(-1), Fraction(1))]
    wrong = _wrong_answers(exercise, candidates) if exercise.compare is None else ()
    wrong = tuple(w for w in wrong if w != value)
    pools: tuple[int, ...] = ()
    if exact is not None and exact.denominator == 1 and _is_distinctive(value):
        pools = tuple(sorted({_int(m.group(0)) for m in _INTEGER.finditer(question)} - {int(exact)}))
    return AnswerForms(exercise.key, value, _is_distinctive(value), tuple(words), question_terms(question),
                       wrong, float(exercise.tolerance), pools)


# ----------------------------------------------------------------------------- reading numbers
def _int(text: str) -> int:
    return int(text.replace(",", ""))


def numbers_in(text: str) -> list[tuple[int, int, Fraction | float, str]]:
    """Every number written in ``text``: (start, end, value, kind), kind one of fraction/decimal/percent/integer.

    >>> [(v, k) for _, _, v, k in numbers_in("14/74 (= 7/37) ≈ 0.189, 18.9 %, 1,534 trials")]
    [(Fraction(7, 37), 'fraction'), (Fraction(7, 37), 'fraction'), (0.189, 'decimal'), (0.189, 'percent'), \
(Fraction(1534, 1), 'integer')]
    """
    found: list[tuple[int, int, Fraction | float, str]] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in taken)

    for rx, kind in ((_LATEX_FRACTION, "fraction"), (_FRACTION, "fraction")):
        for m in rx.finditer(text):
            a, b = [g for g in m.groups() if g is not None][:2]
            if free(*m.span()) and _int(b) != 0:
                found.append((m.start(), m.end(), Fraction(_int(a), _int(b)), kind))
                taken.append(m.span())
    for m in _PERCENT.finditer(text):
        if free(*m.span()):
            found.append((m.start(), m.end(), float(Fraction(m.group(1)) / 100), "percent"))
            taken.append(m.span())
    for m in _DECIMAL.finditer(text):
        if free(*m.span()):
            found.append((m.start(), m.end(), float(m.group(1)), "decimal"))
            taken.append(m.span())
    for m in _INTEGER.finditer(text):
        if free(*m.span()):
            found.append((m.start(), m.end(), Fraction(_int(m.group(1))), "integer"))
            taken.append(m.span())
    return sorted(found, key=lambda f: f[0])


def _accepted(value: Fraction | float, found: Fraction | float, tolerance: float) -> bool:
    """Would the exercise's check accept ``found`` (a number read from the text) as its answer? The check's
    own comparison (:func:`safari_kit.teaching.exercises.close`): a fraction exactly, a decimal within the
    exercise's tolerance; so "0.19" gives 7/37 away and "0.2" does not."""
    from safari_kit.teaching.exercises import close

    return close(found if isinstance(found, float) else Fraction(found), value, tolerance)


# ----------------------------------------------------------------------------- texts of a notebook
def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _strings(value: Any) -> list[str]:
    """The text leaves of a widget's state value (numbers in it are ids, sizes and counts, not prose)."""
    if isinstance(value, str):
        return [] if value.startswith("IPY_MODEL_") else [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _strings(v)]
    if isinstance(value, list):
        return [t for v in value for t in _strings(v)]
    return []


def _plain(text: str) -> str:
    return html.unescape(_TAGS.sub(" ", text)) if "<" in text else text


def _widget_texts(model_id: str, state: dict, seen: set[str]) -> list[str]:
    """What a widget (and the widgets inside it) shows: its state's strings, without code, styles and layout."""
    if model_id in seen or model_id not in state:
        return []
    seen.add(model_id)
    texts = []
    for key, value in (state[model_id].get("state") or {}).items():
        refs = re.findall(r"IPY_MODEL_(\w+)", json.dumps(value))
        for ref in refs:
            texts += _widget_texts(ref, state, seen)
        if key.startswith("_") or key in ("layout", "style", "children"):
            continue
        texts += [_plain(t) for t in _strings(value)]
    return texts


def _output_texts(cell: dict, widgets: dict) -> list[str]:
    texts = []
    for out in cell.get("outputs", []) or []:
        if "text" in out:
            t = out["text"]
            texts.append("".join(t) if isinstance(t, list) else t)
        for mime, data in (out.get("data") or {}).items():
            if mime.startswith("image/"):
                continue
            if mime == "application/vnd.jupyter.widget-view+json":
                texts += _widget_texts(data.get("model_id", ""), widgets, set())
                continue
            t = "".join(data) if isinstance(data, list) else data
            if not isinstance(t, str):
                t = json.dumps(t)
            texts.append(_plain(t) if mime == "text/html" else t)
        if out.get("output_type") == "error":
            texts.append(" ".join([out.get("ename", ""), out.get("evalue", "")]))
    return list(dict.fromkeys(texts))


def texts_of(notebook: dict) -> list[tuple[int, str, str]]:
    """(cell index, "markdown" | "code" | "output", text) of every cell's source and outputs of ``notebook``
    (a widget's output is what its saved state shows)."""
    widgets = ((notebook.get("metadata") or {}).get("widgets") or {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    texts = []
    for i, cell in enumerate(notebook.get("cells", [])):
        texts.append((i, cell.get("cell_type", "?"), _source(cell)))
        for text in _output_texts(cell, widgets):
            texts.append((i, "output", text))
    return texts


def exercise_questions(notebook: dict) -> dict[str, tuple[int, str]]:
    """{key: (cell index, question text)} of the exercises written in ``notebook``."""
    found: dict[str, tuple[int, str]] = {}
    for i, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "markdown":
            continue
        for m in re.finditer(rf"\*\*{EXERCISE_WORD} `(\d\d\.[\w-]+)`\.\*\*(.*?)(?:\n\s*\n|\Z)", _source(cell), re.S):
            found[m.group(1)] = (i, m.group(0))
    return found


# ----------------------------------------------------------------------------- the search
def _unwrap(text: str) -> str:
    """Markdown with its soft line breaks joined: a sentence may run over several lines of the source."""
    return re.sub(r"\n(?![ \t]*(?:$|[-*+>|#]|\d+[.)]\s|\n))[ \t]*", " ", text)


def _sentences(text: str) -> list[str]:
    """Split at full stops, semicolons, line breaks (list items, table rows, printed lines)."""
    return [t for t in re.split(r"(?<=[.!?])\s+(?=[A-Z(*\"'`“])|(?<=;)\s+|\n", text) if t.strip()]


def _words(text: str) -> list[str]:
    return [w.lower() for w in re.findall(_LETTERS, text)]


_BARRIER = re.compile(r"[:;,=()\[\]{}|<>→]|\s[-–—]\s")


def _near_terms(sentence: str, start: int, end: int, terms: tuple[str, ...], reach: int = 3) -> bool:
    """Is one of the question's terms within ``reach`` words of sentence[start:end], in the same phrase
    (no colon, comma, bracket or equals sign between: "3 players: certainly out" is two phrases)?"""
    before = _BARRIER.split(sentence[:start])[-1]
    after = _BARRIER.split(sentence[end:])[0]
    around = _words(before)[-reach:] + _words(after)[:reach]
    return any(_stem(w) in terms for w in around)


def _is_label(sentence: str, start: int) -> bool:
    """Is the number at ``start`` a name ("Player 1", "run 2") rather than a count (unless given as an answer)?"""
    before = _words(sentence[:start])[-2:]
    if not before or before[-1] not in LABELS or sentence[:start].rstrip()[-1:] in ")]":
        return False
    return not (len(before) == 2 and before[0] in ANSWERING)


def _answered(sentence: str, start: int) -> bool:
    """Is the number at ``start`` given as somebody's answer ("answering round 2", "giving 10")?"""
    return any(w in ANSWERING for w in _words(sentence[:start])[-2:])




def _giving(sentence: str, start: int, end: int) -> bool:
    return bool(GIVING_BEFORE.search(sentence[:start]) or GIVING_AFTER.match(sentence[end:]))


def _corrected(sentence: str, end: int, reach: int = 5) -> bool:
    """Does a correction follow the number at ``end`` within ``reach`` words ("5 safe reveals (counting …)")?"""
    rest = sentence[end:]
    for _ in range(reach + 1):
        if CORRECTION.match(rest):
            return True
        m = re.match(r"\s+[^\W\d_][\w'-]*", rest)
        if not m:
            return False
        rest = rest[m.end():]
    return False


#: lesson and exercise names ("05.misses", "02-identification", "lesson 05") are not numbers of a lesson's text
_NAMES = re.compile(r"\b\d\d\.[a-z][\w-]*|\b\d\d-[a-z][\w-]*|(?<![\w.,/])0\d(?![\w.,/])")


def _specific(written: str, kind: str) -> bool:
    """Is a common answer written in a form nobody writes by chance: 0.875 or 87.5% (three significant
    digits), 37/74 (a fraction not in lowest terms, or with a denominator of 10 or more)?"""
    if kind in ("decimal", "percent"):
        digits = re.sub(r"\D", "", written.split("%")[0]).lstrip("0")
        return len(digits) >= 3
    if kind == "fraction":
        a, b = (int(x.replace(",", "")) for x in re.findall(INT, written)[:2])
        return b >= 10 or Fraction(a, b).denominator != b
    return False


def _renders(fraction: Fraction | float | None, found: Fraction | float, kind: str, written: str) -> Fraction | None:
    """The fraction written just before a decimal or percent that only renders it ("1/5 = 0.2", "7/37 ≈ 18.9%")."""
    if fraction is None or kind not in ("decimal", "percent"):
        return None
    digits = written.split("%")[0].strip()
    places = len(digits.split(".")[1]) if "." in digits else 0
    step = 10.0 ** -(places + (2 if kind == "percent" else 0))
    return Fraction(fraction) if abs(float(fraction) - float(found)) <= step / 2 + 1e-12 else None


def _mask(text: str) -> str:
    """``text`` with lesson and exercise names blanked out (same length, so offsets still fit)."""
    return _NAMES.sub(lambda m: " " * len(m.group(0)), text)


def _leaks_in(text: str, where: str, forms: AnswerForms, *, asks: bool) -> list[Leak]:
    """The leaks of one answer in one text; ``asks``: the text is the exercise's own question (only
    the answer in its own digits counts there: a question may say "two clue cards" when the answer is 2)."""
    leaks: list[Leak] = []
    value = forms.value
    if not isinstance(value, (Fraction, float)):
        return leaks
    small = isinstance(value, Fraction) and value in (0, 1)
    for original in _sentences(text):
        sentence = _mask(original)
        hits = []
        previous: Fraction | float | None = None
        for start, end, found, kind in numbers_in(sentence):
            written = sentence[start:end].strip()
            renders, previous = _renders(previous, found, kind, written), (found if kind == "fraction" else None)
            if renders is not None and not _accepted(value, renders, forms.tolerance):
                continue  # "15/75 (= 1/5) = 0.2": the decimal is the fraction before it, not an answer of 0.197
            if _accepted(value, found, forms.tolerance):
                if forms.distinctive or _specific(written, kind):
                    hits.append(f"the answer written as {written!r}")
                elif asks:
                    continue
                elif _giving(sentence, start, end):
                    hits.append(f"answer-giving wording around {written!r}")
                elif not small and not _is_label(sentence, start) and \
                        (_answered(sentence, start) or _near_terms(sentence, start, end, forms.question_terms)):
                    hits.append(f"{written!r} beside the question's words")
            elif kind == "fraction" and forms.pools and (m := _FRACTION.search(written)) and \
                    _int(m.group(1)) == value and _int(m.group(2)) in forms.pools:
                hits.append(f"the answer written as a count over the question's {_int(m.group(2))}: {written!r}")
            elif (not asks and kind in ("integer", "fraction") and Fraction(found) in forms.wrong
                  and not _is_label(sentence, start)
                  and (_answered(sentence, start) or (Fraction(found) not in (0, 1) and
                                                      _near_terms(sentence, start, end, forms.question_terms)))
                  and _corrected(sentence, end)):
                hits.append(f"the common wrong answer {written!r} explained")
        for word in () if asks else forms.words:
            for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", sentence, re.I):
                if _giving(sentence, m.start(), m.end()):
                    hits.append(f"answer-giving wording around {m.group(0)!r}")
                elif word not in ("one", "zero") and _near_terms(sentence, m.start(), m.end(), forms.question_terms):
                    hits.append(f"{m.group(0)!r} beside the question's words")
                else:
                    continue
                break
        for why in dict.fromkeys(hits):
            leaks.append(Leak(forms.key, where, why, original.strip()[:200]))
    return leaks


def _worded_leaks(text: str, where: str, key: str) -> list[Leak]:
    leaks = []
    for phrase, context in WORDED.get(key, []):
        for sentence in _sentences(text):
            m = re.search(phrase, sentence, re.I)
            if m and all(re.search(c, sentence, re.I) for c in context):
                leaks.append(Leak(key, where, f"the answer in words {m.group(0)!r}", sentence.strip()[:200]))
    return leaks


RECAP_TAG = "recap"
#: a heading that says its section is a recap: its outputs may repeat answers
RECAP_TITLE = re.compile(r"\b(?:recap|summary)\b", re.I)
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$", re.M)


def recap_cells(notebook: dict) -> set[int]:
    """Indexes of the code cells that say they are a recap: tagged ``recap``, or under a markdown heading
    whose title says "Recap" or "Summary" (its section runs to the next heading of the same or a higher
    level). Their outputs below an exercise's check may repeat its answer; no other output may."""
    found: set[int] = set()
    section: int | None = None   # the level of the open recap section
    for i, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") == "markdown":
            for m in _HEADING.finditer(_source(cell)):
                level = len(m.group(1))
                if RECAP_TITLE.search(m.group(2)):
                    section = level if section is None else min(section, level)
                elif section is not None and level <= section:
                    section = None
        elif cell.get("cell_type") == "code" and (
                section is not None or RECAP_TAG in (cell.get("metadata") or {}).get("tags", [])):
            found.add(i)
    return found


def check_cells(notebook: dict) -> dict[str, int]:
    """{key: index of the cell ``check("KEY", my_answer)``} of ``notebook``."""
    found: dict[str, int] = {}
    for i, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") == "code":
            for key in re.findall(r"check\([\"'](\d\d\.[\w-]+)[\"'],\s*my_answer\)", _source(cell)):
                found.setdefault(key, i)
    return found


def find_leaks(notebook: dict, name: str, exercises: dict | None = None, *, recaps: bool = False) -> list[Leak]:
    """Every place in ``notebook`` (file name ``name``) that gives away an answer of its lesson's exercises.

    The text of every cell counts (a learner scrolls), and so do the outputs of every cell, above an
    exercise's check or below it: a learner scrolls on before answering. Only the outputs below the check
    of cells that say they are a recap (:func:`recap_cells`) are left out; ``recaps=True`` reports those too.
    A lesson in a language that writes a decimal comma (:func:`notebook_language`: Spanish) is read twice,
    with its numbers as written and with :func:`comma_decimals` (its code and tables write 0.189, its prose 0,189).
    """
    if exercises is None:
        from safari_kit.teaching.exercises import exercises as registered

        exercises = registered()
    lesson = lesson_of(name)
    if lesson is None:
        return []
    questions = exercise_questions(notebook)
    checks = check_cells(notebook)
    texts = texts_of(notebook)
    recap = recap_cells(notebook)
    readings = [lambda t: t]
    if _writes_decimal_comma(notebook_language(notebook)):
        readings.append(comma_decimals)
    leaks: list[Leak] = []
    for key, exercise in sorted(exercises.items()):
        if not key.startswith(lesson + "."):
            continue
        qcell, question = questions.get(key, (None, ""))
        question = _unwrap(question)
        forms = answer_forms(exercise, question)
        last = checks.get(key, len(notebook.get("cells", [])))
        for i, kind, text in texts:
            if kind == "output" and ((i > last and i in recap and not recaps) or key in READ_IN_OUTPUTS):
                continue
            where = f"{name} cell {i + 1} ({kind})"
            own = i == qcell and kind == "markdown"
            if kind == "markdown":
                text = _unwrap(text)
            for read in readings:
                leaks += _leaks_in(read(text.replace(question, " ") if own else text), where, forms, asks=False)
                if own:
                    leaks += _leaks_in(read(question), where, forms, asks=True)
            leaks += _worded_leaks(text, where, key)
    return list(dict.fromkeys(leaks))


def find_leaks_in_folder(folder: str | Path, exercises: dict | None = None) -> list[Leak]:
    """The leaks of every ``*.ipynb`` in ``folder``."""
    leaks = []
    for path in sorted(Path(folder).glob("*.ipynb")):
        leaks += find_leaks(json.loads(path.read_text(encoding="utf-8")), path.name, exercises)
    return leaks


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m safari_kit.authoring.answer_leaks FOLDER", file=sys.stderr)
        return 2
    leaks = find_leaks_in_folder(args[0])
    for leak in leaks:
        print(leak)
    print(f"{len(leaks)} leak(s) in {args[0]}", file=sys.stderr)
    return 1 if leaks else 0


if __name__ == "__main__":
    raise SystemExit(main())
