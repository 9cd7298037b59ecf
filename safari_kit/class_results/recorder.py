"""One learner session's recorder: what the labs call to record an action (issue 21).

A lab does not build records itself: it asks the session's :class:`Recorder` —
``recorder.simulation_run(question=..., trials=..., successes=..., exact=...)`` — and the
recorder adds who and when (the session's random learner id and nickname, the lab, the
UTC time, the next sequence number), keeps the record for the session's download
(:meth:`Recorder.results_text`, the results file) and hands it to ``sink``, if any (the
class server's store: ``ResultStore.add``). Numbering is under a lock, so labs of one
session on different threads never share a number; a record the sink refuses (it
raises) keeps its number and stays in the download, so nothing is lost in silence.
On a recording class server the pages of one browser share a learner id (issue 26), so
``numbering`` (the store's :func:`~safari_kit.class_results.class_learner.next_seq`) gives the
numbers instead of the page's own count.

Recording is off until the learner gives a nickname: a recorder exists only for a
learner who joined (the class server page says what is kept).
"""
from __future__ import annotations

import dataclasses
import secrets
import threading
from collections.abc import Callable
from typing import Any

from safari_kit.class_results.class_records import (ChallengeDecision, Guess, KnockoutPlay, QuizAnswer, Record,
                                                    SimulationRun, check_who, now)
from safari_kit.class_results.results_file import file_name_for, results_text

__all__ = ["Recorder", "new_learner_id"]


def new_learner_id() -> str:
    """A random id for one learner session (not derived from anything about the learner)."""
    return "L" + secrets.token_hex(6)


class Recorder:
    """Records of one learner session; ``sink(record)`` receives each new record (e.g. a store's ``add``).

    >>> from fractions import Fraction
    >>> rec = Recorder("Zed", learner="L1")
    >>> rec.guess("identification", guess=0.2, exact=Fraction(7, 37), outcome=0, context="animal").seq
    1
    >>> rec.quiz_answer("tutorial", question="w-q1", answer="B", correct=True).seq
    2
    """

    def __init__(self, nickname: str, *, learner: str | None = None,
                 sink: Callable[[Record], Any] | None = None, clock: Callable[[], str] = now,
                 numbering: Callable[[], int] | None = None) -> None:
        self.learner = learner or new_learner_id()
        self.nickname = nickname
        self.sink = sink
        self.clock = clock
        self.numbering = numbering
        self._records: list[Record] = []
        self._lock = threading.Lock()
        check_who(self.learner, nickname)  # a bad nickname fails when the learner joins, not at the first action

    def _add(self, cls: type[Record], lab: str, fields: dict[str, Any]) -> Record:
        with self._lock:
            record = cls(learner=self.learner, nickname=self.nickname, lab=lab, at=self.clock(),
                         seq=len(self._records) + 1, **fields)  # a bad field raises before a number is used
            if self.numbering is not None:  # the number shared by the learner's pages (the class's store)
                record = dataclasses.replace(record, seq=self.numbering())
            self._records.append(record)
        if self.sink is not None:
            self.sink(record)
        return record

    def simulation_run(self, lab: str = "simulation", **fields) -> SimulationRun:
        """question, trials, successes, exact, seed=None, run=None (see :class:`SimulationRun`)."""
        return self._add(SimulationRun, lab, fields)  # type: ignore[return-value]

    def guess(self, lab: str, **fields) -> Guess:
        """guess, exact, outcome, context="" (see :class:`Guess`)."""
        return self._add(Guess, lab, fields)  # type: ignore[return-value]

    def challenge_decision(self, lab: str = "challenge", **fields) -> ChallengeDecision:
        """challenge, safe_so_far, p_next, stop_value, continue_value, rule, choice, result=None."""
        return self._add(ChallengeDecision, lab, fields)  # type: ignore[return-value]

    def knockout_play(self, lab: str = "knockout", **fields) -> KnockoutPlay:
        """chance, outcome, best=None, item="" (see :class:`KnockoutPlay`)."""
        return self._add(KnockoutPlay, lab, fields)  # type: ignore[return-value]

    def quiz_answer(self, lab: str = "tutorial", **fields) -> QuizAnswer:
        """question, answer, correct (see :class:`QuizAnswer`)."""
        return self._add(QuizAnswer, lab, fields)  # type: ignore[return-value]

    @property
    def records(self) -> list[Record]:
        with self._lock:
            return list(self._records)

    def results_text(self) -> str:
        """The session's results file (empty string before the first record)."""
        records = self.records
        return results_text(records) if records else ""

    def file_name(self) -> str:
        """The download's file name (``Zed-L1a2b3c.safari-results.jsonl``)."""
        return file_name_for(self.learner, self.nickname)
