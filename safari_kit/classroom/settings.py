"""Every setting of the class server (``make class``, ``safari-kit class``), declared once.

Each setting is one :class:`Setting` in :data:`SETTINGS`: its default, its help, its command-line flag (and
the flag's unit: ``--max-message-kib`` in KiB for a setting in bytes), where it goes in Voilà's config, and
how the teachers' guide names its default. From them:

* :class:`ClassSettings` takes its defaults (its fields' types are the dataclass's annotations);
* ``safari-kit class`` builds its options (:func:`add_arguments`) and reads them back (:func:`from_arguments`);
* :func:`safari_kit.classroom.config.voila_config` sets each setting's trait (:attr:`Setting.config`);
* :func:`limits_table` writes the limits table of docs/teachers.md ("Class server"), which a test compares;
* :meth:`ClassSettings.kernel_env` gives every lab's kernel its variables (the class's language, issue 30).

A setting added here reaches all four; tests/server/test_class_settings_declared.py checks that every
flag comes back as its config value.
"""
from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from safari_kit.core.errors import SafariKitError
from safari_kit.core.i18n import LANGUAGE_ENV, LANGUAGE_NAMES, available_languages, known_language

__all__ = ["ClassSettings", "Setting", "SETTINGS", "LimitRow", "LIMIT_ROWS", "add_arguments", "from_arguments",
           "limits_table", "MiB", "ClassLanguageError", "class_language"]

MiB = 1024 * 1024


