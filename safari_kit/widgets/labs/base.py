"""What every step-through lab shares: a seed, Reset, a status line, errors that never vanish.

A lab is an ipywidgets layout around a :class:`~safari_kit.widgets.CardTable`
and the numbers the probability layer computes. Labs never decide a rule or
compute a probability themselves: they ask the engine and
:mod:`safari_kit.probability`.

Every lab takes a ``seed`` so a teacher can put the same position on every
screen; ``reset(seed)`` starts again. Errors inside callbacks are caught and
shown in the lab (ipywidgets would otherwise swallow them) and kept in
``lab.errors`` so tests can assert there were none.

**Fair mode** (``fair=True``; the classroom app, :class:`~safari_kit.widgets.app.LabChooser`,
builds every lab this way). With ``seed=None`` a lab that deals hidden cards
(``secret_deals``) draws a fresh *secret* seed on the server at every deal:
the seed box is hidden and holds 0, the seed is in no widget, no status line
and no record of an unfinished game, and Reset / New game / any option that
starts again deal afresh (never the same seed, never seed + 1), whatever seed
is passed to :meth:`Lab.reset`. With an int seed (the teacher's *shared class
seed*) the seed is shown, read-only, and every restart deals that class deal
again. A learner with the notebook (Python) can always read ``lab.seed`` or
``lab.state``: fair mode protects the app, where there is no code.
"""
from __future__ import annotations

import functools
import html
import logging
import os
import traceback

import ipywidgets as W

from safari_kit.core.chance import fresh_seed
from safari_kit.core.i18n import N_, _, current_language, language
from safari_kit.widgets.class_join import ResultsDownload
from safari_kit.widgets.live import LiveRegion
# the chances in HTML live in presentation (issue 28: the widget-free flows write them too); one copy, re-exported
from safari_kit.presentation.numbers import whole
from safari_kit.presentation.chance_html import count_html, count_lines, fraction_html  # noqa: F401
from safari_kit.widgets.quiet import QUIET_ENV, page_words

log = logging.getLogger("safari_kit.widgets")


def python_in_browser() -> bool:
    """True when Python runs in the learner's own browser (the static site, JupyterLite/Pyodide).

    There the learner owns the kernel: a deal is not secret from them (the browser's console reaches it), so the
    pages must not say "in secret" or "fair deal", and no class seed is offered (issue 19).
    """
    import sys

    return sys.platform == "emscripten"


#: JupyterHub gives every single-user server its user's name (Binder's servers are JupyterHub's too)
HUB_USER_ENV = "JUPYTERHUB_USER"


def learner_owns_the_server() -> bool:
    """True on a server the learner owns: a per-learner JupyterHub server (or Binder), not the class server.

    There the learner can open JupyterLab or a terminal and read their own kernels, so a deal is not secret
    from them (issue 29: a learner printed her lab's seed and every card), and no page may say "in secret".
    The class server (``safari-kit class``, ``--hub`` too) sets ``$SAFARI_KIT_QUIET_ERRORS=1`` in every kernel
    it starts (:mod:`safari_kit.classroom.serve`): a class server a teacher starts from their own hub server
    inherits ``JUPYTERHUB_USER``, and its learners still own nothing. ``make app`` on a laptop is neither: the
    person who started it owns it, and learners at that laptop have only the page (docs/teachers.md, "What is
    fair where").
    """
    return bool(os.environ.get(HUB_USER_ENV, "").strip()) and os.environ.get(QUIET_ENV, "").strip() != "1"


def where_python_runs() -> str:
    """Where the kernel deals, in a learner's words: a server's kernel, the learner's own, or the browser's."""
    return _("in your browser") if python_in_browser() else \
        _("on your own server") if learner_owns_the_server() else _("on the server")


#: what a class seed gives away, said wherever one is shown (issue 19: the kit computes every card in one line)
CLASS_SEED_WARNING = N_("Anyone who knows the seed can compute every card, the face-down ones too: "
                      "a class seed is for class exercises, not for contests.")
#: what a deal in the learner's own browser is (the static site): theirs, not secret from them
BROWSER_DEAL_WORDS = N_("Python runs in this browser, so the face-down cards are on this computer: "
                      "good for practice, not for contests (those need the class server).")
#: what a deal on the learner's own server is (a per-learner JupyterHub server, Binder): theirs, not secret
OWN_SERVER_DEAL_WORDS = N_("Your labs run on your own server, so the face-down cards are not hidden from you. "
                         "That is good for practice and homework, not for contests (those need the class server).")


#: the card table's face-down places, at their one tab stop: where the keyboard goes when a turn asks for a
#: place (after Identify, after Challenge; issue 20), see :meth:`~safari_kit.widgets.live.LiveRegion.focus`
PLACE_STOP = ".safari-table .st-selectable[data-key^='place:'][tabindex='0']"


