"""The class server's own pages in the learner's language (issue 30): its refusals and its waiting page.

The app speaks the learner's language (``safari_kit.widgets.app.page_language``); the pages the class server
itself sends before there is an app (the server is full, a computer opened labs too fast, the lab is starting)
spoke English. They now pick the language as the app does, per request: the address's ``?lang=es``, else the
class's language (``safari-kit class --lang es``, in ``$SAFARI_KIT_LANG``), else the browser's languages
(``Accept-Language``), else English. Nothing the request sends is trusted beyond the name of a language the kit
has a catalogue for.

The sentences are the settings' defaults (``full_message`` ...), marked for the catalogue where they are
declared; a teacher who writes their own sentence (``--VoilaConfiguration...``) sees it as written, in every
language. The HTTP status line keeps its English reason (``Class server full``): only the page is translated.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tornado import web

from safari_kit.core.i18n import LANGUAGE_ENV, N_, SOURCE_LANGUAGE, _, best_language, known_language, language

__all__ = ["request_language", "refusal", "RELOAD", "TEMPLATE_WORDS", "template_words_js", "write_template_words"]

#: the address's parameter, as the app's (``?lang=es``)
LANG_ARG = "lang"
#: the error page's link back to the app (safari_kit/voila_template/safari/error.html)
RELOAD = N_("Reload the app")


def request_language(handler: Any) -> str:
    """The language of the page ``handler`` answers (see the module's docstring); English without a handler."""
    if handler is None:
        return known_language(os.environ.get(LANGUAGE_ENV)) or SOURCE_LANGUAGE
    try:
        asked = handler.get_query_argument(LANG_ARG, None)
    except Exception:  # noqa: BLE001 - a handler without arguments (a websocket's): no choice in the address
        asked = None
    for tag in ((asked or "")[:40], os.environ.get(LANGUAGE_ENV)):
        lang = known_language(tag) if tag else None
        if lang is not None:
            return lang
    headers = getattr(getattr(handler, "request", None), "headers", None)
    header = headers.get("Accept-Language") if headers is not None else None
    return best_language(header) if header else SOURCE_LANGUAGE


def refusal(status: int, reason: str, message: str, handler: Any, **values: Any) -> web.HTTPError:
    """The HTTP error that refuses ``handler``'s page: ``message`` (a setting's sentence, formatted with
    ``values``) and ``reason`` (the page's heading) in the learner's language, for the class server's error page
    (``exception.safari_title``, ``safari_lang``, ``safari_reload``); the status line keeps the English reason."""
    lang = request_language(handler)
    with language(lang):
        text = _(message).format(**values)
        title, reload = _(reason), _(RELOAD)
    error = web.HTTPError(status, reason=reason, log_message=text.replace("%", "%%"))
    error.safari_title, error.safari_lang, error.safari_reload = title, lang, reload  # type: ignore[attr-defined]
    return error


# ----------------------------------------------------------------------------- the app page's own sentences
#: what the class server's Voilà template (safari_kit/voila_template/safari/index.html.j2) says on the app page
#: itself: while the lab starts, and when its connection ends. The template keeps the English; the class server
#: writes these words in every language beside it (:func:`write_template_words`), and the page picks its own.
TEMPLATE_WORDS = {
    "starting": N_("Your lab is starting. Keep this page open."),
    "reload": N_("Reload the page to start again."),
    "server_gone": N_("This lab has stopped: its server is not running any more."),
    "server_gone_tail": N_("Reload the page to start again. If that does not work, ask your teacher."),
    "lab_gone": N_("This lab has stopped: the server closes a lab that has had no connection for a while (a laptop "
                   "asleep, a closed lid), and a restarted server has none of the labs it had."),
    "too_big": N_("This page sent a message larger than the server accepts, so the server closed its connection."),
}
#: the file the template includes (``{% include 'page_words.js' ignore missing %}``): absent (make app), English
TEMPLATE_WORDS_FILE = "page_words.js"


def template_words_js(class_lang: str | None = None) -> str:
    """``window.safariPageWords()``: the words of :data:`TEMPLATE_WORDS` in the page's language (the address's
    ``?lang=``, else the class's ``class_lang``, else the browser's languages; English: ``{}``, the template's own)."""
    from safari_kit.core.i18n import available_languages

    langs = [lang for lang in available_languages() if lang != "en_XA"]
    words = {}
    for lang in langs[1:]:
        with language(lang):
            words[lang] = {key: _(text) for key, text in TEMPLATE_WORDS.items()}
    data = json.dumps({"langs": langs, "words": words, "classLang": known_language(class_lang or "")},
                      ensure_ascii=False).replace("</", "<\\/")
    return ("{% raw %}/* made by safari_kit.classroom.page_words (issue 30): the page's own sentences in its "
            "language */\n"
            "window.safariPageWords = function () {\n"
            f"  var d = {data};\n"
            "  function known(tag) {\n"
            "    tag = String(tag || '').slice(0, 20).replace('_', '-').toLowerCase();\n"
            "    return d.langs.indexOf(tag) >= 0 ? tag : d.langs.indexOf(tag.split('-')[0]) >= 0 ? tag.split('-')[0]"
            " : null;\n"
            "  }\n"
            "  var lang = known(new URLSearchParams(location.search).get('lang')) || d.classLang;\n"
            "  (navigator.languages || [navigator.language]).forEach(function (t) { lang = lang || known(t); });\n"
            "  return d.words[lang] || {};\n"
            "};\n{% endraw %}")


def write_template_words(template_dir: Path, class_lang: str | None = None) -> Path:
    """Write :data:`TEMPLATE_WORDS_FILE` into the class server's copy of the template; returns its path."""
    path = Path(template_dir) / TEMPLATE_WORDS_FILE
    path.write_text(template_words_js(class_lang), encoding="utf-8")
    return path
