"""The class session's database: the learners' records in one SQLite file, safe with thirty writers at once.

One class session is one file, ``<folder>/<session>.sqlite3`` (the folder the teacher
chooses), so wiping a session is deleting its file (:func:`wipe` also deletes SQLite's
``-wal`` and ``-shm`` files beside it). The standard library's :mod:`sqlite3` in WAL
mode lets readers (the teacher's page) read while learners write; every write is one
short ``BEGIN IMMEDIATE`` transaction with a busy timeout and retries, so thirty labs
writing at once (threads of the class server, or separate processes) wait their turn
instead of failing.

Nothing is stored but the records' fields (:mod:`safari_kit.class_results.class_records`):
no address, no browser, no time of arrival beyond the record's own ``at``. A record is
keyed by ``(learner, seq)``: sending it again (a retried request, a reloaded page)
stores it once; a *different* record under the same key is refused, never dropped in
silence.

The schema has a version (table ``schema_version``); a file written by a newer kit is
refused with a sentence instead of being misread.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from safari_kit.class_results.class_records import COMMON, KINDS, Record, from_dict, to_dict
from safari_kit.class_results.class_files import SESSION_NAME as _SESSION
from safari_kit.class_results.class_files import SUFFIX, StoreError, store_path
from safari_kit.class_results.learner_tags import tags_folder

__all__ = ["SCHEMA_VERSION", "StoreError", "ResultStore", "store_path", "session_files", "sessions", "wipe"]

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    learner TEXT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    nickname TEXT NOT NULL,
    lab TEXT NOT NULL,
    at TEXT NOT NULL,
    fields TEXT NOT NULL,
    PRIMARY KEY (learner, seq)
);
"""  # records.fields: the kind's own fields as JSON (class_records.to_dict without the shared ones)
T = TypeVar("T")


