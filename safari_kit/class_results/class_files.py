"""Where a class session's results live, and the error the store gives: no sqlite3 here.

Its own module so that the store (:mod:`~safari_kit.class_results.class_store`, which imports sqlite3), the
hold on a session (:mod:`~safari_kit.class_results.class_hold`) and the session's set-up
(:mod:`~safari_kit.class_results.class_session`, which a lab imports and Python in the browser runs) all read
it without importing each other in a circle (issue 28).

>>> store_path("results", "7b-monday").as_posix()
'results/7b-monday.sqlite3'
>>> store_path("results", "../x")
Traceback (most recent call last):
...
safari_kit.class_results.class_files.StoreError: a session name is 1 to 64 letters, ... got '../x'
"""
from __future__ import annotations

import re
from pathlib import Path

__all__ = ["StoreError", "SUFFIX", "SESSION_NAME", "store_path"]

#: a session's database file is FOLDER/SESSION + SUFFIX
SUFFIX = ".sqlite3"
#: a session name: letters, digits, '-' and '_', starting with a letter or digit, at most 64
SESSION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


class StoreError(ValueError):
    """A session name, a database file or a record the store refuses; the message says which and why.

    Defined without sqlite3 so that the labs can name it in the browser's Python, which has none until
    it is loaded.
    """


def store_path(folder: str | Path, session: str) -> Path:
    """The database file of ``session`` in ``folder`` (the session name: letters, digits, '-', '_')."""
    if not isinstance(session, str) or not SESSION_NAME.fullmatch(session):
        raise StoreError(f"a session name is 1 to 64 letters, digits, '-' or '_' (starting with a letter or "
                         f"digit), got {session!r}")
    return Path(folder) / f"{session}{SUFFIX}"
