"""What a ready lab's page must hold before a learner gets it, and the page a learner sees while waiting for one.

Seen on a busy 2-core laptop (issue 26): with 30 ready labs rendered at once,
10-17 of them logged nbclient's ``Timeout waiting for IOPub output``. The app
cell's reply had come, but its output (the widget view) had not arrived within
nbclient's 4 s, so the page was rendered without it: the learner got a white
page, and a reload another. :func:`why_not_whole` tells such a page from a
whole one, from what the render itself recorded (nbclient's timings): every
code cell the kernel ran must have sent all its output (its ``idle`` status),
the render must have ended, and the kernel must be alive. A cell whose code
failed is whole in this sense: it fails the same way every time, and a fresh
lab would not help.

:func:`waiting_page` is the page a learner's browser gets while no ready lab
is whole yet (the class arrives while the labs start): a short complete page
that says so in plain words and opens the lab by itself (it asks again every
few seconds), instead of a white page.
"""
from __future__ import annotations

import html

from safari_kit.core.i18n import N_, SOURCE_LANGUAGE, _, language

__all__ = ["why_not_whole", "waiting_page", "WAITING_MARKER"]

#: in every waiting page (raw test clients look for it)
WAITING_MARKER = "safari-lab-starting"


def why_not_whole(task, renderer, alive: bool) -> str | None:
    """Why the page of a ready lab is not whole (a sentence for the teacher's log), or None when it is.

    ``task`` is Voilà's finished render task of the lab (its result: the HTML
    snippets and the generator), ``renderer`` its ``NotebookRenderer`` (whose
    ``executor.nb`` holds the cells as the kernel ran them), ``alive`` whether
    the kernel still runs.
    """
    if task.cancelled():
        return "its render was cancelled"
    error = task.exception()
    if error is not None:
        return f"its render failed ({type(error).__name__}: {error})"
    if not alive:
        return "its kernel stopped"
    if getattr(renderer, "stop_generator", False):
        return "its render was stopped half way"
    executor = getattr(renderer, "executor", None)
    if executor is None:
        return "its kernel never ran the notebook"
    if "window.voila_finish();" not in "".join(task.result()[0]):  # the template's footer
        return "its page does not end"
    for index, cell in enumerate(executor.nb.cells, 1):
        if cell.get("cell_type") != "code":
            continue
        timings = cell.get("metadata", {}).get("execution") or {}
        if "shell.execute_reply" in timings and "iopub.status.idle" not in timings:
            return f"cell {index} ran but not all its output arrived (Timeout waiting for IOPub output)"
    return None


#: the waiting page's title and heading (issue 30: in the learner's language, safari_kit.classroom.page_words)
WAITING_TITLE = N_("Your lab is starting")


def waiting_page(message: str, retry_seconds: float = 3.0, lang: str = SOURCE_LANGUAGE) -> str:
    """The whole HTML page a learner sees while the class server gets a lab ready for them.

    It asks for the app again after ``retry_seconds`` (a little more or less, so
    that a class does not ask all at once), with a ``<noscript>`` refresh for a
    browser without scripts. ``lang``: the learner's language (the title, and ``message`` when the catalogue has
    it: a teacher's own sentence stays as written).

    >>> page = waiting_page("Your lab is starting.")
    >>> "Your lab is starting." in page and WAITING_MARKER in page
    True
    """
    low, high = max(1.0, retry_seconds * 0.7), retry_seconds * 1.3
    with language(lang):
        title, message = _(WAITING_TITLE), _(message)
    return f"""<!DOCTYPE html>
<html lang="{html.escape(lang.replace('_', '-'))}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <title>{html.escape(title)}</title>
  <noscript><meta http-equiv="refresh" content="{retry_seconds:g}"></noscript>
  <style>
    body {{ font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #fafaf7;
           color: #222; }}
    .{WAITING_MARKER} {{ max-width: 40em; margin: 12vh auto; padding: 1.5em 2em; background: #fff;
                        border: 1px solid #ddd; border-radius: 8px; }}
    .{WAITING_MARKER} h1 {{ font-size: 1.5em; margin-top: 0; }}
    .{WAITING_MARKER} p {{ font-size: 1.15em; line-height: 1.5; }}
    .safari-dots::after {{ content: ""; animation: safari-dots 1.5s steps(4, end) infinite; }}
    @keyframes safari-dots {{ 0% {{ content: ""; }} 25% {{ content: "."; }} 50% {{ content: ".."; }}
                             75% {{ content: "..."; }} }}
  </style>
</head>
<body>
  <main class="{WAITING_MARKER}" role="status" aria-live="polite">
    <h1>{html.escape(title)}<span class="safari-dots"></span></h1>
    <p>{html.escape(message)}</p>
  </main>
  <script>
    setTimeout(function () {{ window.location.reload(); }},
               1000 * ({low:.2f} + Math.random() * {high - low:.2f}));
  </script>
</body>
</html>
"""
