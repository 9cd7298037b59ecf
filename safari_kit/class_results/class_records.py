"""What a learner did that the class can learn from: one small frozen record per action (issue 21).

The class experiment pools five kinds of action, one record class each:

* :class:`SimulationRun`: one press of **Simulate** (question, trials, successes, and the
  question's exact chance, so runs pool only with runs of the same chance);
* :class:`Guess`: a learner's guess of a chance beside the exact chance and what happened;
* :class:`ChallengeDecision`: one stop-or-continue moment of the Challenge lab: the numbers
  the lab shows (safe reveals so far, P(next safe), the n/(n+1) threshold, the expected
  archive of stopping and of continuing), what the rule said, what the learner chose, and
  the challenge's result (cards archived when it ended);
* :class:`KnockoutPlay`: a card played in the Knockout lab with its exact chance of winning
  the trick, and whether it won;
* :class:`QuizAnswer`: an answer to a quiz question of the rules tutorial.

Every record also carries who and when: ``learner`` (a random id the lab makes for one
session: two learners may pick the same nickname), ``nickname`` (what the learner typed;
nothing else about them is kept), ``lab``, ``at`` (UTC time, ISO 8601) and ``seq`` (the
learner's own count of records, 1, 2, ...). ``(learner, seq)`` names a record: storing
it twice stores it once.

Records hold exact chances as :class:`~fractions.Fraction`. :func:`to_dict` and
:func:`from_dict` turn a record into plain JSON values and back (fractions as "7/37"),
which the results file and the store both use; bad input raises :class:`RecordError`
(a ValueError) whose message names the field and shows the value.
"""
from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from fractions import Fraction
from typing import Any, ClassVar

from safari_kit.class_results.bounded_numbers import COUNT_MAX, NumberError, fraction, whole

from safari_kit.class_results.nicknames import _INVISIBLE, _REFUSED_CATEGORIES, NICKNAME_MAX, excerpt

__all__ = ["RecordError", "Record", "COMMON", "SimulationRun", "Guess", "ChallengeDecision", "KnockoutPlay",
           "QuizAnswer", "KINDS", "LATER_FIELDS", "check_who", "to_dict", "from_dict", "now", "as_chance",
           "NICKNAME_MAX", "TEXT_MAX"]

TEXT_MAX = 200      # a short context, question id or answer
_LEARNER = re.compile(r"[A-Za-z0-9_-]{1,64}")


class RecordError(ValueError):
    """A record with a bad field: the message names the field and shows the value."""


def now() -> str:
    """The current UTC time as the records write it (ISO 8601, seconds)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def as_chance(value: Any, field: str = "chance") -> Fraction:
    """A probability in [0, 1] as an exact Fraction: from a Fraction, an int, a float (its decimal
    digits: 0.3 is 3/10) or a text like "7/37" or "0.25"; bounded before it is built (issue 26:
    ``"1e-300000000"`` is refused at once, :func:`safari_kit.class_results.bounded_numbers.fraction`)."""
    try:
        return fraction(value, field, 0, 1, what="a probability between 0 and 1")
    except NumberError as exc:
        raise RecordError(str(exc)) from None


def _text(value: Any, field: str, limit: int = TEXT_MAX, empty: bool = False) -> str:
    # the message shows a short excerpt only: a 900 kB value must not come back whole (issue 26)
    if not isinstance(value, str) or (not empty and not value.strip()) or len(value) > limit:
        shown = excerpt(value) if isinstance(value, str) else excerpt(repr(value)[:100])
        raise RecordError(f"{field} must be a text of {'0' if empty else '1'} to {limit} characters, got {shown}")
    if any(ord(c) < 32 for c in value):
        raise RecordError(f"{field} must not hold control characters (line breaks, tabs), got {excerpt(value)}")
    return value


def _count(value: Any, field: str, low: int = 0) -> int:
    """A whole number from ``low`` to the field's limit (issue 26: ``trials: 10**15`` drowned a class's pool;
    :data:`safari_kit.class_results.bounded_numbers.LIMITS`)."""
    try:
        return whole(value, field, low)
    except NumberError as exc:
        raise RecordError(str(exc)) from None


def _flag(value: Any, field: str) -> int:
    """An outcome: 1 (it happened) or 0 (it did not); True/False are read as 1/0."""
    if value in (0, 1) and not isinstance(value, float):
        return int(value)
    raise RecordError(f"{field} must be 0 or 1, got {value!r}")


def _maybe_bool(value: Any, field: str) -> bool | None:
    """True, False or None (unknown); the CSV export's cells "True", "False" and "" read back as those."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str) and value in ("True", "False", ""):
        return {"True": True, "False": False, "": None}[value]
    raise RecordError(f"{field} must be true, false or empty (not known), got {value!r}")


