"""Errors stay on the server: no traceback or server path reaches a learner's page (issue 19).

In a Jupyter kernel three things carry an error to the page, found by watching a
kernel's messages:

* **logging**: with no handler, Python's last-resort handler writes to
  ``sys.stderr``, which ipykernel sends to the page as a ``stream`` message;
  even the process's own stderr (file descriptor 2) is captured and sent. So
  the "Exception opening comm" traceback of a failed ``comm_open`` (a crafted
  widget that cannot be built), ipywidgets' warnings and the labs' own error
  logs all reached the page, with the server's paths;
* **ipywidgets' ``_show_traceback``**: an error while a widget handles a message
  (a crafted ``{"index": 1000000}``) calls ``shell.showtraceback()``, an
  ``error`` message with the whole traceback;
* **the labs' own words**: an exception's text shown in a status line.

:func:`keep_errors_off_the_page` (called by the classroom app, in Voilà's
kernel) sends every log record to the kernel's *original* stderr, the one
ipykernel keeps for itself (the Voilà server's log, not the page), and makes
``showtraceback`` log the traceback there instead of sending it.
:func:`page_words` is what a lab may show of an exception: its type and a short
message with anything like a file path cut out.

>>> page_words(FileNotFoundError(2, "No such file", "/srv/class/notebooks/records/x.json"))
"FileNotFoundError: [Errno 2] No such file: '…'"
"""
from __future__ import annotations

import logging
import os
import re
import sys

__all__ = ["keep_errors_off_the_page", "page_words", "QUIET_ENV"]

QUIET_ENV = "SAFARI_KIT_QUIET_ERRORS"  # "1": keep errors off the page in any kernel (Voilà's is detected)
log = logging.getLogger("safari_kit.widgets")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][^\s'\"\\/:,;()]+){2,}[\\/]?|~[\\/][^\s'\"]*")
_installed = False


def page_words(exc: BaseException, limit: int = 160) -> str:
    """An exception as a learner may read it: ``Type: message``, paths replaced by "…", at most ``limit`` chars."""
    text = _PATH.sub("…", str(exc)).replace("\n", " ")
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _server_stream():
    """A stream to the kernel's original stderr (the server's log), which ipykernel does not send to the page."""
    fd = getattr(sys.stderr, "_original_stdstream_copy", None)
    if isinstance(fd, int):
        return open(os.dup(fd), "w", buffering=1, encoding="utf-8", errors="replace")
    if sys.stderr is sys.__stderr__ or sys.__stderr__ is None:
        return sys.__stderr__
    return open(os.devnull, "w")  # a captured stderr we cannot get round: say nothing rather than tell the page


def _in_app_kernel() -> bool:
    return bool(os.environ.get("VOILA_KERNEL_ID") or os.environ.get(QUIET_ENV, "").strip() in ("1", "on", "yes"))


def keep_errors_off_the_page(force: bool = False) -> bool:
    """In the app's kernel (Voilà, or ``$SAFARI_KIT_QUIET_ERRORS=1``, or ``force``): logs and tracebacks go to
    the server's log only. Returns True when the guard is in place (once per kernel; no-op elsewhere)."""
    global _installed
    if _installed:
        return True
    if not (force or _in_app_kernel()):
        return False
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return False
    handler = logging.StreamHandler(_server_stream())
    handler.setFormatter(logging.Formatter("[%(asctime)s %(name)s %(levelname)s] %(message)s"))
    handler.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)  # the last-resort handler (sys.stderr: the page) is never used again
    for name in ("Comm", "traitlets", "ipywidgets", "safari_kit"):
        logger = logging.getLogger(name)  # a logger with its own handlers writes where they say: not the page
        for h in list(logger.handlers):
            if isinstance(h, logging.StreamHandler) and h.stream in (sys.stderr, sys.stdout):
                logger.removeHandler(h)

    def showtraceback(*_args, **_kwargs) -> None:
        log.error("an error while handling a message from the page (kept off the page)", exc_info=True)

    shell.showtraceback = showtraceback  # ipywidgets' _show_traceback: the server's log, not an error message
    _installed = True
    return True
