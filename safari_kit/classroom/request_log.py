"""The class server's log: no learner's address in it, and a flood of refused requests as a few summary lines.

The teacher reads the class server's terminal: the learners' address and the
teacher's page address are printed at its top. Two things went wrong there:

* **a flood buried it**: 9,960 wrong-key requests to the teacher's page in 15 s
  printed 21,855 warning lines (tornado's line per refused request, and its
  ``HTTPError`` line), and the printed teacher address left the scrollback.
  :class:`ClassLogFilter` lets through at most :data:`LINES_PER_WINDOW` lines of
  each logger in any :data:`WINDOW` seconds, then one line saying how many it
  left out (and of which kind), when the window ends.
* **addresses were kept**: tornado's request lines, its error lines and the
  kit's own refusals named the learner's IP address. :func:`log_request` (given
  to tornado as ``log_function``) writes a request line without the address or
  the query string (where a key would be), and :class:`ClassLogFilter` replaces
  any IPv4 or IPv6 address left in a line by ``<address>``.

:func:`logging_config` is the traitlets ``logging_config`` that puts the filter on
Voilà's console handler and sends tornado's loggers there.
"""
from __future__ import annotations

import asyncio
import logging
import re
import threading
import time

__all__ = ["ClassLogFilter", "log_request", "logging_config", "scrub_addresses", "WINDOW", "LINES_PER_WINDOW"]

WINDOW = 60.0
LINES_PER_WINDOW = 20
_SUMMARY = "safari_summary"  # a record attribute: the filter's own summary line, always let through

_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])")
_IPV6 = re.compile(r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9A-Fa-f]{0,4})(?:%\w+)?"
                   r"(?![\w:])")

access_log = logging.getLogger("tornado.access")


def scrub_addresses(text: str) -> str:
    """``text`` with every IPv4 and IPv6 address replaced by ``<address>``.

    >>> scrub_addresses("Refused GET /api/kernels/1 (from 192.168.1.20) and ::1, [fe80::1%eth0]")
    'Refused GET /api/kernels/1 (from <address>) and <address>, [<address>]'
    >>> scrub_addresses("kernel 1b2c-3d, 12:30:05, version 5.3, 2026-12-04 19:05")
    'kernel 1b2c-3d, 12:30:05, version 5.3, 2026-12-04 19:05'
    """
    text = _IPV6.sub(lambda m: "<address>" if _looks_ipv6(m.group(0)) else m.group(0), text)
    return _IPV4.sub("<address>", text)


def _looks_ipv6(text: str) -> bool:
    """Tell an IPv6 address (``::1``, ``fe80::1``, 8 groups) from a time of day (``12:30:05``)."""
    if "::" in text:
        return True
    return text.count(":") == 7


def log_request(handler) -> None:
    """tornado's request line without the learner's address or the query string (``log_function``).

    Successes are debug lines (not shown); redirects info; refusals warnings; server errors errors.
    """
    status = handler.get_status()
    request = handler.request
    if status < 300 or status == 304:
        method = access_log.debug
    elif status < 400:
        method = access_log.info
    elif status < 500:
        method = access_log.warning
    else:
        method = access_log.error
    method("%d %s %s %.0fms", status, request.method, request.path, 1000.0 * request.request_time())


class ClassLogFilter(logging.Filter):
    """Scrub addresses from every line; cap each logger's lines per window, then summarise (module docstring).

    Lines of ``INFO`` and below pass uncounted and, but for tornado's, unscrubbed (the
    class server's own news: the address it runs at, labs ready, a lab culled);
    warnings and errors are counted per logger.
    """

    def __init__(self, name: str = "", window: float = WINDOW, lines: int = LINES_PER_WINDOW,
                 clock=time.monotonic):
        super().__init__(name)
        self.window, self.lines, self.clock = window, lines, clock
        self._lock = threading.Lock()
        self._windows: dict[str, list] = {}  # logger name -> [window start, lines let through, {kind: left out}]

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, _SUMMARY, False) and record.levelno >= logging.WARNING:
            if not self._count(record):
                return False
        if record.levelno < logging.WARNING and not record.name.startswith("tornado"):
            return True  # the server's own news ("running at http://...": the teacher's address stays)
        message = record.getMessage()
        scrubbed = scrub_addresses(message)
        if scrubbed != message:
            record.msg, record.args = scrubbed, None
        if record.exc_text:
            record.exc_text = scrub_addresses(record.exc_text)
        return True

    def _count(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        with self._lock:
            state = self._windows.get(record.name)
            if state is None or now - state[0] >= self.window:
                if state is not None and state[2]:
                    self._summarise(record.name, state[2])
                state = self._windows[record.name] = [now, 0, {}]
            if state[1] < self.lines:
                state[1] += 1
                return True
            kind = _kind(record)
            if not state[2]:
                self._flush_later(record.name, state)
            state[2][kind] = state[2].get(kind, 0) + 1
            return False

    def _flush_later(self, name: str, state: list) -> None:
        """At the window's end, say what was left out even if nothing else is logged (the flood has stopped)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return

        def flush() -> None:
            with self._lock:
                if self._windows.get(name) is state and state[2]:
                    left = dict(state[2])
                    state[2].clear()
                    self._windows.pop(name, None)
                else:
                    return
            self._summarise(name, left)

        loop.call_later(max(0.0, self.window - (self.clock() - state[0])), flush)

    def _summarise(self, name: str, left: dict[str, int]) -> None:
        total = sum(left.values())
        kinds = ", ".join(f"{n:,} {k}" for k, n in sorted(left.items(), key=lambda kv: -kv[1])[:5])
        logging.getLogger(name).warning(
            "... and %s more lines like these in the last %g s, left out (%s)", f"{total:,}", self.window, kinds,
            extra={_SUMMARY: True})


def _kind(record: logging.LogRecord) -> str:
    """What a left-out line was, for the summary: its status and path without ids (``403 GET /teacher``)."""
    message = record.getMessage()
    match = re.match(r"(\d{3}) (\w+) (\S+)", message)
    if match:
        path = re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27,}", "<id>", match.group(3).split("?")[0])
        return f"{match.group(1)} {match.group(2)} {path}"
    return re.sub(r"[0-9a-f]{8}-[0-9a-f-]{27,}", "<id>", message)[:60]


def logging_config(app_name: str = "Voila") -> dict:
    """traitlets' ``Application.logging_config``: the filter on the console handler; tornado's loggers there too."""
    return {
        "filters": {"safari_class": {"()": f"{__name__}.ClassLogFilter"}},
        "handlers": {"console": {"filters": ["safari_class"]}},
        "loggers": {
            "tornado": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "tornado.access": {"level": "WARNING"},  # request lines: refusals and errors only
        },
    }
