"""Joining the class experiment with a nickname, and the learner's results as a download (issue 21).

The chooser of the app shows a :class:`JoinPanel` (with the one download link of every lab):
a learner *may* give a nickname (nothing else). Until they do, no lab records anything. When they join, the panel
makes one :class:`~safari_kit.teaching.recorder.Recorder` for the page, whose sink is
the class server's store when the server records (:func:`~safari_kit.teaching.class_session.store_from_env`),
and every lab opened afterwards records into it (:meth:`safari_kit.widgets.labs.base.Lab.use_recorder`).

The panel says what is kept before the learner joins, in the words of :func:`what_is_kept`:
on a recording class server, the nickname and the actions, in the teacher's database until
the teacher wipes it; anywhere else, nothing leaves the page unless the learner downloads
their results file. A nickname the records refuse (too long, several lines) is named in the
panel and the learner is not joined. Once joined, the nickname is fixed for the page: a
value sent later from the page (devtools) changes nothing — the recorder holds the name.

:class:`ResultsDownload` is the "Download my results" link (the chooser's, or a lab's own
outside the app): a ``data:`` URI of the session's results file
(:mod:`safari_kit.teaching.results_file`), the learner's own records only, refreshed after every record.
"""
from __future__ import annotations

import base64
import html
import logging

import ipywidgets as W

from safari_kit.teaching.class_records import NICKNAME_MAX, RecordError
from safari_kit.teaching.class_session import store_from_env
from safari_kit.teaching.recorder import Recorder

__all__ = ["JoinPanel", "ResultsDownload", "what_is_kept"]

log = logging.getLogger("safari_kit.widgets")

KEPT_ACTIONS = ("each Simulate run, each guess beside the exact chance, each Challenge stop-or-continue "
                "decision, each Knockout card played with its chance, and each tutorial quiz answer, "
                "with the lab and the time")


def what_is_kept(recording: bool) -> str:
    """The sentence the page shows before a learner joins: what is kept about them, and where."""
    if recording:
        return (f"If you join, the class server keeps your nickname and {KEPT_ACTIONS}, for your teacher's "
                "class results, until your teacher wipes them. Nothing else is kept: no name, no address. "
                "You need not join to play.")
    return (f"If you join, this page keeps {KEPT_ACTIONS}, under your nickname, so you can download them as "
            "a file for your teacher (Download my results, beside your nickname). Nothing leaves this page unless "
            "you download it. You need not join to play.")


class JoinPanel:
    """The nickname box of the chooser; ``recorder`` is None until the learner joins.

    ``store``: where records go (a :class:`~safari_kit.teaching.class_store.ResultStore`); by default the
    class server's store named in the environment, or none (records stay in the page for the download).
    ``on_join(recorder)`` is called once, when the learner joins.
    """

    def __init__(self, store=None, on_join=None, *, from_env: bool = True):
        self.store = store if store is not None or not from_env else store_from_env()
        self.on_join = on_join
        self.recorder: Recorder | None = None
        self.nickname = W.Text(placeholder="a nickname, e.g. Zed", description="<b>Nickname</b>",
                               description_allow_html=True, layout=W.Layout(width="250px"),
                               continuous_update=False)
        self.nickname.style.description_width = "initial"
        self.join_button = W.Button(description="Join the class experiment", layout=W.Layout(width="210px"),
                                    tooltip="Record what you do in the labs under this nickname")
        self.join_button.add_class("safari-join")
        self.join_button.on_click(lambda _b: self.join(self.nickname.value))
        # no join on Enter or on leaving the box: ipywidgets sends the value on blur too, and joining must be
        # the learner's own press of Join, after the sentence of what is kept (Tab then Enter on the keyboard)
        # the full sentence is in the chooser's start hint too; here it folds, to keep the chooser short
        self.note = W.HTML("<details class='safari-kept'><summary>What is kept about you?</summary>"
                           f"{self._note_html(what_is_kept(self.recording))}</details>")
        self.note.add_class("safari-join-note")
        #: the learner's results as a file, for every lab (the chooser hands it to each lab it opens)
        self.download = ResultsDownload()
        self.widget = W.HBox([self.nickname, self.join_button, self.note, self.download.widget])
        self.widget.add_class("safari-join-row")
        self.widget.layout.flex_flow = "row wrap"
        self.widget.layout.align_items = "center"

    @property
    def recording(self) -> bool:
        """True when records go to the class server's store (not only into this page)."""
        return self.store is not None

    @staticmethod
    def _note_html(text: str, color: str = "#444") -> str:
        return f"<small style='color:{color}'>{html.escape(text)}</small>"

    def join(self, nickname) -> Recorder | None:
        """Join under ``nickname`` (surrounding spaces dropped); returns the recorder, or None when refused."""
        if self.recorder is not None:  # joined already: the name is fixed, whatever the page sends now
            self.nickname.value = self.recorder.nickname
            return self.recorder
        name = str(nickname or "").strip()
        if not name:
            self.note.value = self._note_html("Type a nickname first (up to "
                                              f"{NICKNAME_MAX} characters), then press Join.", "#a00")
            return None
        try:
            self.recorder = Recorder(name, sink=self.store.add if self.store is not None else None)
        except RecordError as exc:
            self.note.value = self._note_html(f"That nickname cannot be used: {exc}.", "#a00")
            return None
        self.nickname.value = name
        self.nickname.disabled = True
        self.join_button.disabled = True
        self.join_button.description = "Joined"
        where = ("The class server keeps your runs, guesses, decisions and answers for your teacher; "
                 "nothing else." if self.recording else
                 "Your results stay in this page: Download my results (here, after your first result) "
                 "saves them as a file for your teacher.")
        self.note.value = self._note_html(f"You joined as {name}. {where}", "#1b5e20")
        self.download.refresh(self.recorder)
        if self.on_join is not None:
            self.on_join(self.recorder)
        return self.recorder


class ResultsDownload:
    """A lab's "Download my results" link: the learner's results file as a ``data:`` URI (hidden until the
    first record)."""

    def __init__(self):
        self.widget = W.HTML()
        self.widget.add_class("safari-results-download")
        self.widget.layout.display = "none"

    def refresh(self, recorder: Recorder | None) -> None:
        text = recorder.results_text() if recorder is not None else ""
        if not text:
            self.widget.value = ""
            self.widget.layout.display = "none"
            return
        count = len(recorder.records)
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        name = html.escape(recorder.file_name(), quote=True)
        self.widget.value = (f"<a download='{name}' href='data:application/x-ndjson;base64,{data}' "
                             "class='safari-download-link' "
                             "style='color:#0b57d0;text-decoration:underline;font-weight:600'>"
                             f"Download my results</a> "
                             f"<small style='color:#444'>({count} record{'s' if count != 1 else ''})</small>")
        self.widget.layout.display = ""
