"""The class server's own pages in the learner's language (issue 30): refusals, the error page, the waiting page.

Without a server: the refusal each policy raises (safari_kit.classroom.page_words.refusal) for a request whose
address asks ``?lang=es``, whose browser speaks Spanish, or whose class is Spanish (``--lang es``), the class
server's error page (safari_kit/voila_template/safari/error.html) rendered with it, and the waiting page. English
is the control, and a teacher's own sentence (a setting changed) is shown as written.
"""
from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from tornado import web

from safari_kit.classroom.kernel_cap import KernelCapMixin
from safari_kit.classroom.lab_pages import waiting_page
from safari_kit.classroom.page_words import refusal, request_language
from safari_kit.core.i18n import LANGUAGE_ENV, _, language

TEMPLATES = Path(__file__).resolve().parents[2] / "safari_kit" / "voila_template" / "safari"
FULL = KernelCapMixin.full_message.default_value


class _Headers(dict):
    def get(self, key, default=None):
        return super().get(key, default)


class _Request:
    def __init__(self, accept: str | None) -> None:
        self.headers = _Headers({"Accept-Language": accept} if accept else {})


class _Handler:
    def __init__(self, lang: str | None = None, accept: str | None = None) -> None:
        self._lang = lang
        self.request = _Request(accept)

    def get_query_argument(self, name, default=None):
        return self._lang if name == "lang" and self._lang is not None else default


def es(text: str) -> str:
    with language("es"):
        return _(text)


@pytest.fixture(autouse=True)
def _no_class_language(monkeypatch):
    monkeypatch.delenv(LANGUAGE_ENV, raising=False)


def _error_page(error: web.HTTPError) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True)
    return env.get_template("error.html").render(status_code=error.status_code, status_message=error.reason,
                                                 message=(error.log_message or "") % (), exception=error)


def test_the_language_is_the_addresses_then_the_classs_then_the_browsers(monkeypatch):
    assert request_language(_Handler()) == "en"
    assert request_language(_Handler(accept="es-MX,es;q=0.9,en;q=0.5")) == "es"
    assert request_language(_Handler(lang="es", accept="en-US")) == "es"
    assert request_language(_Handler(lang="<script>", accept="de")) == "en"  # nothing else is trusted
    monkeypatch.setenv(LANGUAGE_ENV, "es")
    assert request_language(_Handler(accept="en-US")) == "es"  # the class's language before the browser's
    assert request_language(_Handler(lang="en")) == "en"  # the learner's own choice first
    assert request_language(None) == "es"


def test_the_full_server_page_speaks_spanish_and_english_stays_the_control():
    spanish = refusal(503, "Class server full", FULL, _Handler(accept="es-ES"), max_kernels=40)
    assert spanish.log_message == es(FULL).format(max_kernels=40) and spanish.log_message != FULL.format(
        max_kernels=40)
    assert spanish.reason == "Class server full"  # the status line keeps its English
    page = _error_page(spanish)
    assert '<html lang="es">' in page and f"<h1>{es('Class server full')}</h1>" in page
    assert es("Reload the app") in page and "Reload the app" not in page and "(40)" in page
    english = _error_page(refusal(503, "Class server full", FULL, _Handler(), max_kernels=40))
    assert '<html lang="en">' in english and "<h1>Class server full</h1>" in english and "Reload the app" in english
    # tornado's own errors (no refusal of the class server) keep the page as it was
    plain = _error_page(web.HTTPError(404, reason="Not Found"))
    assert '<html lang="en">' in plain and "<h1>Not Found</h1>" in plain and "Reload the app" in plain


def test_a_teachers_own_sentence_is_shown_as_written():
    own = "Ask Ms Diaz before you open another lab ({limit})."
    assert refusal(429, "Too many labs held", own, _Handler(lang="es"), limit=3).log_message == own.format(limit=3)


def test_the_waiting_page_speaks_the_learners_language():
    from safari_kit.classroom.ready_labs import ReadyLabsMixin

    message = ReadyLabsMixin.waiting_message.default_value
    page = waiting_page(message, 2.0, "es")
    assert '<html lang="es">' in page and f"<title>{es('Your lab is starting')}</title>" in page
    assert es(message) in page and message not in page
    english = waiting_page(message, 2.0)
    assert '<html lang="en">' in english and "<title>Your lab is starting</title>" in english and message in english
