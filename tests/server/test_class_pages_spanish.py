"""The class server's refusal page in the learner's language, on a real server (issue 30).

A class server with room for one lab: a second page is refused with its error page (503). Asked with ``?lang=es``,
or by a browser that speaks Spanish, the page is Spanish (``lang="es"``, heading, sentence, link back); asked by
an English browser it stays English (the control). The app page holds its own sentences in Spanish too
(page_words.js, which its script picks from). Unit tests of the words: tests/class_pages.
"""
from __future__ import annotations

import pytest

from safari_kit.classroom.kernel_cap import KernelCapMixin
from safari_kit.core.i18n import _, language
from tests.server.class_server import Learner, class_server, request

pytestmark = pytest.mark.slow


def es(text: str) -> str:
    with language("es"):
        return _(text)


def test_the_full_server_page_is_in_the_learners_language():
    full = KernelCapMixin.full_message.default_value
    with class_server("--max-labs", "1", "--labs-per-minute", "0") as srv:
        status, page = Learner(srv).open_page()
        assert status == 200
        # the app page's own sentences (while it starts, when its connection ends), in every language beside it
        assert "window.safariPageWords" in page and "{% raw %}" not in page
        assert es("Your lab is starting. Keep this page open.") in page
        pages = {"?lang=es": request(srv, "?lang=es"),
                 "Accept-Language: es-ES": request(srv, "", headers={"Accept-Language": "es-ES,es;q=0.9"}),
                 "English": request(srv, "", headers={"Accept-Language": "en-US,en;q=0.9"})}
    for how, (status, body) in pages.items():
        assert status == 503, (how, status)
        assert "Traceback" not in body, how
    for how in ("?lang=es", "Accept-Language: es-ES"):
        body = pages[how][1]
        assert '<html lang="es">' in body and f"<h1>{es('Class server full')}</h1>" in body, (how, body[:600])
        assert es(full).format(max_kernels=1) in body and es("Reload the app") in body, how
    english = pages["English"][1]
    assert '<html lang="en">' in english and "<h1>Class server full</h1>" in english
    assert full.format(max_kernels=1) in english and "Reload the app" in english
