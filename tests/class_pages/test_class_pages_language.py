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


def _page_words(js: str, search: str, languages: list[str]) -> dict:
    """Run the made page_words.js in node with a page address and browser languages; the words it picks."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the static site's build needs it too)")
    body = js.replace("{% raw %}", "").replace("{% endraw %}", "")
    script = (f"var window = {{}}; var location = {{search: {json.dumps(search)}}};"
              f"var navigator = {{languages: {json.dumps(languages)}}};\n{body}\n"
              "console.log(JSON.stringify(window.safariPageWords()));")
    return json.loads(subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout)


def test_the_app_pages_own_sentences_follow_the_address_the_class_and_the_browser(tmp_path):
    from safari_kit.classroom.page_words import TEMPLATE_WORDS, write_template_words

    template = (TEMPLATES / "index.html.j2").read_text()
    assert "{% include 'page_words.js' ignore missing %}" in template
    for key, english in TEMPLATE_WORDS.items():  # the template's own English is the catalogue's
        assert f"w('{key}', '{english.split(' (')[0]}" in template or key == "starting", key
    assert TEMPLATE_WORDS["starting"] in template
    spanish = {key: es(text) for key, text in TEMPLATE_WORDS.items()}
    assert all(spanish[k] != TEMPLATE_WORDS[k] for k in spanish)
    plain = write_template_words(tmp_path, None).read_text()
    assert _page_words(plain, "?lang=es", ["en-US"]) == spanish
    assert _page_words(plain, "", ["es-MX", "en"]) == spanish
    assert _page_words(plain, "", ["en-US"]) == {}  # English: the template's own words
    in_spanish_class = write_template_words(tmp_path, "es").read_text()
    assert _page_words(in_spanish_class, "", ["en-US"]) == spanish
    assert _page_words(in_spanish_class, "?lang=en", ["es"]) == {}  # the learner's own choice first


def test_the_reasons_a_lab_is_closed_speak_the_classs_language_and_fit_a_close_frame(monkeypatch):
    """A lab's connection closed by the server (memory, a flood, too many windows, its lab given to a classmate):
    the reason is said in the class's language (``--lang es``: the server's $SAFARI_KIT_LANG), within the 120 bytes
    a websocket close reason holds."""
    from safari_kit.classroom.lab_holds import LabHoldsMixin
    from safari_kit.classroom.memory_cap import MemoryCapMixin
    from safari_kit.classroom.page_sockets import PageSocketsMixin

    class Flood(PageSocketsMixin):
        def __init__(self) -> None:  # only the settings: no kernel manager behind it
            pass

    reasons = {"memory": (MemoryCapMixin.memory_message.default_value, {"limit_mb": 1024}),
               "windows": (PageSocketsMixin.too_many_windows_message.default_value, {}),
               "reclaimed": (LabHoldsMixin.reclaimed_message.default_value, {})}
    for what, (english, values) in reasons.items():
        spanish = es(english).format(**values)
        assert spanish != english.format(**values) and len(spanish.encode()) <= 120, (what, spanish)
    flood = Flood()
    english = flood._flood_text()
    monkeypatch.setenv(LANGUAGE_ENV, "es")
    spanish = flood._flood_text()
    assert english.startswith("This page sent more than 4.2 MB in 10 seconds") and spanish.startswith("Esta página")
    assert len(spanish.encode()) <= 120
