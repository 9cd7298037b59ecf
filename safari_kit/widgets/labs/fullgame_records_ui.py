"""The Full game lab's record controls: Save and Load buttons, the record name box, the record text box.

A mixin of :class:`~safari_kit.widgets.labs.fullgame.FullGameLab` (like its spoken words,
:mod:`~safari_kit.widgets.labs.fullgame_spoken`): the widgets and their wiring only. What Save writes, what Load
accepts and every refusal (fair mode: Save once the game is over, Load between games and of finished games only)
are :mod:`safari_kit.presentation.fullgame_records`, tested without widgets (issue 28).
"""
from __future__ import annotations

import html

import ipywidgets as W

from safari_kit.core.errors import SafariKitError
from safari_kit.core.i18n import _
from safari_kit.presentation import fullgame_records as R
from safari_kit.presentation.fullgame_text import record_words
from safari_kit.widgets.labs.base import guarded
from safari_kit.widgets.labs.limits import limit_text

__all__ = ["RECORD_TEXT_LIMIT", "RecordControls"]

RECORD_TEXT_LIMIT = 1_000_000  # characters in the record box: a record file's size cap


class RecordControls:
    """Save and Load of a Full game (needs the lab's ``flow``, ``fair``, ``_start`` and its option widgets)."""

    def _build_records(self):
        self.save_button = W.Button(description=_("Save game record"))
        self.save_button.add_class("safari-save")
        self.save_button.on_click(lambda _b: self._save_clicked())
        self.load_button = W.Button(description=_("Load game record"))
        self.load_button.add_class("safari-load")
        self.load_button.on_click(lambda _b: self._load_clicked())
        self.path_box = W.Text(placeholder=_("record name (optional), e.g. my-game"), description=_("File"),
                               tooltip=_("A bare name: letters, digits, - and _ (.json is added). Records "
                                         "are kept in the records folder."),
                               layout=W.Layout(width="330px"))
        self.path_box.add_class("safari-record-name")
        limit_text(self.path_box, 80)  # a record name is at most 64 letters and .json
        self.record_note = W.HTML()
        self.record_note.add_class("safari-record-note")
        self.record_box = W.Textarea(placeholder=_("A saved record appears here; paste one to load it."),
                                     layout=W.Layout(width="95%", height="70px", display="none"))
        limit_text(self.record_box, RECORD_TEXT_LIMIT)
        self.path_box.layout.width = "250px"
        row = W.HBox([self.save_button, self.load_button, self.path_box], layout=W.Layout(flex_flow="row wrap"))
        return W.VBox([row,
                       self.record_note,
                       self.record_box])

    def _update_record_controls(self) -> None:
        """Fair mode: Save only a finished game, Load only between games; say why on the page."""
        if not self.fair:
            self.save_button.disabled = False
            self.save_button.tooltip = _("Show the record; with a name, also save it in the records folder")
            self.record_note.value = ""
            return
        over = self.flow.state is not None and self.flow.state.is_terminal()
        self.save_button.disabled = not over
        self.save_button.tooltip = (_("Show the record; with a name, also save it in the records folder") if over
                                    else _("A game can be saved once it is over (a record shows every hidden "
                                           "card)"))
        self.load_button.tooltip = (_("Load a finished game's record to look at it") if not self.flow.in_progress
                                    else _("Load is refused while a game is in progress"))
        self.record_note.value = f"<div style='color:#555;font-size:90%'>{html.escape(_(R.RECORDS_NOTE))}</div>"

    @guarded
    def save_record(self, name: str | None = None) -> str | None:
        """The game record as JSON text, shown in the record box; saved as ``name`` in the records folder when given.

        ``name`` is a record name (``my-game`` or ``my-game.json``, see
        :mod:`safari_kit.core.record_files`); any other name is refused and
        nothing is written. In fair mode only a finished game is saved.
        """
        return self._save(name)

    @guarded
    def _save_clicked(self) -> None:
        try:  # a refused name or file is the learner's to fix: said plainly, not as a crash
            self._save(self.path_box.value.strip() or None)
        except SafariKitError as exc:
            self.show_status(_("Not saved: {problem}").format(problem=exc), kind="bad")

    def _save(self, name: str | None) -> str | None:
        if self.fair and not self.flow.state.is_terminal():
            self.show_status(R.NOT_OVER, kind="bad")
            return None
        text, fname = R.save_text(self.flow.state, name, self.fair)
        self.record_box.value = text  # shown first: a refused save (the quota) leaves it to copy
        self.record_box.layout.display = ""
        said = _("Record saved. It holds the seed: whoever loads it can replay everything.")
        if fname is not None:
            R.write(fname, text, self.fair)
            said = _("Record saved as {file} in the records folder. It holds the seed: whoever loads it can replay "
                     "everything.").format(file=fname)
            if self.fair:
                self.path_box.value = fname[:-5]
        self.show_status(said, kind="good")
        return text

    @guarded
    def _load_clicked(self) -> None:
        source = self.path_box.value.strip() or self.record_box.value.strip()
        if not source:
            self.record_box.layout.display = ""
            self.show_status(_("Paste a record into the box (or give a record name), then press Load again."))
            return
        try:
            self._load(source)
        except SafariKitError as exc:
            self.show_status(_("Not loaded: {problem}").format(problem=record_words(exc)), kind="bad")

    @guarded
    def load_record(self, record) -> None:
        """Continue a saved game: a dict, JSON record text, or a record name in the records folder.

        (A :class:`pathlib.Path` is read as it is, in notebook mode only: the
        page's File box always means a record name.) In fair mode Load is
        refused while a game is in progress, and only finished games load.
        """
        self._load(record)

    def _load(self, record) -> None:
        if self.fair and self.flow.in_progress:
            self.show_status(R.LOAD_IN_PROGRESS, kind="bad")
            return
        state = R.load_state(record, self.fair)
        if self.fair and not state.is_terminal():
            self.show_status(R.UNFINISHED, kind="bad")
            return
        game = state.game
        if not self.fair:
            self.seed_box.value = state.seed
        o = game.options
        self.players_box.value, self.case_box.value, self.advanced_box.value = o.players, o.case_module, o.advanced
        humans = tuple(h for h in self.flow.humans if h < o.players) or (0,)
        self.learner_seats = humans
        self._start(game, state, humans)
        self.show_status(_("Loaded a game at turn {turn} ({n} actions).").format(
            turn=state.turn, n=len(state.history)), kind="good")