def _choice(value: Any, field: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise RecordError(f"{field} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def check_who(learner: Any, nickname: Any) -> None:
    """Raise :class:`RecordError` unless ``learner`` is an id (1 to 64 letters, digits, '-', '_') and
    ``nickname`` a short one-line text."""
    if not isinstance(learner, str) or not _LEARNER.fullmatch(learner):
        raise RecordError(f"learner must be 1 to 64 letters, digits, '-' or '_', got {learner!r}")
    _text(nickname, "nickname", NICKNAME_MAX)
    # what displays as something else (bidi overrides, zero-width characters, line separators) is never a name
    # the teacher's page shows, whatever file it came from (issue 26: safari_kit.class_results.nicknames)
    if _INVISIBLE.search(nickname) or any(unicodedata.category(c) in _REFUSED_CATEGORIES for c in nickname):
        raise RecordError(f"nickname must not hold hidden, format or control characters (zero-width, "
                          f"right-to-left override, line separator), got {nickname!r}")


@dataclass(frozen=True, kw_only=True)
class Record:
    """Who did it and when: the fields every kind of record shares (see the module's docstring)."""

    learner: str
    nickname: str
    lab: str
    at: str
    seq: int

    kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        check_who(self.learner, self.nickname)
        _text(self.lab, "lab", 40)
        try:
            when = datetime.fromisoformat(self.at) if isinstance(self.at, str) else None
        except ValueError:
            when = None
        if when is None or when.utcoffset() is None:
            raise RecordError(f"at must be a time in ISO 8601 with its UTC offset, like {now()!r}, got {self.at!r}")
        _count(self.seq, "seq", 1)
        self._check()

    def _check(self) -> None:  # the kind's own fields
        raise NotImplementedError

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)


@dataclass(frozen=True, kw_only=True)
class SimulationRun(Record):
    """One press of Simulate: ``successes`` of ``trials`` for ``question`` (a key of the lab's
    questions) whose exact chance at the lab's position is ``exact``; ``seed`` the lab's seed
    (None when the lab drew from a secret one) and ``run`` the press (run k of Simulate): with a shared
    class seed, run k with the same trials is the *same draw* on every screen, which the class's
    table counts (:meth:`~safari_kit.class_results.class_tables.ClassResults.simulation`, ``same_draws``)."""

    question: str
    trials: int
    successes: int
    exact: Fraction
    seed: int | None = None
    run: int | None = None

    kind: ClassVar[str] = "simulation-run"

    def _check(self) -> None:
        _text(self.question, "question", 60)
        _count(self.trials, "trials", 1)
        _count(self.successes, "successes")
        if self.successes > self.trials:
            raise RecordError(f"successes must be at most trials ({self.trials}), got {self.successes!r}")
        self._set("exact", as_chance(self.exact, "exact"))
        if self.seed is not None:
            _count(self.seed, "seed")
        if self.run is not None:
            _count(self.run, "run", 1)


@dataclass(frozen=True, kw_only=True)
class Guess(Record):
    """A guessed chance (``guess``) beside the exact one (``exact``) and the outcome (1: it happened);
    ``context``: a few words saying what was guessed; ``chance_seen`` (issue 26): True when the exact chance
    was on the learner's screen before the guess (a copy, not a guess), False when it was hidden, None when
    not known (files written before the field). The class's calibration counts only hidden-chance guesses."""

    guess: Fraction
    exact: Fraction
    outcome: int
    context: str = ""
    chance_seen: bool | None = None

    kind: ClassVar[str] = "guess"

    def _check(self) -> None:
        self._set("guess", as_chance(self.guess, "guess"))
        self._set("exact", as_chance(self.exact, "exact"))
        self._set("outcome", _flag(self.outcome, "outcome"))
        _text(self.context, "context", empty=True)
        self._set("chance_seen", _maybe_bool(self.chance_seen, "chance_seen"))


@dataclass(frozen=True, kw_only=True)
class ChallengeDecision(Record):
    """A stop-or-continue moment of a challenge, with the Challenge lab's numbers.

    ``safe_so_far``: safe reveals so far (stopping now archives n = 1 + safe_so_far cards);
    ``p_next``: P(next reveal safe) at the best place; ``stop_value``/``continue_value``: the
    expected cards archived by stopping now (None: not allowed yet) and by revealing on, then
    playing optimally; ``rule``: what the n/(n+1) rule says ("stop" or "continue");
    ``choice``: what the learner did; ``result``: cards archived when the challenge ended
    (None while it is not over)."""

    challenge: int
    safe_so_far: int
    p_next: Fraction
    stop_value: Fraction | None = None
    continue_value: Fraction | None = None
    rule: str
    choice: str
    result: int | None = None

    kind: ClassVar[str] = "challenge-decision"

    def _check(self) -> None:
        _count(self.challenge, "challenge", 1)
        _count(self.safe_so_far, "safe_so_far")
        self._set("p_next", as_chance(self.p_next, "p_next"))
        for name in ("stop_value", "continue_value"):
            value = getattr(self, name)
            if value is not None:
                try:  # bounded like every chance (issue 26)
                    frac = fraction(value, name, 0, COUNT_MAX, what=(words := "a number of cards >= 0 or None"),
                                    out_of_range=words)
                except NumberError as exc:
                    raise RecordError(str(exc)) from None
                self._set(name, frac)
        _choice(self.rule, "rule", ("stop", "continue"))
        _choice(self.choice, "choice", ("stop", "continue"))
        if self.result is not None:
            _count(self.result, "result")

    @property
    def n_if_stop(self) -> int:
        """Cards archived by stopping now: the challenged card and every safe card so far."""
        return 1 + self.safe_so_far

    @property
    def threshold(self) -> Fraction:
        """n/(n+1): continuing pays (one step ahead) only when P(next safe) is above it."""
        return Fraction(self.n_if_stop, self.n_if_stop + 1)


@dataclass(frozen=True, kw_only=True)
class KnockoutPlay(Record):
    """A card played in Knockout: ``chance`` its exact chance of winning the trick, ``best`` the
    best such chance in the hand (None if unknown), ``outcome`` 1 if it won; ``item`` the data item."""

    chance: Fraction
    outcome: int
    best: Fraction | None = None
    item: str = ""

    kind: ClassVar[str] = "knockout-play"

    def _check(self) -> None:
        self._set("chance", as_chance(self.chance, "chance"))
        if self.best is not None:
            self._set("best", as_chance(self.best, "best"))
        self._set("outcome", _flag(self.outcome, "outcome"))
        _text(self.item, "item", 40, empty=True)


@dataclass(frozen=True, kw_only=True)
class QuizAnswer(Record):
    """An answer to a quiz question of the rules tutorial: ``question`` its id, ``answer`` the answer
    given, ``correct`` 1 if right."""

    question: str
    answer: str
    correct: int

    kind: ClassVar[str] = "quiz-answer"

    def _check(self) -> None:
        _text(self.question, "question", 60)
        _text(self.answer, "answer", empty=True)
        self._set("correct", _flag(self.correct, "correct"))


KINDS: dict[str, type[Record]] = {c.kind: c for c in (SimulationRun, Guess, ChallengeDecision, KnockoutPlay,
                                                       QuizAnswer)}
COMMON = tuple(f.name for f in dataclasses.fields(Record))
#: fields added after the first files were written: a file without them reads them as their default (None: not known)
LATER_FIELDS = frozenset({"chance_seen"})


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)  # "7/37", or "0" and "1"
    return value


def to_dict(record: Record) -> dict[str, Any]:
    """The record as plain JSON values: ``kind`` first, then every field (fractions as "7/37")."""
    out: dict[str, Any] = {"kind": record.kind}
    out.update({f.name: _plain(getattr(record, f.name)) for f in dataclasses.fields(record)})
    return out


def from_dict(data: dict[str, Any]) -> Record:
    """The record :func:`to_dict` wrote. A missing, unknown or bad field raises :class:`RecordError`."""
    if not isinstance(data, dict):
        raise RecordError(f"a record must be a JSON object, got {data!r}")
    kind = data.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    names = [f.name for f in dataclasses.fields(cls)]
    missing = [n for n in names if n not in data and n not in LATER_FIELDS]
    extra = sorted(set(data) - set(names) - {"kind"})
    if missing:
        raise RecordError(f"a {kind} record needs the field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    if extra:
        raise RecordError(f"a {kind} record has no field{'s' if len(extra) > 1 else ''} {', '.join(extra)}")
    return cls(**{n: data[n] for n in names if n in data})