@dataclasses.dataclass(frozen=True)
class Setting:
    """One class setting: ``default`` in its own unit (bytes, seconds, MB); the flag's value is
    ``default // scale`` (``scale`` 1024: KiB). ``help`` may use ``{cli}`` (the flag's default) and
    ``{minutes}``; ``doc_default`` is how docs/teachers.md's limits table says the default (same fields).
    ``config``: ``(section, trait)`` of Voilà's config that takes the value (None: :func:`voila_config` uses it
    otherwise); ``low``/``high``: the flag's bounds (None: any text); ``what``: what the flag is, in an error;
    ``parse``: the flag's own reader of a text (its ``ValueError`` is the command's one-line error)."""

    name: str
    default: Any
    flag: str
    help: str
    doc_default: str = "{cli}"
    config: tuple[str, str] | None = None
    low: int | None = 0
    high: int | None = None
    what: str = "a whole number"
    scale: int = 1
    metavar: str | None = None
    parse: Callable[[str], Any] | None = None

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")

    @property
    def cli_default(self) -> Any:
        if isinstance(self.default, float) and self.default.is_integer():
            return int(self.default) // self.scale
        return self.default // self.scale if self.scale != 1 else self.default

    def _fields(self) -> dict[str, Any]:
        cli = self.cli_default
        return {"cli": cli, "minutes": cli // 60 if isinstance(cli, int) else cli}

    def help_text(self) -> str:
        return self.help.format(**self._fields())

    def doc_text(self) -> str:
        return f"`{self.flag}` ({self.doc_default.format(**self._fields())})"


_KM = "ClassroomKernelManager"


class ClassLanguageError(SafariKitError):
    """A class language (``--lang``) the kit has no catalogue for; the message names it and the ones it has."""


def _learner_languages() -> str:
    """The languages a class can speak, as a teacher reads them: ``en (English), es (Español)`` (the test
    pseudo-locale ``en_XA`` is accepted but not offered)."""
    return ", ".join(f"{lang} ({LANGUAGE_NAMES[lang]})" if lang in LANGUAGE_NAMES else lang
                     for lang in available_languages() if lang != "en_XA")


def class_language(text: str) -> str:
    """``--lang``'s value as the kit names it (``es``, ``es-MX`` -> ``es``; empty: none, each learner's
    browser decides); :class:`ClassLanguageError` for a language without a catalogue."""
    text = str(text).strip()
    if not text:
        return ""
    lang = known_language(text)
    if lang is None:
        raise ClassLanguageError(f"the kit has no language {text[:40]!r}; it has {_learner_languages()} "
                                 f"(a language is a folder of safari_kit/locale)")
    return lang

#: every class setting, in the order of ``safari-kit class --help``
SETTINGS: tuple[Setting, ...] = (
    Setting("ip", "0.0.0.0", "--ip", "the interface to listen on (default {cli}: every interface, so the class can "
            "reach it; 127.0.0.1: this computer only)", doc_default="`{cli}`: every network interface",
            config=("Voila", "ip"), low=None),
    Setting("port", 8866, "--port", "port (default {cli})", config=("Voila", "port"), low=1, high=65535,
            what="a port"),
    Setting("base_url", "/", "--base-url", "the path the app is served under, e.g. /7b/ behind the school's "
            "reverse proxy (default {cli})", config=("Voila", "base_url"), low=None),
    Setting("max_kernels", 80, "--max-labs", "live labs (kernels) at most, 0 = no cap (default {cli})",
            config=(_KM, "max_kernels"), what="a number of labs"),
    Setting("new_kernels_per_minute", 4, "--labs-per-minute", "new labs one computer (IP address) may open in a "
            "minute, 0 = no cap (default {cli})", doc_default="{cli} per IP address in any 60 s",
            config=(_KM, "new_kernels_per_minute"), what="a number of labs"),
    Setting("ready_labs", 30, "--ready-labs", "labs kept started, in use or ready, so that a learner's page opens at "
            "once: size it to the class (about 60 MB each), 0 = none (default {cli})",
            config=(_KM, "ready_labs"), what="a number of labs"),
    Setting("spare_labs", 2, "--spare-labs", "ready labs kept however many are in use, for latecomers and reloads "
            "(default {cli})", config=(_KM, "spare_labs"), what="a number of labs"),
    Setting("max_starting", 2, "--starting-at-once", "labs starting at once (their pages rendering); further pages "
            "get a page saying the lab is starting, 0 = no cap (default {cli})", config=(_KM, "max_starting"),
            what="a number of labs"),
    Setting("cull_idle_seconds", 600, "--idle-seconds", "close a lab no page has been connected to for this long, "
            "0 = never (default {cli}: {minutes} minutes)", doc_default="{cli}, i.e. {minutes} minutes",
            config=(_KM, "cull_idle_timeout"), what="a number of seconds"),
    Setting("cull_interval_seconds", 60, "--cull-interval", "seconds between two looks for idle labs (default {cli})",
            config=(_KM, "cull_interval"), low=1, what="a number of seconds"),
    Setting("memory_limit_mb", 512, "--memory-mb", "memory one lab may use, in MB, 0 = no cap (default {cli})",
            doc_default="{cli} MB", config=(_KM, "memory_limit_mb"), what="a number of MB"),
    Setting("memory_check_seconds", 5.0, "--memory-check", "seconds between two memory readings (default {cli})",
            config=(_KM, "memory_check_interval"), low=1, what="a number of seconds"),
    Setting("max_message_bytes", 1 * MiB, "--max-message-kib", "largest websocket message a page may send, in KiB "
            "(default {cli})", doc_default="{cli}: 1 MiB per websocket message", low=64, what="a number of KiB",
            scale=1024),
    Setting("page_bytes_per_10s", 4 * MiB, "--page-kib-per-10s", "what one lab's pages may send in any 10 seconds, "
            "all their connections together, in KiB, 0 = no cap; more closes its connections with a sentence "
            "(default {cli})", doc_default="{cli}: 4 MiB in any 10 s", config=(_KM, "page_bytes_per_window"),
            what="a number of KiB", scale=1024),
    Setting("sockets_per_lab", 3, "--sockets-per-lab", "connections (websockets) open at once on one lab; a new one "
            "closes the oldest, 0 = no cap (default {cli})", config=(_KM, "max_sockets_per_lab"),
            what="a number of connections"),
    Setting("labs_per_browser", 3, "--labs-per-browser", "labs one browser may hold at once, 0 = no cap "
            "(default {cli})", config=(_KM, "labs_per_browser"), what="a number of labs"),
    Setting("labs_per_address", 6, "--labs-per-address", "labs one network address may hold at once (a hotspot puts "
            "a few learners behind one), 0 = no cap (default {cli})", config=(_KM, "labs_per_address"),
            what="a number of labs"),
    Setting("reclaim_after_seconds", 150, "--reclaim-after", "when the server is full, a newcomer's page takes the "
            "lab whose page has sent nothing for the longest time beyond this many seconds, 0 = never "
            "(default {cli})", doc_default="{cli} s", config=(_KM, "reclaim_silent_seconds"),
            what="a number of seconds"),
    Setting("results", "", "--results", "record the class's results (nicknamed learners' runs, guesses and "
            "decisions) in FOLDER/SESSION.sqlite3 and serve the teacher's page, whose address (with the teacher's "
            "key) is printed at start (default: off, nothing recorded)", low=None, metavar="FOLDER"),
    Setting("session", "", "--session", "the session's name with --results: letters, digits, '-' and '_' "
            "(default: the start's date and time, e.g. 2026-12-04-1905)", low=None, metavar="NAME"),
    # issue 29: the class server as a JupyterHub managed service (safari_kit.classroom.hub_env, .hub)
    Setting("hub", False, "--hub", "run as a JupyterHub service: learners log in with their school account, a lab "
            "belongs to the hub user, the address, port and path come from the hub (needs the 'hub' extra; "
            "default: off)", low=None),
    Setting("teacher_group", "", "--teacher-group", "with --hub: the hub group whose members (and the hub's "
            "admins) open the teacher's page without its key, e.g. teachers-7b (default: admins only)",
            low=None, metavar="GROUP"),
    Setting("public_url", "", "--public-url", "with --hub: the hub's public address, e.g. https://hub.school.org/, "
            "to print the learners' and teacher's addresses (default: the hub's JUPYTERHUB_PUBLIC_URL)",
            low=None, metavar="URL"),
    # issue 30: the class's language, for every lab's kernel ($SAFARI_KIT_LANG: ClassSettings.kernel_env)
    Setting("lang", "", "--lang", "the app's language for the whole class, e.g. es (Spanish); a learner can still "
            "pick another in the app's Language list (default: none: English in a ready lab, the browser's "
            "language in a lab started for its page)", doc_default="none", low=None, metavar="LANG", what="a language",
            parse=class_language),
)

_BY_NAME = {s.name: s for s in SETTINGS}


def _default(name: str) -> Any:
    return _BY_NAME[name].default


@dataclasses.dataclass(frozen=True)
class LimitRow:
    """One row of docs/teachers.md's limits table: ``options`` names its settings as ``{name}`` (each written
    ``--flag (default)``); ``does`` and ``sees`` are the guide's words."""

    limit: str
    options: str
    does: str
    sees: str


#: the limits table of docs/teachers.md ("Class server"), row by row (:func:`limits_table`)
LIMIT_ROWS: tuple[LimitRow, ...] = (
    LimitRow('where it listens', '{ip}, {port}',
             '`--ip 127.0.0.1` for this computer only, or the address of one network card',
             'the address printed at the start'),
    LimitRow('labs at once', '{max_kernels}',
             'a new page beyond it starts no kernel',
             ('a page: "The class server is full … Close a tab you no longer use, wait a minute, then reload '
              'this page. If it stays full, tell your teacher."')),
    LimitRow('new labs per computer', '{new_kernels_per_minute}',
             'stops one device opening pages in a loop',
             'a page: "This computer opened 4 labs in the last minute … Wait a minute, then reload this page."'),
    LimitRow('ready labs', '{ready_labs}, {spare_labs}',
             ('the server starts this many labs before anyone comes (each has already run the app, about 60 MB '
              'each), **two at a time** (see the next row), and keeps that many in all, in use or ready, plus '
              'at least 2 ready for latecomers and reloads; never more than `--max-labs`. A lab is given to a '
              'learner only once its page has been checked whole (the app is in it and its Python is running); '
              "a lab whose page came out incomplete (this happened on a busy laptop: the app's output arrived "
              'too late) is stopped and another started, and the terminal says so in one line. Size it to the '
              'class: `--ready-labs 60` for two classes, `0` on a laptop short of memory'),
             ('when a lab is ready, the app opens at once; a learner who comes before any lab is ready sees a '
              'page: **"Your lab is starting. The class is arriving together, so this can take up to a minute. '
              'Keep this page open: your lab opens here by itself."** The page asks again every 2 seconds or so'
              ' and turns into the app without a reload. Never a white page')),
    LimitRow('labs starting at once', '{max_starting}',
             ('starting a lab (a new Python, the app notebook run, the page rendered) is the heaviest thing the'
              ' server does; the ready labs start this many at a time too (each keeps its place until its page '
              "has been rendered), and a learner's page that comes while every place is taken is told to wait "
              '(a place comes back when a started page has been rendered and sent, or its page connects, or 30 '
              's pass), so the labs already open keep answering quickly'),
             ('the page "Your lab is starting. The class is arriving together, so this can take up to a minute.'
              ' Keep this page open: your lab opens here by itself." (it asks again every 2 s or so; a learner '
              "who waits is not counted as opening labs), then the app; while the lab runs the app, Voilà's "
              'spinner with "Your lab is starting. Keep this page open."')),
    LimitRow('idle labs', '{cull_idle_seconds}, checked every {cull_interval_seconds} s',
             ('a lab no page has been connected to for that long is shut (a tab closed without its shutdown, a '
              'device that went to sleep); a lab with an open page is **never** shut for being idle, nor one '
              'whose page has not connected yet until 2 minutes have passed (a page still loading on a busy '
              'server)'),
             ('nothing while the page is open; a device that slept longer finds, on waking, "This lab has '
              'stopped ... Reload the page to start again" above the lab (a new lab: the game it was playing is'
              ' gone)')),
    LimitRow('memory per lab', '{memory_limit_mb}, read every {memory_check_seconds} s',
             "a lab's kernel over it is stopped (an app lab uses about 60 MB)",
             ('a yellow line over the page: "This lab used more than 512 MB of the server\'s memory, so the '
              'server stopped it. Reload the page to start again."')),
    LimitRow('message size', '{max_message_bytes}',
             ("a larger message (far more than any click or record) closes that page's connection; the others "
              'do not notice'),
             ('a yellow line: "This page sent a message larger than the server accepts, so the server closed '
              'its connection. Reload the page to start again."')),
    LimitRow("what one lab's pages send", '{page_bytes_per_10s}',
             ("What **one lab's pages** may send in any 10 s, **all their connections together** (it used to be"
              ' per connection: one page opened 6 connections and sent six times as much). Past it, every '
              'connection of that lab is closed, and for the rest of those 10 s a new connection to that lab is'
              ' refused. The lab itself keeps running.'),
             ('"This page sent more than 4.2 MB in 10 seconds, more than the class server allows, so the server'
              ' closed its connection. Reload the page to start again."')),
    LimitRow('windows of one lab', '{sockets_per_lab}',
             ("Connections (websockets) open at once on one lab. The app's page uses 1; a page reconnecting "
              'after a network hiccup may briefly hold a second. A new connection beyond the cap closes the '
              '**oldest** (the newest is the one a learner is looking at).'),
             ('On the older window: "This lab was opened in too many windows at once, so the server closed this'
              ' one. Reload the page to start again."')),
    LimitRow('labs per browser', '{labs_per_browser}',
             ("Labs one browser may hold at once (the browser's own cookie; a second tab of the same browser is"
              ' the same learner). A lab whose page has gone (a tab closed without saying goodbye) is taken '
              'back first, so a learner who reloads is never refused because of their own old tabs.'),
             ('A page: "This browser already has 3 labs open, the most the class server allows for one learner.'
              ' Close a tab you no longer use, then reload this page."')),
    LimitRow('labs per computer', '{labs_per_address}',
             ("Labs one network address may hold at once. A school's phone hotspot can put a few learners "
              'behind one address, so it is larger than the per-browser cap. Behind a reverse proxy every '
              "learner has the proxy's address: set it to 0 there (as `--labs-per-minute`)."),
             ('A page: "This computer already has 6 labs open, the most the class server allows for one '
              'computer. Close a tab you no longer use, then reload this page. If several of you share one '
              'connection (a phone hotspot), tell your teacher."')),
    LimitRow('the language', '{lang}',
             ("the app's language for the class, `--lang es` for Spanish (the kit's languages are the folders of "
              '`safari_kit/locale`). Without it, a lab started for its page speaks the browser\'s language, and a '
              'ready lab (started before its page came) speaks English. Each learner can still pick another '
              'language in the app'),
             ('the app and its labs in that language, with the Language list at the top showing it; a learner who '
              'picks another there gets it in every lab opened after')),
    LimitRow('a full server', '{reclaim_after_seconds}',
             ("**Only when the server is full** (`--max-labs` reached): a newcomer's page takes the lab whose "
              'page has sent nothing (no click, no message) for the longest time, if that is more than this '
              'many seconds. A lab of a browser or address holding more than its share goes first; a lab whose '
              'page has already gone goes before any other. Only a newcomer who holds no lab, from an address '
              'that holds no quiet lab, takes one (otherwise someone asking every few seconds would take back '
              'their own quiet labs one by one and a classmate would never get in); a learner who reloads while'
              ' the server is full takes back their own old lab if its page has gone. While the server has '
              'room, nothing is taken: a learner reading quietly keeps the lab however long.'),
             ('On the quiet page: "The class server was full and this page had been quiet for minutes, so its '
              'lab went to a classmate. Reload the page to start again." (Reloading gets a lab again when one '
              'is free.)')),
)


def limits_table() -> str:
    """docs/teachers.md's limits table, in Markdown, from :data:`SETTINGS` and :data:`LIMIT_ROWS`."""
    options = {s.name: s.doc_text() for s in SETTINGS}
    lines = ["| limit | option (default) | what it does | what the learner sees |", "|---|---|---|---|"]
    lines += [f"| {row.limit} | {row.options.format(**options)} | {row.does} | {row.sees} |" for row in LIMIT_ROWS]
    return "\n".join(lines) + "\n"


def _int_in(setting: Setting) -> Callable[[str], int]:
    """An argparse type: a whole number within the setting's bounds, with a readable error."""
    low, high, what = setting.low, setting.high, setting.what

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"expected {what} {span}, got {value}")
        return value

    return parse


