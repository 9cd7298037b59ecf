"""Joining the class experiment with a nickname, and the learner's results as a download (issue 21).

The chooser of the app shows a :class:`JoinPanel` (with the one download link of every lab):
a learner *may* give a nickname (nothing else). Until they do, no lab records anything. When they join, the panel
makes one :class:`~safari_kit.class_results.recorder.Recorder` for the page, whose sink is
the class server's store when the server records (:func:`~safari_kit.class_results.class_session.store_from_env`),
and every lab opened afterwards records into it (:meth:`safari_kit.widgets.labs.base.Lab.use_recorder`).

The panel says what is kept before the learner joins, in the words of :func:`what_is_kept`:
on a recording class server, the nickname and the actions, in the teacher's database until
the teacher wipes it; anywhere else, nothing leaves the page unless the learner downloads
their results file. A nickname that cannot be used (:func:`~safari_kit.class_results.nicknames.clean_nickname`:
too long, hidden characters, mixed alphabets; or, on a recording server, held by another
learner: :func:`~safari_kit.class_results.class_learner.claim_nickname`) is refused in plain words and
the learner is not joined. Once joined, the nickname is fixed for the page: a value sent
later from the page (devtools) changes nothing — the recorder holds the name.

Issue 26: on a recording class server the learner id comes from the browser's owner tag
(:mod:`safari_kit.class_results.learner_tags`), so every page of one browser is one learner: a second
page joins under the nickname the browser holds. Record numbers come from the store (shared by
the pages), and each record passes the learner's quota
(:func:`~safari_kit.class_results.class_learner.take_quota`) before it goes to the class's database;
one over it stays in the learner's download only, and the panel says so once.

:class:`ResultsDownload` is the "Download my results" button (the chooser's, or a lab's own
outside the app): pressing it makes the session's results file
(:mod:`safari_kit.class_results.results_file`, the learner's own records only) and hands it to the
browser once. Before issue 26 the file was a ``data:`` URI re-sent after every record: 49 MB
to a page that pressed Simulate for 45 s.
"""
from __future__ import annotations

import html
import logging
import time

import anywidget
import ipywidgets as W
import traitlets

from safari_kit.core.i18n import N_, _, ngettext
from safari_kit.presentation.numbers import whole

from safari_kit.class_results.class_learner import CLASS_QUOTA, NicknameTaken, Quota, admit, claim_nickname
from safari_kit.class_results.class_records import NICKNAME_MAX, Record, RecordError
from safari_kit.class_results.class_session import store_from_env
from safari_kit.class_results.learner_tags import kernel_id_from_connection_file, learner_for_kernel
from safari_kit.class_results.nicknames import RAW_MAX, NicknameError, clean_nickname
from safari_kit.class_results.recorder import Recorder

__all__ = ["JoinPanel", "ResultsDownload", "DownloadButton", "what_is_kept", "over_quota_words", "this_kernel_id"]

log = logging.getLogger("safari_kit.widgets")

#: what a joined learner's labs keep, in short sentences (issue 27: it was one 60-word sentence)
KEPT_ACTIONS = N_("That is each Simulate run and each guess with its exact chance. It is also each stop-or-go "
                "choice in a Challenge, each Knockout card you play and each quiz answer. Each comes with the "
                "lab and the time.")


def what_is_kept(recording: bool) -> str:
    """The sentences the page shows before a learner joins: what is kept about them, and where."""
    if recording:
        return (_("If you join, the class server keeps your nickname and what you do in the labs.") + " "
                + _(KEPT_ACTIONS) + " "
                + _("Your teacher sees them in the class results, until your teacher wipes them. The server also "
                    "keeps a random code for this browser, so all your tabs count as one learner. Nothing else is "
                    "kept: no name, no address. You need not join to play."))
    return (_("If you join, this page keeps what you do in the labs, under your nickname.") + " "
            + _(KEPT_ACTIONS) + " "
            + _("You can download them as a file for your teacher: press Download my results, beside your "
                "nickname. Nothing leaves this page unless you download it. You need not join to play."))


def this_kernel_id() -> str | None:
    """This kernel's id, from its connection file's name (None outside a Jupyter kernel)."""
    try:
        from ipykernel.connect import get_connection_file

        return kernel_id_from_connection_file(get_connection_file())
    except Exception:  # noqa: BLE001 - no kernel app (plain Python, a test): no id
        return None


def over_quota_words(quota: Quota) -> str:
    """What a learner reads once when the class's database stops keeping their records (issue 26)."""
    return _("The class results keep your first {burst} results at once, then one every {seconds} seconds, and "
             "{cap} in all. You are going faster than that, so some of your new results stay only in this page: "
             "Download my results keeps them all.").format(burst=quota.burst, seconds=f"{quota.seconds_per_record:g}",
                                                         cap=quota.cap)


