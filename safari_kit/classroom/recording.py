"""``safari-kit class --results FOLDER``: the class server recording the class's results, with the teacher's page.

:func:`recording` creates the session's store (``FOLDER/SESSION.sqlite3``; the session name
is the start's date and time, ``2026-12-04-1905``, unless ``--session`` names it),
puts its path in :data:`~safari_kit.class_results.class_session.RESULTS_ENV` for every kernel
(the labs open it with :func:`~safari_kit.class_results.class_session.store_from_env`),
makes the teacher's token and gives :func:`safari_kit.classroom.serve.run` the app to launch,
:class:`ClassroomVoila`. Without ``--results`` nothing is recorded and the plain class server runs.

:class:`ClassroomVoila` is Voilà's standalone app with one change: its
``init_handlers`` puts the teacher's routes (:func:`safari_kit.classroom.teacher.handlers`)
before Voilà's own. Voilà offers no setting that adds a tornado handler
(``Voila.tornado_settings`` only updates the application's settings), and
``init_handlers`` is the method ``Voila.start`` builds the application's routes from,
so a subclass used only by ``safari-kit class --results`` is the smallest documented
way in; no installed file is changed.
"""
from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from voila.app import Voila

from safari_kit.classroom.lab_words import lab_words
from safari_kit.classroom.teacher import TeacherAccess, handlers
from safari_kit.classroom import owner_tags
from safari_kit.classroom.addresses import learner_urls
from safari_kit.classroom.settings import ClassSettings
from safari_kit.class_results.class_session import RESULTS_ENV, session_name
from safari_kit.class_results.class_hold import hold
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.learner_tags import tags_folder

__all__ = ["ClassroomVoila", "Recording", "recording", "teacher_url"]


class ClassroomVoila(Voila):
    """Voilà with the teacher's page; :attr:`teacher_access` is set by :func:`recording` before the app starts
    (one class server per process)."""

    teacher_access: ClassVar[TeacherAccess | None] = None

    def init_handlers(self) -> list:
        routes = super().init_handlers()
        if self.teacher_access is not None:
            routes = handlers(self.teacher_access) + routes  # first: Voilà's own end in a catch-all
        return routes


def teacher_url(settings: ClassSettings, token: str, address: str | None = None) -> str:
    """The teacher's address, printed by the class command (never shown to learners); ``address``: the learners'
    address when it is not this machine's (the hub's public one, issue 29)."""
    base = address or learner_urls(settings.ip, settings.port, settings.base_url)[0]
    return f"{base}teacher?token={token}"


@dataclass(frozen=True)
class Recording:
    """What :func:`safari_kit.classroom.serve.serve` needs to record: the app, the kernels' variables, the lines
    printed for the teacher."""

    app_class: type[ClassroomVoila]
    kernel_env: dict[str, str]
    lines: list[str]


@contextlib.contextmanager
def recording(settings: ClassSettings, print_fn: Callable[[str], object] = print,
              address: str | None = None) -> Iterator[Recording]:
    """Set up the recording of ``settings.results`` for the class server's run, and tidy up when it ends
    (``address``: see :func:`teacher_url`)."""
    folder = Path(settings.results)
    if folder.exists() and not folder.is_dir():
        raise OSError(f"--results {settings.results!r} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    session = settings.session or session_name()
    held = hold(folder, session)  # issue 26: `results wipe` refuses while the server holds the session
    try:
        store = ResultStore(folder, session)
    except BaseException:
        held.release()
        raise
    token = secrets.token_urlsafe(24)
    ClassroomVoila.teacher_access = TeacherAccess(token, store, session, settings.base_url, words=lab_words)
    path = str(store.path.resolve())
    lines = [f"Recording the class's results (session {session}) in {path}",
             "Teacher's page (keep this address to yourself: it holds the teacher's key):",
             f"    {teacher_url(settings, token, address)}"]
    try:
        # issue 26: each lab learns its browser's tag (one browser, one learner), in a private folder for this run
        owner_tags.start(tags_folder(store.path))
        yield Recording(ClassroomVoila, {RESULTS_ENV: path}, lines)
    finally:
        ClassroomVoila.teacher_access = None
        owner_tags.stop()
        store.close()
        held.release()
    # issue 26: Ctrl+C or SIGTERM ends here with one line (and exit code 0), not a traceback
    print_fn(f"Class server stopped. The session's records stay in {path} until you wipe them.")
