"""Where a class session's records go: the one name the class server and the labs share (issue 21).

The class server started with ``--results FOLDER`` creates the session's store
(:class:`~safari_kit.class_results.class_store.ResultStore`) and puts the path of its
database file in the environment variable :data:`RESULTS_ENV` before any kernel
starts, so every lab's kernel inherits it. A lab opens the same file with
:func:`store_from_env` and hands the store's ``add`` to its
:class:`~safari_kit.class_results.recorder.Recorder` as the sink::

    store = store_from_env()          # None: this server records nothing
    if store is not None:
        recorder = Recorder(nickname, sink=store.add)

The name lives here, in ``safari_kit.class_results``, because the labs (``safari_kit.widgets``)
may import this layer but not ``safari_kit.classroom`` (the class server, above them).
"""
from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from safari_kit.class_results.class_files import StoreError

if TYPE_CHECKING:
    from safari_kit.class_results.class_store import ResultStore

__all__ = ["RESULTS_ENV", "StoreError", "session_name", "store_from_env", "results_location"]


#: the environment variable holding the class session's database file (``FOLDER/SESSION.sqlite3``)
RESULTS_ENV = "SAFARI_KIT_RESULTS"


def session_name(when: _dt.datetime | None = None) -> str:
    """The default session name: the local date and time the class server started, to the minute.

    >>> session_name(_dt.datetime(2026, 12, 4, 19, 5))
    '2026-12-04-1905'
    """
    return (when or _dt.datetime.now()).strftime("%Y-%m-%d-%H%M")


def results_location(folder: str | Path, session: str) -> str:
    """The value of :data:`RESULTS_ENV` for ``session`` in ``folder``: its database file, absolute."""
    from safari_kit.class_results.class_files import store_path

    return str(store_path(Path(folder).resolve(), session))


def store_from_env(environ: Mapping[str, str] | None = None) -> ResultStore | None:
    """The class session's store named by :data:`RESULTS_ENV`, or None when the variable is unset or
    empty (recording is off). A value that is not ``FOLDER/SESSION.sqlite3`` raises :class:`StoreError`
    naming it; the file must exist (the class server creates it before kernels start)."""
    value = (os.environ if environ is None else environ).get(RESULTS_ENV, "")
    if not value:
        return None
    # sqlite3 only when a store is named: Python in the browser (the static site) has no sqlite3 until loaded
    from safari_kit.class_results.class_files import SUFFIX
    from safari_kit.class_results.class_store import ResultStore

    path = Path(value)
    if not path.name.endswith(SUFFIX):
        raise StoreError(f"{RESULTS_ENV}={value!r}: not a results database (FOLDER/SESSION{SUFFIX})")
    store = ResultStore(path.parent, path.name[:-len(SUFFIX)], create=False)
    # issue 26: this kernel holds the session as long as it lives (the system lets go when it ends), so
    # `results wipe` refuses while a lab could still write into the file, even one a crashed server left
    from safari_kit.class_results.class_hold import hold

    if store.path not in _HOLDS:
        held = hold(path.parent, store.session, writer=False)
        if held.held:
            _HOLDS[store.path] = held
    return store


#: the sessions this process holds (a kernel opens its class's store once or a few times; one hold each)
_HOLDS: dict[Path, object] = {}