def _parsed_by(setting: Setting) -> Callable[[str], Any]:
    """An argparse type from ``setting.parse``: its ValueError becomes argparse's one-line error."""
    parse = setting.parse
    assert parse is not None

    def parsed(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parsed


def add_arguments(parser: argparse.ArgumentParser, settings: Sequence[Setting] = SETTINGS) -> None:
    """One option per setting, as ``safari-kit class`` has them."""
    for s in settings:
        kwargs: dict[str, Any] = {"help": s.help_text(), "dest": s.dest}
        if s.metavar:
            kwargs["metavar"] = s.metavar
        if isinstance(s.default, bool):  # a switch (--hub): on when given
            kwargs.update(action="store_true", default=s.default)
        elif s.low is None and s.high is None:
            kwargs["default"] = s.default if s.default != "" else None
            if s.parse is not None:
                kwargs["type"] = _parsed_by(s)
        else:
            kwargs.update(type=_int_in(s), default=s.cli_default)
        parser.add_argument(s.flag, **kwargs)


def from_arguments(args: argparse.Namespace, settings: Sequence[Setting] = SETTINGS) -> ClassSettings:
    """The :class:`ClassSettings` of parsed options (each flag's value times its scale)."""
    values: dict[str, Any] = {}
    for s in settings:
        value = getattr(args, s.dest)
        if value is None:
            value = s.default
        elif s.scale != 1:
            value = value * s.scale
        values[s.name] = value
    return ClassSettings(**values)


@dataclasses.dataclass(frozen=True)
class ClassSettings:
    """Every setting of the class server: each field's default, help and flag are its :data:`SETTINGS` entry."""

    ip: str = _default("ip")
    port: int = _default("port")
    base_url: str = _default("base_url")
    max_kernels: int = _default("max_kernels")
    new_kernels_per_minute: int = _default("new_kernels_per_minute")
    ready_labs: int = _default("ready_labs")
    spare_labs: int = _default("spare_labs")
    max_starting: int = _default("max_starting")
    cull_idle_seconds: int = _default("cull_idle_seconds")
    cull_interval_seconds: int = _default("cull_interval_seconds")
    memory_limit_mb: int = _default("memory_limit_mb")
    memory_check_seconds: float = _default("memory_check_seconds")
    max_message_bytes: int = _default("max_message_bytes")
    page_bytes_per_10s: int = _default("page_bytes_per_10s")
    sockets_per_lab: int = _default("sockets_per_lab")
    labs_per_browser: int = _default("labs_per_browser")
    labs_per_address: int = _default("labs_per_address")
    reclaim_after_seconds: int = _default("reclaim_after_seconds")
    results: str = _default("results")
    session: str = _default("session")
    hub: bool = _default("hub")
    teacher_group: str = _default("teacher_group")
    public_url: str = _default("public_url")
    lang: str = _default("lang")

    @property
    def pool_size(self) -> int:
        """The ready labs started before the class comes: :attr:`ready_labs`, never more than :attr:`max_kernels`."""
        return min(self.ready_labs, self.max_kernels) if self.max_kernels else self.ready_labs

    def kernel_env(self) -> dict[str, str]:
        """The variables every lab's kernel starts with: ``$SAFARI_KIT_LANG`` when the class has a language
        (the app's chooser reads it before the browser's ``Accept-Language``:
        :func:`safari_kit.widgets.app.page_language`); none without one."""
        return {LANGUAGE_ENV: self.lang} if self.lang else {}

    def __post_init__(self):
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "hub":
                if not isinstance(value, bool):
                    raise ValueError(f"class setting hub must be True or False, got {value!r}")
                continue
            if field.name in ("ip", "base_url", "results", "session", "teacher_group", "public_url", "lang"):
                if not isinstance(value, str):
                    raise ValueError(f"class setting {field.name} must be text, got {value!r}")
                continue
            if not isinstance(value, int | float) or value < 0:
                raise ValueError(f"class setting {field.name} must be a number >= 0, got {value!r}")
        if not (self.base_url.startswith("/") and self.base_url.endswith("/")) or any(
                c.isspace() or c in "?#\\" for c in self.base_url):
            raise ValueError(f"class setting base_url must be a path that starts and ends with '/', such as "
                             f"'/7b/', got {self.base_url!r}")
        if not 0 < self.port < 65536:
            raise ValueError(f"class setting port must be from 1 to 65535, got {self.port}")
        if self.cull_idle_seconds and self.cull_interval_seconds <= 0:
            raise ValueError("class setting cull_interval_seconds must be > 0 when kernels are culled")
        if self.page_bytes_per_10s and self.page_bytes_per_10s < (self.max_message_bytes or 64 * 1024):
            raise ValueError(f"class setting page_bytes_per_10s must be at least max_message_bytes "
                             f"({self.max_message_bytes}), got {self.page_bytes_per_10s}")
        if not self.hub and (self.teacher_group or self.public_url):
            raise ValueError("class settings teacher_group and public_url (--teacher-group, --public-url) need "
                             "hub (--hub): without the hub there are no groups and no hub address")
        if self.lang and class_language(self.lang) != self.lang:  # ClassLanguageError for an unknown one
            raise ClassLanguageError(f"class setting lang must be the kit's name of a language, such as 'es', got "
                                     f"{self.lang!r}")
        if self.max_message_bytes and self.max_message_bytes < 64 * 1024:
            raise ValueError(f"class setting max_message_bytes must be at least 65536 (the app's own messages), "
                             f"got {self.max_message_bytes}")
