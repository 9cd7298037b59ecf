"""The learner's language: which catalogue a sentence is read from, chosen per learner, not per process.

Why here, in the lowest layer: every layer that writes words for a learner (presentation, tutorial, teaching,
widgets) marks them with the same ``_()``; core imports nothing of the kit, so no layer contract bends for it.
It is the standard library's :mod:`gettext` only (no Babel at run time): the learner's kernel in the static
site (Python in the browser) imports the kit too, and must stay light.

**Per learner, not per process.** The language is a :class:`~contextvars.ContextVar`. ``with language("es"):``
switches it for the code inside and for nothing else; a lab remembers the language it was built in and
switches back to it in each of its callbacks (:func:`safari_kit.widgets.labs.base.guarded`), so one kernel (or
one server process) that builds labs for two learners never hands one learner's language to the other. Outside
any ``with``, the default is ``$SAFARI_KIT_LANG`` (set per kernel by whoever starts it), else English.

**English is the source.** A string marked ``_("Reset")`` is its own English text: in English nothing is looked
up (``NullTranslations``), so English pages are byte-identical to the unmarked code.

>>> _("Reset")
'Reset'
>>> with language("es"):
...     _("Reset")
'Reiniciar'
>>> ngettext("{n} card", "{n} cards", 1).format(n=1), ngettext("{n} card", "{n} cards", 3).format(n=3)
('1 card', '3 cards')
>>> best_language("es-MX,es;q=0.9,en;q=0.5"), best_language("de-DE"), best_language("")
('es', 'en', 'en')

Catalogues follow gettext's layout: ``safari_kit/locale/<lang>/LC_MESSAGES/safari_kit.po`` (the text a
translator edits) and ``.mo`` (compiled, what is read here), shipped in the wheel. ``python tools/i18n.py``
extracts, updates, compiles and checks them (CONTRIBUTING, "Translating the kit").
"""
from __future__ import annotations

import gettext as _gettext
import os
import re
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping
from typing import Iterator

from safari_kit.core.errors import SafariKitError

__all__ = ["_", "N_", "ngettext", "pgettext", "language", "set_language", "current_language", "best_language",
           "available_languages", "known_language", "chosen_language", "LANGUAGE_NAMES", "and_join", "series", "Words",
           "UnknownLanguageError", "DOMAIN", "LOCALE_DIR", "LANGUAGE_ENV", "SOURCE_LANGUAGE", "language_name",
           "OWN_NAME_CONTEXT"]

DOMAIN = "safari_kit"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: the language the kit's strings are written in (no catalogue: the marked text is the English text)
SOURCE_LANGUAGE = "en"
#: the kernel's default language, when no ``with language(...)`` is active (the class server may set it per kernel)
LANGUAGE_ENV = "SAFARI_KIT_LANG"

