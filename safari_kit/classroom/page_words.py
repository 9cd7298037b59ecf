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

import os
from typing import Any

from tornado import web

from safari_kit.core.i18n import LANGUAGE_ENV, N_, SOURCE_LANGUAGE, _, best_language, known_language, language

__all__ = ["request_language", "refusal", "RELOAD"]

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
    request = getattr(handler, "request", None)
    header = request.headers.get("Accept-Language") if request is not None else None
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
