"""One learner in the class's database: the nickname they hold, their record numbers and their quota (issue 26).

The class session's SQLite file (:class:`~safari_kit.class_results.class_store.ResultStore`) is
written by every learner's kernel directly. Three things must hold across all of them,
so they live in the database too, in one table ``learners`` (one row per learner id):

* **one nickname, one learner.** A nickname's key
  (:func:`~safari_kit.class_results.nicknames.nickname_key`: look-alikes share it) is held by
  the first learner who joins under it; another learner is refused with
  :class:`NicknameTaken`. A learner holds one nickname: a second page of the same browser
  (the same learner id, :mod:`safari_kit.class_results.learner_tags`) joins under the name the
  browser already holds, whatever it typed.
* **record numbers.** Pages of one browser record under one learner id, so ``seq`` comes
  from the row (:func:`next_seq`), never from a page's own count (two pages would both
  write record 1, and the store refuses a different record under the same number).
* **a quota.** Three pages pressing Simulate wrote 31 records a second and slowed every
  other learner's clicks ×5. :func:`take_quota` lets a learner store a burst of
  :attr:`Quota.burst` records, then one every :attr:`Quota.seconds_per_record` (a token
  bucket), and :attr:`Quota.cap` in the whole session. A record over the quota stays in
  the learner's own download file, not in the class's database; the page tells the
  learner once.

The table is created when first used; a database without it (written before issue 26)
gains it, and a kit that does not know it ignores it.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from safari_kit.class_results.class_session import StoreError
from safari_kit.class_results.nicknames import nickname_key

if TYPE_CHECKING:  # sqlite3 only when a store is used: the labs import this module in the browser too
    import sqlite3

    from safari_kit.class_results.class_store import ResultStore

__all__ = ["Quota", "CLASS_QUOTA", "NicknameTaken", "claim_nickname", "next_seq", "take_quota", "admit", "TAKEN"]

TAKEN = "That nickname is taken in this class. Pick another."

_TABLE = """CREATE TABLE IF NOT EXISTS learners (
    learner TEXT PRIMARY KEY,
    nickname TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    last_seq INTEGER NOT NULL,
    tokens REAL NOT NULL,
    refilled REAL NOT NULL,
    stored INTEGER NOT NULL
)"""


class NicknameTaken(StoreError):
    """Another learner of the session holds this nickname (or one that looks the same); the message is the
    learner's sentence."""


@dataclass(frozen=True)
class Quota:
    """Records one learner may store: ``burst`` at once, then one per ``seconds_per_record``, ``cap`` in all."""

    burst: int = 20
    seconds_per_record: float = 2.0
    cap: int = 300

    def __post_init__(self) -> None:
        if self.burst < 1 or self.cap < 1 or not self.seconds_per_record > 0:
            raise ValueError(f"a quota needs burst >= 1, cap >= 1 and seconds_per_record > 0, got {self}")


#: the class server's quota per learner (a 45-minute lesson of honest play stores well under it)
CLASS_QUOTA = Quota()


_T = TypeVar("_T")


def _transaction(store: ResultStore, work: Callable[[sqlite3.Connection], _T]) -> _T:
    """Run ``work`` in one ``BEGIN IMMEDIATE`` transaction on the store's connection (the table made first)."""

    def run(con: sqlite3.Connection) -> _T:
        con.execute("BEGIN IMMEDIATE")
        try:
            con.execute(_TABLE)
            out = work(con)
            con.execute("COMMIT")
            return out
        except BaseException:
            con.execute("ROLLBACK")
            raise

    from safari_kit.class_results.class_store import _writer_lock

    with _writer_lock(store.path):
        return store._retry(run)


def claim_nickname(store: ResultStore, learner: str, nickname: str, *, quota: Quota = CLASS_QUOTA,
                   clock: Callable[[], float] = time.time) -> str:
    """Let ``learner`` join under ``nickname`` (cleaned already:
    :func:`~safari_kit.class_results.nicknames.clean_nickname`); returns the nickname the learner holds:
    ``nickname``, or the one this learner joined under before (another page of the same browser). Raises
    :class:`NicknameTaken` when another learner holds its key."""
    key = nickname_key(nickname)

    def work(con: sqlite3.Connection) -> str:
        row = con.execute("SELECT nickname FROM learners WHERE learner = ?", (learner,)).fetchone()
        if row is not None:
            return row[0]
        holder = con.execute("SELECT learner FROM learners WHERE key = ?", (key,)).fetchone()
        if holder is not None:
            raise NicknameTaken(TAKEN)
        last = con.execute("SELECT MAX(seq) FROM records WHERE learner = ?", (learner,)).fetchone()[0] or 0
        con.execute("INSERT INTO learners (learner, nickname, key, last_seq, tokens, refilled, stored) "
                    "VALUES (?, ?, ?, ?, ?, ?, 0)", (learner, nickname, key, last, float(quota.burst), clock()))
        return nickname

    return _transaction(store, work)


def next_seq(store: ResultStore, learner: str) -> int:
    """The learner's next record number, shared by all their pages (the learner must have joined)."""

    def work(con: sqlite3.Connection) -> int:
        cur = con.execute("UPDATE learners SET last_seq = last_seq + 1 WHERE learner = ?", (learner,))
        if cur.rowcount != 1:
            raise StoreError(f"learner {learner!r} has not joined this session: no record number for them")
        return con.execute("SELECT last_seq FROM learners WHERE learner = ?", (learner,)).fetchone()[0]

    return _transaction(store, work)


def _take(con: sqlite3.Connection, learner: str, quota: Quota, at: float) -> bool:
    row = con.execute("SELECT tokens, refilled, stored FROM learners WHERE learner = ?", (learner,)).fetchone()
    if row is None:
        raise StoreError(f"learner {learner!r} has not joined this session: no quota for them")
    tokens, refilled, stored = row
    tokens = min(float(quota.burst), tokens + max(0.0, at - refilled) / quota.seconds_per_record)
    allowed = stored < quota.cap and tokens >= 1
    if allowed:
        tokens, stored = tokens - 1, stored + 1
    con.execute("UPDATE learners SET tokens = ?, refilled = ?, stored = ? WHERE learner = ?",
                (tokens, at, stored, learner))
    return allowed


def take_quota(store: ResultStore, learner: str, quota: Quota = CLASS_QUOTA,
               clock: Callable[[], float] = time.time) -> bool:
    """Whether ``learner`` may store one more record now; if so, it is counted (a token taken).

    The bucket holds up to ``quota.burst`` tokens and gains one every ``quota.seconds_per_record``
    (wall time: the pages are separate processes); a learner who stored ``quota.cap`` records stores no more.
    """
    return bool(_transaction(store, lambda con: _take(con, learner, quota, clock())))


def admit(store: ResultStore, learner: str, quota: Quota = CLASS_QUOTA,
          clock: Callable[[], float] = time.time) -> tuple[int, bool]:
    """The learner's next record number and whether the quota lets the class's database keep that record:
    :func:`next_seq` and :func:`take_quota` in one transaction (a page pressing in a loop costs the database
    one short write per record, not two)."""

    def work(con: sqlite3.Connection) -> tuple[int, bool]:
        cur = con.execute("UPDATE learners SET last_seq = last_seq + 1 WHERE learner = ?", (learner,))
        if cur.rowcount != 1:
            raise StoreError(f"learner {learner!r} has not joined this session: no record number for them")
        seq = con.execute("SELECT last_seq FROM learners WHERE learner = ?", (learner,)).fetchone()[0]
        return seq, _take(con, learner, quota, clock())

    return _transaction(store, work)