def session_files(folder: str | Path, session: str) -> list[Path]:
    """The files of ``session`` that exist: the database and SQLite's -wal and -shm files beside it."""
    db = store_path(folder, session)
    return [p for p in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")) if p.exists()]


def sessions(folder: str | Path) -> list[str]:
    """The sessions that have a database in ``folder``, sorted."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    return sorted(p.name[:-len(SUFFIX)] for p in folder.glob(f"*{SUFFIX}") if _SESSION.fullmatch(p.name[:-len(SUFFIX)]))


def wipe(folder: str | Path, session: str) -> list[Path]:
    """Delete every file of ``session`` (close the store first); returns what was deleted.

    Refused (:class:`~safari_kit.class_results.class_hold.SessionInUse`, nothing deleted) while a class server or
    one of its labs holds the session (issue 26: a running server kept writing into the deleted file and
    its page kept showing the records); a lock file left by a server that has ended is deleted with the rest.
    """
    from safari_kit.class_results.class_hold import check_free  # it imports this module

    with check_free(folder, session) as stale:
        gone = []
        for path in session_files(folder, session):
            path.unlink()
            gone.append(path)
        tags = tags_folder(store_path(folder, session))  # owner tags a crashed server left (issue 26)
        if tags.is_dir():
            shutil.rmtree(tags)
            gone.append(tags)
    if stale is not None:
        gone.append(stale)
    return gone


_LOCKS: dict[Path, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def _writer_lock(path: Path) -> threading.Lock:
    """One lock per database file in this process. SQLite's busy handler makes a waiting writer sleep
    and try again, which is unfair: with thirty threads some waited seconds while others wrote. Threads
    of one process (the class server) take turns here instead; other processes still meet SQLite's lock."""
    key = path.resolve()
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(key, threading.Lock())


def _busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class ResultStore:
    """The records of one class session: ``ResultStore(folder, session)`` creates the file if needed
    (``create=False``: refuse a session that has no file yet, as the export does).

    Each thread uses a connection of its own (kept open: closing SQLite's last connection checkpoints
    and deletes the WAL file, which made every write slow), so one store may be shared by threads,
    and several processes may open the same session at once. :meth:`close` closes them all.
    """

    def __init__(self, folder: str | Path, session: str, *, create: bool = True, timeout: float = 30.0,
                 retries: int = 20) -> None:
        self.path = store_path(folder, session)
        self.session = session
        self.timeout = timeout
        self.retries = retries
        folder = Path(folder)
        if not folder.is_dir():
            raise StoreError(f"the results folder {str(folder)!r} does not exist: create it first")
        if not create and not self.path.exists():
            known = ", ".join(sessions(folder)) or "none"
            raise StoreError(f"no session {session!r} in {str(folder)!r} (sessions there: {known})")
        self._local = threading.local()
        self._open: list[sqlite3.Connection] = []
        self._open_lock = threading.Lock()
        try:
            self._retry(self._create)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------ connections
    def _connection(self) -> sqlite3.Connection:
        """This thread's connection (a new one in a forked child: a parent's connection is not shared)."""
        con = getattr(self._local, "con", None)
        if con is None or self._local.pid != os.getpid():
            con = self._connect()
            self._local.con, self._local.pid = con, os.getpid()
            with self._open_lock:
                self._open.append(con)
        return con

    def _drop(self) -> None:
        con = getattr(self._local, "con", None)
        self._local.con = None
        if con is not None:
            with self._open_lock:
                if con in self._open:
                    self._open.remove(con)
            con.close()

    def close(self) -> None:
        """Close every connection of this store (before :func:`wipe`; the store opens new ones if used).

        Called from any thread (the class server closes at its end the connections its worker threads
        opened for the teacher's page): each connection is opened with ``check_same_thread=False`` so that
        closing it elsewhere is allowed; it is still used only by the thread that opened it."""
        with self._open_lock:
            cons, self._open = self._open, []
        for con in cons:
            con.close()
        self._local = threading.local()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _connect(self) -> sqlite3.Connection:
        # check_same_thread=False only so that close() may close it from another thread (issue 26: the
        # server's end raised ProgrammingError); the connection itself stays this thread's (_local)
        con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        con.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
        # WAL with synchronous=NORMAL: a commit survives the server process crashing (not a power cut
        # in the second after it), and does not wait for the disk: the writers' queue stays short
        con.execute("PRAGMA synchronous = NORMAL")
        return con

    def _retry(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on this thread's connection; retry when the database stays locked past the timeout."""
        for attempt in range(self.retries + 1):
            try:
                return work(self._connection())
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or attempt == self.retries:
                    self._drop()
                    raise
                time.sleep(min(0.5, 0.01 * 2 ** attempt) * random.random())
            except sqlite3.DatabaseError as exc:
                self._drop()
                raise StoreError(f"{self.path}: not a results database ({exc})") from None
            except StoreError:
                raise
            except BaseException:
                self._drop()
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _create(self, con: sqlite3.Connection) -> None:
        mode = con.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{self.path}: SQLite could not use WAL mode here (got {mode!r}); "
                             "choose a folder on a local disk")
        con.execute("BEGIN IMMEDIATE")
        try:
            tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and "schema_version" not in tables:
                raise StoreError(f"{self.path}: a database that is not a results store (tables {sorted(tables)})")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    con.execute(statement)
            versions = [row[0] for row in con.execute("SELECT version FROM schema_version")]
            if not versions:
                con.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            elif versions != [SCHEMA_VERSION]:
                newer = max(versions) > SCHEMA_VERSION
                raise StoreError(f"{self.path}: schema version {max(versions)}, this kit knows version "
                                 f"{SCHEMA_VERSION}" + (": update safari-kit to open it" if newer else ""))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------ writing
    @staticmethod
    def _row(record: Record) -> tuple:
        data = to_dict(record)
        own = {k: v for k, v in data.items() if k not in COMMON and k != "kind"}
        return (record.learner, record.seq, record.kind, record.nickname, record.lab, record.at,
                json.dumps(own, sort_keys=True, ensure_ascii=False))

    def add_many(self, records: Iterable[Record]) -> int:
        """Store ``records`` in one transaction; returns how many were new. A record already stored
        (same learner, seq and content) is not stored again; a different record under the same
        learner and seq raises :class:`StoreError` and stores none of ``records``."""
        rows = []
        for record in records:
            if not isinstance(record, Record) or type(record) not in KINDS.values():
                raise StoreError(f"not a class record: {record!r}")
            rows.append(self._row(record))

        def work(con: sqlite3.Connection) -> int:
            con.execute("BEGIN IMMEDIATE")
            try:
                new = 0
                for row in rows:
                    cur = con.execute("INSERT OR IGNORE INTO records (learner, seq, kind, nickname, lab, at, fields) "
                                      "VALUES (?, ?, ?, ?, ?, ?, ?)", row)
                    if cur.rowcount == 1:
                        new += 1
                        continue
                    old = con.execute("SELECT learner, seq, kind, nickname, lab, at, fields FROM records "
                                      "WHERE learner = ? AND seq = ?", row[:2]).fetchone()
                    if tuple(old) != row:
                        raise StoreError(f"learner {row[0]!r} already has a different record number {row[1]} "
                                         f"({old[2]} at {old[5]}); not stored: {row[2]} at {row[5]}")
                con.execute("COMMIT")
                return new
            except BaseException:
                con.execute("ROLLBACK")
                raise

        if not rows:
            return 0
        with _writer_lock(self.path):  # this process's writers queue here, in order, not in SQLite's busy loop
            return self._retry(work)

    def add(self, record: Record) -> bool:
        """Store one record; True if it was new, False if the same record was already there."""
        return self.add_many([record]) == 1

    # ------------------------------------------------------------ reading
    def records(self, kind: str | None = None) -> list[Record]:
        """The stored records (of one ``kind``, or all), by learner and seq."""
        if kind is not None and kind not in KINDS:
            raise StoreError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
        query = "SELECT kind, learner, nickname, lab, at, seq, fields FROM records"
        args: tuple = ()
        if kind is not None:
            query, args = query + " WHERE kind = ?", (kind,)
        rows = self._retry(lambda con: con.execute(query + " ORDER BY learner, seq", args).fetchall())
        out = []
        for kind_, learner, nickname, lab, at, seq, fields in rows:
            data = {"kind": kind_, "learner": learner, "nickname": nickname, "lab": lab, "at": at, "seq": seq}
            try:  # a database edited by hand: name the record, never a bare error (issue 26)
                data.update(json.loads(fields))
                out.append(from_dict(data))
            except (ValueError, TypeError, RecursionError) as exc:
                raise StoreError(f"{self.path}: the record of learner {learner!r} number {seq!r}: {exc}") from None
        return out

    def count(self) -> int:
        """How many records are stored."""
        return self._retry(lambda con: con.execute("SELECT COUNT(*) FROM records").fetchone()[0])

    def __repr__(self) -> str:
        return f"ResultStore({str(self.path)!r})"
