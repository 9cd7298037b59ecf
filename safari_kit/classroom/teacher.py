"""The teacher's page on the class server: tornado handlers guarded by the teacher's token.

The class command makes a random token (``secrets.token_urlsafe``) when it starts and
prints the teacher's address with it; it is never written into a learner's page.

* ``GET <base>teacher?token=T``: a right token (compared with :func:`hmac.compare_digest`)
  sets the teacher cookie and redirects to ``<base>teacher`` (the token leaves the
  address bar, so the page can be projected); a wrong one gets 403. Wrong keys are
  counted (:class:`~safari_kit.classroom.wrong_keys.WrongKeys`): past 10 from one
  address or 100 from everyone in a minute, key tries get 429 "wait a minute" unchecked.
* ``GET <base>teacher``: with the teacher cookie, the page
  (:func:`safari_kit.class_results.teacher_page.render`); without it, 403 in words.
* ``GET <base>teacher/results.csv``: the session's CSV export
  (:func:`safari_kit.class_results.class_export.csv_text`), with the cookie only: a key in
  its address would land in the browser's downloads list and history.

The teacher cookie is signed with the Voilà app's ``cookie_secret`` (new at every
start), HttpOnly, ``SameSite=Strict`` and scoped to ``<base>teacher``. A learner's
owner cookie opens nothing here. The page is read-only: no handler changes a record.
The store is read on a worker thread, so learners' messages are not held up.
"""
from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tornado.web
from tornado.ioloop import IOLoop

from safari_kit.classroom.wrong_keys import SLOW_ANSWER_SECONDS, WrongKeys
from safari_kit.class_results.class_export import csv_text
from safari_kit.class_results.class_store import ResultStore
from safari_kit.class_results.class_tables import ClassResults
from safari_kit.class_results.teacher_page import LabWords, forbidden_page, render

__all__ = ["COOKIE", "TeacherAccess", "TeacherPageHandler", "TeacherCsvHandler", "handlers"]

COOKIE = "safari_kit_teacher"


@dataclass(frozen=True)
class TeacherAccess:
    """What the handlers share: the token, the session's store and the server's base URL."""

    token: str
    store: ResultStore
    session: str
    base_url: str = "/"
    words: Callable[[], LabWords] | None = None  # issue 26: the labs' names for labs and questions
    wrong_keys: WrongKeys = field(default_factory=WrongKeys, compare=False)
    # issue 29: on JupyterHub (--hub), a second door beside the key: the hub's admins and the teachers' group
    # (safari_kit.classroom.hub.HubTeacherDoor: ``async admitted(handler) -> bool``, which may redirect to login)
    door: Any = field(default=None, compare=False)

    @property
    def page_path(self) -> str:
        return self.base_url + "teacher"

    @property
    def csv_path(self) -> str:
        return self.base_url + "teacher/results.csv"

    def right_token(self, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(str(given).encode(), self.token.encode())


class _TeacherHandler(tornado.web.RequestHandler):
    access: TeacherAccess

    def initialize(self, access: TeacherAccess) -> None:
        self.access = access

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")
        # no script at all; inline styles and SVG only
        self.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                                                   "frame-ancestors 'none'; form-action 'none'")

    def _cookie_value(self) -> str:
        return f"teacher:{self.access.session}"

    def _has_cookie(self) -> bool:
        value = self.get_signed_cookie(COOKIE, max_age_days=1)
        return value is not None and hmac.compare_digest(value, self._cookie_value().encode())

    def _set_cookie(self) -> None:
        self.set_signed_cookie(COOKIE, self._cookie_value(), expires_days=None, httponly=True, samesite="Strict",
                               path=self.access.page_path)

    async def _let_in(self) -> bool:
        """The teacher cookie, or (on the hub) the door; False: refused, or the door sent them to log in."""
        if self._has_cookie():
            return True
        return self.access.door is not None and bool(await self.access.door.admitted(self))

    def _refuse(self) -> None:
        if self._finished:  # the door sent a teacher who was not logged in to the hub's login
            return
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(forbidden_page())

    async def _too_many(self) -> None:
        """429, answered after :data:`~safari_kit.classroom.wrong_keys.SLOW_ANSWER_SECONDS`: a flooder that waits
        for its answers (20 connections sent 850 keys a second) then sends a few a second, at no cost to the
        server (a few hundred waiting answers at most: beyond, they are not held)."""
        keys = self.access.wrong_keys
        if keys.waiting < keys.max_waiting:
            keys.waiting += 1
            try:
                await asyncio.sleep(SLOW_ANSWER_SECONDS)
            finally:
                keys.waiting -= 1
        self.set_status(429)
        self.set_header("Retry-After", "60")
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish("Too many wrong keys were tried on the teacher's page. Wait a minute, then try again.")

    def write_error(self, status_code: int, **kwargs) -> None:  # no traceback, no path
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: the teacher's page could not be made; the server's log says why.")


class TeacherPageHandler(_TeacherHandler):
    """``<base>teacher``: the page (cookie), or the token's door to it."""

    async def get(self) -> None:
        token = self.get_query_argument("token", None)
        if token is not None:
            keys, address = self.access.wrong_keys, self.request.remote_ip
            if not keys.may_try(address):
                return await self._too_many()
            if not self.access.right_token(token):
                keys.wrong(address)
                return self._refuse()
            self._set_cookie()
            return self.redirect(self.access.page_path, status=303)
        if not await self._let_in():
            return self._refuse()
        access = self.access

        def make() -> str:
            results = ClassResults.from_store(access.store)
            return render(results, db_path=str(access.store.path.resolve()), csv_href=access.csv_path,
                          session=access.session, words=access.words() if access.words else None)

        page = await IOLoop.current().run_in_executor(None, make)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)


class TeacherCsvHandler(_TeacherHandler):
    """``<base>teacher/results.csv``: every record of the session, as ``safari-kit results export`` writes it."""

    async def get(self) -> None:
        if not await self._let_in():  # the cookie only (or the hub): a key in this address would be kept
            return self._refuse()
        store = self.access.store
        text = await IOLoop.current().run_in_executor(None, lambda: csv_text(store.records()))
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="{self.access.session}.csv"')
        self.finish(text)


def handlers(access: TeacherAccess) -> list[tuple]:
    """The teacher's routes for a tornado application (before Voilà's own, which end in a catch-all)."""
    return [(access.page_path, TeacherPageHandler, {"access": access}),
            (access.csv_path, TeacherCsvHandler, {"access": access})]