class JoinPanel:
    """The nickname box of the chooser; ``recorder`` is None until the learner joins.

    ``store``: where records go (a :class:`~safari_kit.class_results.class_store.ResultStore`); by default the
    class server's store named in the environment, or none (records stay in the page for the download).
    ``on_join(recorder)`` is called once, when the learner joins. ``kernel_id``: this page's kernel (by
    default read from the kernel's connection file), whose owner tag names the learner; ``quota``: records
    one learner may store in the class's database.
    """

    def __init__(self, store=None, on_join=None, *, from_env: bool = True, kernel_id: str | None = None,
                 quota: Quota = CLASS_QUOTA):
        self.store = store if store is not None or not from_env else store_from_env()
        self.on_join = on_join
        self.kernel_id = kernel_id
        self.quota = quota
        self.recorder: Recorder | None = None
        #: records the class's database did not keep (over the quota); they stay in the download
        self.not_stored = 0
        self._admitted: set[int] = set()  # record numbers the quota let through, until stored
        self.nickname = W.Text(placeholder=_("a nickname, e.g. Zed"),
                               description="<b>" + html.escape(_("Nickname")) + "</b>",
                               description_allow_html=True, layout=W.Layout(width="250px"),
                               continuous_update=False)
        self.nickname.style.description_width = "initial"
        # trust nothing the page sends: a huge value is dropped at once, not kept in the widget's state
        self.nickname.observe(self._clamp, "value")
        self.join_button = W.Button(description=_("Join the class experiment"),  # as wide as its words
                                    layout=W.Layout(width="auto", min_width="210px"),
                                    tooltip=_("Record what you do in the labs under this nickname"))
        self.join_button.add_class("safari-join")
        self.join_button.on_click(lambda _b: self.join(self.nickname.value))
        # no join on Enter or on leaving the box: ipywidgets sends the value on blur too, and joining must be
        # the learner's own press of Join, after the sentence of what is kept (Tab then Enter on the keyboard)
        # the full sentence is in the chooser's start hint too; here it folds, to keep the chooser short
        self.note = W.HTML("<details class='safari-kept'><summary>"
                           + html.escape(_("What is kept about you?")) + "</summary>"
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

    def _clamp(self, change) -> None:
        value = change["new"]
        if self.recorder is not None and value != self.recorder.nickname:
            self.nickname.value = self.recorder.nickname
        elif not isinstance(value, str) or len(value) > RAW_MAX:
            self.nickname.value = ""

    def _refuse(self, sentence: str) -> None:
        self.note.value = self._note_html(sentence, "#a00")

    def _learner(self) -> str | None:
        """The learner id of this page's browser on a recording class server (None: a random one)."""
        if self.store is None:
            return None
        return learner_for_kernel(self.store.path, self.kernel_id or this_kernel_id())

    def join(self, nickname) -> Recorder | None:
        """Join under ``nickname`` (cleaned: :func:`~safari_kit.class_results.nicknames.clean_nickname`); returns the
        recorder, or None when refused (the panel says why)."""
        if self.recorder is not None:  # joined already: the name is fixed, whatever the page sends now
            self.nickname.value = self.recorder.nickname
            return self.recorder
        try:
            name = clean_nickname(nickname)  # the raw length first: nothing of a huge text is read or repeated
        except NicknameError as exc:
            self._refuse(str(exc))
            return None
        learner = self._learner()
        store = self.store
        try:
            if store is not None:
                recorder = Recorder(name, learner=learner)  # the id is made (random without a tag) and checked
                held = claim_nickname(store, recorder.learner, name, quota=self.quota)
                self.recorder = Recorder(held, learner=recorder.learner, sink=self._store, numbering=self._number)
            else:
                self.recorder = Recorder(name, learner=learner)
        except NicknameTaken as exc:
            self._refuse(str(exc))
            return None
        except RecordError:
            self._refuse(_("That nickname cannot be used. Use up to {n} letters, digits and spaces.").format(
                n=NICKNAME_MAX))
            return None
        name = self.recorder.nickname
        self.nickname.value = name
        self.nickname.disabled = True
        self.join_button.disabled = True
        self.join_button.description = _("Joined")
        where = (_("The class server keeps your runs, guesses, decisions and answers for your teacher; "
                   "nothing else.") if self.recording else
                 _("Your results stay in this page: Download my results (here, after your first result) "
                   "saves them as a file for your teacher."))
        joined = (_("You joined as {name}.") if name == clean_nickname(nickname) else
                  _("This browser joined as {name} already, so this page joins as {name} too.")).format(name=name)
        self.note.value = self._note_html(f"{joined} {where}", "#1b5e20")
        self.download.refresh(self.recorder)
        if self.on_join is not None:
            self.on_join(self.recorder)
        return self.recorder

    def _number(self) -> int:
        """The recorder's numbering on a recording server: the learner's next number (shared by the browser's
        pages) and, in the same transaction, whether the quota lets the class's database keep that record."""
        assert self.store is not None and self.recorder is not None
        seq, allowed = admit(self.store, self.recorder.learner, self.quota)
        if allowed:
            self._admitted.add(seq)
        return seq

    def _store(self, record: Record) -> None:
        """The recorder's sink on a recording server: the class's database keeps the record if the learner's
        quota allowed it (:meth:`_number`); otherwise it stays in the download only, and the learner is told
        once."""
        assert self.store is not None
        if record.seq in self._admitted:
            self._admitted.discard(record.seq)
            self.store.add(record)
            return
        self.not_stored += 1
        if self.not_stored == 1:
            self.note.value = self._note_html(over_quota_words(self.quota), "#8a4b00")


_DOWNLOAD_ESM = r"""
export default {
  render({ model, el }) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "safari-download-link";
    button.textContent = model.get("label");
    button.style.cssText = "color:#0b57d0;text-decoration:underline;font-weight:600;background:none;"
      + "border:none;padding:4px 2px;cursor:pointer;font-size:14px;min-height:24px";
    const count = document.createElement("small");
    count.style.color = "#444";
    const show = () => {
      // the words come from Python, in the learner's language (issue 30): plural forms are the catalogue's
      count.textContent = " (" + model.get("count_words") + ")";
      button.title = model.get("title_words");
    };
    button.addEventListener("click", () => model.send({ ask: "file" }));
    const save = (msg) => {
      if (!msg || typeof msg.text !== "string" || typeof msg.name !== "string") return;
      const url = URL.createObjectURL(new Blob([msg.text], { type: "application/x-ndjson" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = msg.name;
      a.style.display = "none";
      el.appendChild(a);
      a.click();
      setTimeout(() => { URL.revokeObjectURL(url); a.remove(); }, 1000);
    };
    model.on("msg:custom", save);
    model.on("change:count_words", show);
    show();
    el.append(button, count);
    return () => { model.off("msg:custom", save); model.off("change:count_words", show); };
  },
};
"""


class DownloadButton(anywidget.AnyWidget):
    """A button that asks the kernel for the file; the kernel answers once with its name and text."""

    _esm = _DOWNLOAD_ESM
    count = traitlets.Int(0).tag(sync=True)
    label = traitlets.Unicode("Download my results").tag(sync=True)
    #: "3 records", in the learner's language (set with ``count``)
    count_words = traitlets.Unicode("0 records").tag(sync=True)
    title_words = traitlets.Unicode("Save your results as a file (0 records)").tag(sync=True)


class ResultsDownload:
    """A lab's "Download my results" button (hidden until the first record): the file is made when the
    learner presses it and sent to that page once (a custom widget message), never re-sent after a record."""

    #: presses closer together than this send the file once (a held Enter key, a script pressing in a loop)
    min_seconds_between = 1.0

    def __init__(self):
        self.recorder: Recorder | None = None
        self.sent = 0           # files handed to the page (tests, benchmarks)
        self.sent_bytes = 0     # their bytes
        self._last = float("-inf")
        self.widget = DownloadButton(label=_("Download my results"))
        self._words(0)
        self.widget.add_class("safari-results-download")
        self.widget.layout.display = "none"
        self.widget.on_msg(self._asked)

    def refresh(self, recorder: Recorder | None) -> None:
        """Show how many records the file would hold (a few bytes); the file itself is made on request."""
        self.recorder = recorder
        count = len(recorder.records) if recorder is not None else 0
        self._words(count)
        self.widget.count = count
        self.widget.layout.display = "" if count else "none"

    def _words(self, count: int) -> None:
        records = ngettext("{n} record", "{n} records", count).format(n=whole(count))
        self.widget.count_words = records
        self.widget.title_words = _("Save your results as a file ({records})").format(records=records)

    def file(self) -> tuple[str, str] | None:
        """The download's (file name, text), or None before the first record."""
        recorder = self.recorder
        text = recorder.results_text() if recorder is not None else ""
        return (recorder.file_name(), text) if recorder is not None and text else None

    def _asked(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict) or content.get("ask") != "file":  # trust nothing the page sends
            return
        now = time.monotonic()
        if now - self._last < self.min_seconds_between:
            return
        made = self.file()
        if made is None:
            return
        self._last = now
        name, text = made
        self.widget.send({"name": name, "text": text})
        self.sent += 1
        self.sent_bytes += len(text.encode("utf-8"))