def in_own_language(method):
    """Run a lab's method in the language the lab was built in (issue 30): a click's callback runs in whatever
    context the kernel dispatches it from, so the lab switches to its learner's language itself."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        with language(getattr(self, "language", None)):
            return method(self, *args, **kwargs)

    return wrapper


def guarded(method):
    """Run a lab callback in the lab's language; show any exception in the lab instead of losing it."""

    @functools.wraps(method)
    @in_own_language
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - a lab must never die silently
            self.errors.append(f"{type(exc).__name__}: {exc}")
            log.error("lab callback %s failed:\n%s", method.__name__, traceback.format_exc())
            # the page gets a short sentence without paths; the traceback is in the server's log only (issue 19)
            self.show_status(_("Something went wrong ({problem}). Press Reset to start again.").format(
                problem=page_words(exc)), kind="error")
            return None

    return wrapper


class Lab:
    """Base of the labs: seed box, Reset button, status line and the layout."""

    title = N_("Lab")
    secret_deals = True  # the lab deals cards a learner must not see: fair mode hides its seed

    def __init__(self, seed: int | None = 1, *, fair: bool = False):
        self.errors: list[str] = []
        #: the learner's language, fixed when the lab is built: its callbacks speak it (:func:`in_own_language`)
        self.language = current_language()
        self.fair = bool(fair) and self.secret_deals  # a lab with no hidden cards has nothing to hide
        #: fair mode with no class seed: every deal comes from a fresh secret seed (kept off the page)
        self.secret = self.fair and seed is None and self.secret_deals
        self._secret_seed = fresh_seed() if self.secret else None
        # fair mode with a class seed: kept here, so a value sent from the page (devtools) changes nothing
        self._class_seed = int(seed) if self.fair and not self.secret else None
        self.seed_box = W.IntText(value=0 if self.secret else 1 if seed is None else int(seed),
                                  description=_("Seed"), layout=W.Layout(width="160px"))
        self.reset_button = W.Button(description=_("Reset"), tooltip=_("Start again from this seed"))
        self.reset_button.on_click(lambda _b: self._reset_clicked())
        self.deal_note = W.HTML()
        self.deal_note.add_class("safari-deal-note")
        if self.secret:
            self.seed_box.layout.display = "none"
            self.reset_button.tooltip = _("Start again with a new deal")
            self.deal_note.value = (
                "<span style='color:#555'>"
                + (_("Your own deal: the cards are shuffled in your browser, and every Reset deals new ones.")
                   + " " + _(BROWSER_DEAL_WORDS) if python_in_browser() else
                   _("Your own deal: every Reset deals new cards.") + " " + _(OWN_SERVER_DEAL_WORDS)
                   if learner_owns_the_server() else
                   _("Fair deal: the cards are shuffled in secret on the server, and every Reset deals new ones."))
                + "</span>")
        elif self.fair:  # the class seed is shown in the note (the chooser has the one Seed box)
            self.seed_box.disabled = True
            self.seed_box.layout.display = "none"
            self.reset_button.tooltip = _("Start the class deal again")
            self.deal_note.value = ("<span style='color:#555'>"
                                    + html.escape(_("Class seed {seed}: everyone using this seed has the same deal.")
                                                  .format(seed=int(self.seed_box.value)))
                                    + f" {html.escape(_(CLASS_SEED_WARNING))}</span>")
        self.status = W.HTML()
        self.status.add_class("safari-status")
        self.header = W.HTML(f"<h3 style='margin:2px 12px 2px 0'>{html.escape(_(self.title))}</h3>")
        #: the learner's recorder once they joined the class experiment (issue 21); None: nothing is kept
        self.recorder = None
        self.results_download = ResultsDownload()
        self.top_row = W.HBox([self.header, self.seed_box, self.reset_button, self.deal_note,
                               self.results_download.widget])
        self.top_row.add_class("safari-top")
        self.body = W.VBox()
        #: what a screen reader says after each action (one polite sentence), and the lab's focus keeper (issue 20)
        self.live = LiveRegion(lang=LiveRegion.page_lang(self.language))
        self.layout = W.VBox([self.top_row, self.body, self.status, self.live],
                             layout=W.Layout(border="1px solid #ddd", padding="4px 8px"))
        self.layout.add_class("safari-lab")

    def arrange(self, main, side, below=()) -> None:
        """Lay the lab out for a classroom laptop: the table with the controls of the step beside it.

        ``main`` (the card table) and ``side`` (the buttons, the status line and
        the numbers a learner needs for this step) share one row, so a whole
        turn is played without scrolling at 1366x768; on a narrow screen the
        side column wraps under the table. ``below`` holds what is read after
        the turn (full tables, tallies, logs). The status line moves to the top
        of the side column.
        """
        from safari_kit.widgets.table import CardTable

        for part in main:  # the lab says one sentence per action (self.live): the table's message is not said too
            if isinstance(part, CardTable):
                part.live_message = False
        self.main_column = W.VBox(list(main))
        self.main_column.add_class("safari-main")
        self.side_column = W.VBox([self.status, *side])
        self.side_column.add_class("safari-side")
        self.play_row = W.HBox([self.main_column, self.side_column])
        self.play_row.add_class("safari-play")
        self.body.children = [self.play_row, *below]
        self.layout.children = [self.top_row, self.body, self.live]

    #: the lab's name in the class records (issue 21); each lab sets its own
    record_lab = "lab"

    def use_recorder(self, recorder, opening: bool = False, download: ResultsDownload | None = None) -> None:
        """Record this lab's actions into ``recorder`` (a :class:`~safari_kit.class_results.recorder.Recorder`;
        None: stop recording). The chooser calls it for every lab it opens (``opening=True``: the lab was
        just built for a learner who had joined, so what it did while opening, such as the Simulation lab's
        first run, is the learner's too) and for the open lab when the learner joins. ``download``: a
        "Download my results" link shown elsewhere (the chooser's, one for every lab: it keeps the lab's own
        top row short); the lab's own link is then hidden for good."""
        self.recorder = recorder
        if download is not None and download is not self.results_download:
            self.results_download.widget.layout.display = "none"
            self.top_row.children = [c for c in self.top_row.children if c is not self.results_download.widget]
            self.results_download = download
        self.results_download.refresh(recorder)

    def record(self, kind: str, **fields) -> None:
        """Record one action for the class experiment: ``kind`` names the recorder's method
        (``"simulation_run"``, ``"guess"``, ``"challenge_decision"``, ``"knockout_play"``, ``"quiz_answer"``).

        Nothing happens until the learner joined. A record that cannot be made or stored never stops the
        lab: it is logged and kept in ``lab.errors`` (so tests see it); a record the store refused stays in
        the learner's download (the recorder keeps it before handing it on).
        """
        recorder = self.recorder
        if recorder is None:
            return
        try:
            getattr(recorder, kind)(lab=fields.pop("lab", self.record_lab), **fields)
        except Exception as exc:  # noqa: BLE001 - recording must not break a turn
            self.errors.append(f"recording {kind}: {type(exc).__name__}: {exc}")
            log.error("recording %s failed:\n%s", kind, traceback.format_exc())
        self.results_download.refresh(recorder)

    @property
    def seed(self) -> int:
        """The seed of the current deal (in fair mode a secret one: Python only, never on the page)."""
        if self.secret:
            return int(self._secret_seed)
        if self._class_seed is not None:
            return self._class_seed
        return int(self.seed_box.value)

    @in_own_language
    def _reset_clicked(self) -> None:
        """The Reset button (a lab may run a click's long work in steps, see the Simulation lab)."""
        self.reset(None if self.fair else self.seed_box.value)

    @in_own_language  # a New game button may call it straight from a click
    def reset(self, seed: int | None = None) -> None:
        """Deal again: from ``seed`` (notebook mode), or a fresh secret deal / the class deal (fair mode)."""
        if self.secret:
            self._secret_seed = fresh_seed()  # never the old seed, never seed + 1
        elif seed is not None and not self.fair:
            self.seed_box.value = int(seed)
        self._reset()

    def _reset(self) -> None:  # pragma: no cover - every lab overrides it
        raise NotImplementedError

    def show_status(self, text: str, kind: str = "info", spoken: str | None = None) -> None:
        """Show ``text`` in the status line, and say it (or ``spoken``, when the words for the ear differ).

        Every action of a lab ends in one status line, so a screen reader hears one sentence per action.
        """
        self.live.say(text if spoken is None else spoken)
        color = {"info": "#234", "good": "#1b7f3b", "bad": "#a33", "error": "#a00"}.get(kind, "#234")
        self.status.value = f"<div style='color:{color};padding:4px 0'>{html.escape(text)}</div>"

    def _repr_mimebundle_(self, **kwargs):
        data = self.layout._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):
            data = data[0]
        data = dict(data or {})
        with language(self.language):
            which = _("a secret deal") if self.secret else _("seed {seed}").format(seed=self.seed)
            data["text/plain"] = _("{lab} ({which}). If you see this text instead of the lab, the notebook's widgets "
                                   "could not be displayed: start JupyterLab with `make lab` (its environment must "
                                   "have ipywidgets and anywidget), then reopen the notebook.").format(
                                       lab=_(self.title), which=which)
        return data

    def _ipython_display_(self):  # pragma: no cover - used by older IPython
        from IPython.display import display

        display(self.layout)


class Progress:
    """A progress bar for long simulations: pass ``progress.update`` as a callback(done, total)."""

    def __init__(self, description: str | None = None):
        self.bar = W.IntProgress(value=0, min=0, max=1, description=_("Simulating") if description is None
                                 else description)
        self.label = W.HTML()
        self.widget = W.HBox([self.bar, self.label])

    def update(self, done: int, total: int) -> None:
        self.bar.max = max(1, int(total))
        self.bar.value = int(done)
        self.label.value = f"{whole(done)} / {whole(total)}"