_current: ContextVar[str | None] = ContextVar("safari_kit_language", default=None)
_TAG = re.compile(r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$")


class UnknownLanguageError(SafariKitError):
    """A language the kit has no catalogue for (the message lists the ones it has)."""


@lru_cache(maxsize=1)
def available_languages() -> tuple[str, ...]:
    """The languages with a compiled catalogue, English first (``en_XA`` is the pseudo-locale for tests)."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LANGUAGE, *[lang for lang in found if lang != SOURCE_LANGUAGE])


def _known(tag: str) -> str | None:
    """``tag`` as the kit names it (``es-MX`` -> ``es``, ``en_xa`` -> ``en_XA``), or None if it has no catalogue."""
    return _known_text(str(tag))


@lru_cache(maxsize=64)
def _known_text(tag: str) -> str | None:
    """:func:`_known` of a text, remembered: every translated word asks for the current language."""
    tag = tag.strip()
    if not _TAG.match(tag):
        return None
    base, _sep, region = tag.replace("-", "_").partition("_")
    full = f"{base.lower()}_{region.upper()}" if region else base.lower()
    langs = available_languages()
    return full if full in langs else base.lower() if base.lower() in langs else None


def known_language(tag: str | None) -> str | None:
    """``tag`` as the kit names it (``es-MX`` -> ``es``), or None when the kit has no catalogue for it."""
    return None if tag is None else _known(tag)


#: the context of the one message that names a catalogue's language in that language ("Español"): a new
#: language's name comes with its catalogue, so adding a language is adding files, never a line of code
OWN_NAME_CONTEXT = "this language's own name, as a learner choosing it reads it (Español, Français)"


def language_name(lang: str) -> str:
    """``lang``'s own name, from its own catalogue (``es`` -> ``Español``); its code when the catalogue has none.

    >>> language_name("en"), language_name("es"), language_name("xx")
    ('English', 'Español', 'xx')
    """
    if lang == SOURCE_LANGUAGE:
        return "English"
    if lang not in available_languages():
        return lang
    with language(lang):
        name = pgettext("this language's own name, as a learner choosing it reads it (Español, Français)", "English")
    return lang if name == "English" else name


class _LanguageNames(Mapping):
    """Each available language's own name (:func:`language_name`), read from the catalogues when asked."""

    def __getitem__(self, lang: str) -> str:
        if lang not in available_languages():
            raise KeyError(lang)
        return language_name(lang)

    def __iter__(self):
        return iter(available_languages())

    def __len__(self) -> int:
        return len(available_languages())


#: each language's own name, for a learner choosing it: ``LANGUAGE_NAMES["es"] == "Español"``
LANGUAGE_NAMES: Mapping[str, str] = _LanguageNames()


def _checked(tag: str) -> str:
    lang = _known(tag)
    if lang is None:
        raise UnknownLanguageError(f"no catalogue for the language {str(tag)[:40]!r}; the kit has: "
                                   f"{', '.join(available_languages())} (safari_kit/locale/<lang>/LC_MESSAGES)")
    return lang


def chosen_language() -> str | None:
    """The language of the innermost ``with language(...)`` (or :func:`set_language`), None outside any."""
    return _current.get()


def current_language() -> str:
    """The language of the code running now: the innermost ``with language(...)``, else ``$SAFARI_KIT_LANG``
    (if the kit has it), else English."""
    lang = _current.get()
    if lang is not None:
        return lang
    return _known(os.environ.get(LANGUAGE_ENV, "")) or SOURCE_LANGUAGE


@contextmanager
def language(tag: str | None) -> Iterator[str]:
    """Run the code inside in ``tag``'s language (None: leave the current one). Raises
    :class:`UnknownLanguageError` for a language without a catalogue."""
    if tag is None:
        yield current_language()
        return
    token = _current.set(_checked(tag))
    try:
        yield _current.get() or SOURCE_LANGUAGE
    finally:
        _current.reset(token)


def set_language(tag: str) -> Token:
    """Switch the current context to ``tag`` (a notebook's ``set_language("es")``); returns the token that
    :meth:`ContextVar.reset` takes. Other contexts (another learner's callbacks) keep their own language."""
    return _current.set(_checked(tag))


def best_language(accept_language: str | None) -> str:
    """The kit's language that best fits a browser's ``Accept-Language`` header (English when none fits).

    Trusts nothing in the header: it is cut to 500 characters and parsed by hand, bad parts are skipped.
    """
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(str(accept_language or "")[:500].split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip():
            match = re.match(r"\s*q\s*=\s*([01](\.[0-9]{0,3})?)\s*$", params)
            if match is None:  # a part with a malformed weight is skipped, not trusted
                continue
            q = float(match.group(1))
        lang = _known(tag)
        if lang is not None and q > 0:
            choices.append((-q, i, lang))
    return min(choices)[2] if choices else SOURCE_LANGUAGE


@lru_cache(maxsize=None)
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (English and unknown languages: none, every string is its own text)."""
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def _(message: str) -> str:
    """``message`` in the current language (the English text when the catalogue lacks it). An empty message stays
    empty (gettext would answer with the catalogue's header)."""
    return translations(current_language()).gettext(message) if message else message


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now: for words kept in module constants,
    which are read before any learner chose a language. Translate them where they are shown: ``_(CONSTANT)``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, by the language's own plural rule (never ``if n == 1``)."""
    return translations(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in a context (the same English word translated two ways, e.g. a card's "Type" and a
    button's)."""
    return translations(current_language()).pgettext(context, message)


def and_join(items) -> str:
    """Every item joined by the language's "and": ``A and B and C`` (a sentence's own "and", never a bare
    ``" and ".join``, which no catalogue can translate)."""
    items = [str(i) for i in items]
    text = items[0] if items else ""
    for item in items[1:]:
        text = _("{first} and {second}").format(first=text, second=item)
    return text


def series(items) -> str:
    """A list as a sentence says it: ``A, B and C``."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return items[0] if items else ""
    return _("{first} and {second}").format(first=_(", ").join(items[:-1]), second=items[-1])


def _translated(value):
    if isinstance(value, str):
        return _(value)
    if isinstance(value, tuple):
        return tuple(_translated(v) for v in value)
    return value


class Words(dict):
    """A table of words kept in a module constant (``{"weight_kg": N_("Weight")}``), read in the learner's
    language: ``WORDS[key]``, ``.get``, ``.values()`` and ``.items()`` translate each value (a string, or a tuple
    of strings) when it is read, so a constant made at import time still speaks the language of the moment.

    >>> ITEMS = Words({"weight_kg": N_("Weight")})
    >>> with language("en_XA"):
    ...     ITEMS["weight_kg"].startswith("[Ŵ")
    True
    >>> ITEMS["weight_kg"]
    'Weight'
    """

    def __getitem__(self, key):
        return _translated(super().__getitem__(key))

    def get(self, key, default=None):
        return self[key] if key in self else default

    def values(self):
        return [self[k] for k in self]

    def items(self):
        return [(k, self[k]) for k in self]
