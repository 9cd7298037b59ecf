"""Who is using a class session right now: the lock file beside its database, so a wipe never runs under a server.

Issue 26: ``safari-kit results wipe`` deleted the session's files while the class server
ran; the server's teacher's page and the learners' kernels kept their open connections,
went on writing into the deleted file, and lost it all when they stopped. So a wipe now
refuses while anyone holds the session.

The class server holds ``<folder>/<session>.sqlite3.server`` from its start to its end
(:func:`hold`), with its process id written in it; each learner's kernel that opens the
session's store holds the same file too (:func:`hold` with ``writer=False``), so a lab
left running by a server that crashed still counts. Holding is an operating-system lock
(``fcntl.flock``, shared), not the file's presence: the system lets go of it when the
process ends, however it ends, so the file left by a crashed server (``kill -9``, a
power cut) never blocks a wipe. :func:`check_free` (called by
:func:`~safari_kit.class_results.class_store.wipe`) tries to take the lock for itself alone:
it fails with :class:`SessionInUse` while any holder lives, and succeeds, then deletes
the stale file, when none does.

On a system without ``fcntl`` (Windows) the lock is ``msvcrt.locking`` on the file's first
byte, taken by the server only (one holder at a time); this path is not tested here.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from collections.abc import Iterator
from typing import IO

from safari_kit.class_results.class_files import StoreError, store_path

__all__ = ["HOLD_SUFFIX", "SessionInUse", "SessionHold", "hold", "hold_path", "check_free", "holder_pid"]

HOLD_SUFFIX = ".server"

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class SessionInUse(StoreError):
    """A wipe refused: a class server (or one of its labs) still has the session open."""


def hold_path(folder: str | Path, session: str) -> Path:
    """The lock file of ``session``: its database's name with ``.server`` added."""
    db = store_path(folder, session)
    return db.with_name(db.name + HOLD_SUFFIX)


def _try_lock(f: IO, exclusive: bool) -> bool:
    """Take the lock without waiting; False if someone else holds it (in a way that conflicts)."""
    if fcntl is not None:
        try:
            fcntl.flock(f.fileno(), (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    import msvcrt  # pragma: no cover - Windows: one holder at a time

    try:  # pragma: no cover
        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
    except OSError:  # pragma: no cover
        return False
    return True  # pragma: no cover


def _unlock(f: IO) -> None:
    if fcntl is not None:
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
        return
    import msvcrt  # pragma: no cover

    with contextlib.suppress(OSError):  # pragma: no cover
        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)


def holder_pid(folder: str | Path, session: str) -> int | None:
    """The process id the class server wrote in the lock file (None: no file, or no number in it)."""
    try:
        text = hold_path(folder, session).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


class SessionHold:
    """A held session (see the module's docstring); :meth:`release` (or leaving the ``with``) lets go and
    deletes the lock file when no one else holds it."""

    def __init__(self, path: Path, file: IO | None) -> None:
        self.path, self._file = path, file

    @property
    def held(self) -> bool:
        return self._file is not None

    def release(self) -> None:
        f, self._file = self._file, None
        if f is None:
            return
        try:
            _unlock(f)
            if fcntl is not None and _try_lock(f, exclusive=True):  # the last holder: the file goes
                with contextlib.suppress(OSError):
                    self.path.unlink()
                _unlock(f)
        finally:
            f.close()

    def __enter__(self) -> "SessionHold":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def hold(folder: str | Path, session: str, *, writer: bool = True) -> SessionHold:
    """Hold ``session`` until :meth:`SessionHold.release` or this process ends. ``writer`` (the class server):
    create the lock file and write this process's id in it; otherwise (a lab's kernel) hold it only if the
    server made it (a lab run without a class server holds nothing). Several holders at once are fine."""
    path = hold_path(folder, session)
    if not writer and not path.exists():
        return SessionHold(path, None)
    try:
        f = open(path, "a+", encoding="ascii")  # never truncates another holder's pid before the lock
    except OSError:
        if writer:
            raise
        return SessionHold(path, None)
    if not _try_lock(f, exclusive=False):  # pragma: no cover - only Windows' single lock can refuse a share
        f.close()
        return SessionHold(path, None)
    if writer:
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n")
        f.flush()
    return SessionHold(path, f)


def _alive(pid: int | None) -> bool:
    if pid is None or os.name != "posix":
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def check_free(folder: str | Path, session: str) -> Iterator[Path | None]:
    """Raise :class:`SessionInUse` while a class server or one of its labs holds ``session``; otherwise hold it
    alone for the ``with`` block (a server starting meanwhile cannot take it) and delete the stale lock file at
    its end. Yields the lock file's path (None: there was none)::

        with check_free(folder, session):
            ...delete the session's files...
    """
    path = hold_path(folder, session)
    if not path.exists():
        yield None
        return
    try:
        f = open(path, "a+", encoding="ascii")
    except OSError as exc:
        raise SessionInUse(f"cannot tell whether a class server still uses session {session!r}: {path} "
                           f"cannot be opened ({exc.strerror or exc})") from None
    with f:
        if not _try_lock(f, exclusive=True):
            pid = holder_pid(folder, session)
            if _alive(pid):
                raise SessionInUse(f"the class server is still running with session {session!r} (process {pid}): "
                                   "stop it first (Ctrl+C in its window), then wipe")
            raise SessionInUse(f"a lab of the class server still has session {session!r} open (its server, "
                               f"process {pid}, has ended): wait until the lab closes, or end its process, "
                               "then wipe")
        try:
            yield path
            path.unlink(missing_ok=True)
        finally:
            _unlock(f)
