"""CardTable: the one anywidget that draws a Safari Witness or Safari Knockout table.

The page receives only ``view`` (one viewer's observation plus public card
faces, built by :mod:`safari_kit.presentation.views`), ``selectable`` (the targets
the viewer may click now, given by the caller from ``legal_actions()``),
``message`` and ``highlight``. A click comes back in ``click`` as
``{"kind", "id", "seq"}``; Python checks it against ``selectable`` and calls
the ``on_click`` callbacks with the matching target, or explains in
``message`` why the click is not accepted (in the engine's own words).

>>> from safari_kit.witness import WitnessGame
>>> state = WitnessGame(players=2).new_initial_state(seed=3)
>>> table = CardTable.for_witness(state, viewer=state.current_player)
>>> picked = []
>>> table.on_click(picked.append)
>>> table.click = {"kind": "button", "id": "identify", "seq": 1}
>>> picked[0]["label"]
'Identify'
"""
from __future__ import annotations

import logging
import pathlib
import traceback

import anywidget
import traitlets

from safari_kit.core.i18n import _, current_language, language
from safari_kit.presentation import views as V
from safari_kit.presentation.table_page_words import table_words_for
from safari_kit.widgets.quiet import page_words

log = logging.getLogger("safari_kit.widgets")
_STATIC = pathlib.Path(__file__).parent / "static"


def _small(click: dict) -> bool:
    """A click the page could really send: a short kind and id, a number for seq (issue 19: a crafted message
    may carry anything; it is refused before any rule code sees it, and never echoed)."""
    kind, id_, seq = click.get("kind"), click.get("id"), click.get("seq")
    short = lambda x: isinstance(x, str) and len(x) <= 80  # noqa: E731
    ok_id = short(id_) or (isinstance(id_, int) and not isinstance(id_, bool) and abs(id_) < 10**6)
    ok_seq = seq is None or (isinstance(seq, (int, float)) and not isinstance(seq, bool) and abs(seq) < 1e15)
    return short(kind) and ok_id and ok_seq and len(click) <= 8


class CardTable(anywidget.AnyWidget):
    """The table of either game, as one viewer sees it.

    Make one with :meth:`for_witness` / :meth:`for_knockout`, refresh it with
    :meth:`show`, listen with :meth:`on_click`. ``selectable=None`` means "the
    engine's legal actions, when the viewer is the player to act" (else
    nothing is clickable); pass a list to choose the targets yourself (they are
    checked: a target naming a card the viewer cannot see raises ValueError).
    """

    _esm = _STATIC / "table.js"
    _css = _STATIC / "table.css"

    game = traitlets.Enum(("witness", "knockout"), default_value="witness").tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    selectable = traitlets.List(traitlets.Dict()).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    highlight = traitlets.List().tag(sync=True)
    click = traitlets.Dict().tag(sync=True)
    #: short computed numbers drawn under cards, e.g. ``{"place:3": "14/74\n≈ 0.189"}`` (see :meth:`set_notes`)
    notes = traitlets.Dict().tag(sync=True)
    #: what a screen reader says for a note, by the same keys (see :meth:`set_notes`)
    note_words = traitlets.Dict().tag(sync=True)
    #: False in a lab: the lab says one sentence per action itself (its LiveRegion), so the table's message
    #: line is not a live region too (two announcements per click); True for a table on its own
    live_message = traitlets.Bool(True).tag(sync=True)
    #: True once something listens to clicks; a table shown as a picture draws nothing that looks clickable
    interactive = traitlets.Bool(False).tag(sync=True)
    #: every word the page draws or says, in the learner's language (issue 30: table.js keeps none of its own),
    #: made from ``view`` alone by :func:`~safari_kit.presentation.table_page_words.table_words_for`
    words = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs):
        #: the language the table was made in: its words, views and click answers speak it (a click's callback
        #: runs in whatever context the kernel dispatches it from)
        self.language = current_language()
        super().__init__(**kwargs)
        self.words = table_words_for(self.view)
        self._state = None
        self._viewer = None
        self._callbacks: list = []
        self._last_seq = None
        self.last_error: str | None = None
        self.observe(self._on_click_change, names="click")
        self.observe(self._on_view_change, names="view")  # a lab may set ``view`` itself (Knockout's round end)

    # ------------------------------------------------------------------ making and refreshing
    @classmethod
    def for_witness(cls, state, viewer: int, selectable=None, message: str | None = None, highlight=None,
                 phase_words: str | None = None):
        """A table showing a Witness ``state`` as seat ``viewer`` sees it (``phase_words``: see :meth:`show`)."""
        table = cls(game="witness")
        table.show(state, viewer, selectable=selectable, message=message, highlight=highlight,
                   phase_words=phase_words)
        return table

    @classmethod
    def for_knockout(cls, state, viewer: int, selectable=None, message: str | None = None, highlight=None,
                 phase_words: str | None = None):
        """A table showing a Knockout ``state`` as seat ``viewer`` sees it (``phase_words``: see :meth:`show`)."""
        table = cls(game="knockout")
        table.show(state, viewer, selectable=selectable, message=message, highlight=highlight,
                   phase_words=phase_words)
        return table

    @property
    def state(self):
        """The state last shown (Python only; never sent to the page)."""
        return self._state

    @property
    def viewer(self) -> int | None:
        return self._viewer

    def show(self, state, viewer: int | None = None, selectable=None, message: str | None = None,
             highlight=None, phase_words: str | None = None) -> None:
        """Redraw for ``state`` as ``viewer`` (default: the same viewer as before) sees it.

        ``phase_words``: the header's words for this moment, when a lab offers fewer choices than the rules
        (the Identification lab has no Challenge button, so its header must not offer one).
        """
        if viewer is None:
            viewer = self._viewer
        if viewer is None:
            raise ValueError("show() needs a viewer (a seat number) the first time")
        with language(self.language):
            self._show(state, viewer, selectable, message, highlight, phase_words)

    def _show(self, state, viewer: int, selectable, message, highlight, phase_words) -> None:
        view = V.view_for(state, viewer)
        if phase_words is not None:
            view = dict(view, phase_words=str(phase_words))
        if selectable is None:
            selectable = V.selectable_from_legal(state) if view.get("my_turn") else []
        targets = V.check_public(view, selectable)
        marks = []
        for h in highlight or []:
            marks.extend(V.check_public(view, [h]) if isinstance(h, dict) else [])
        self._state, self._viewer = state, viewer
        with self.hold_sync():
            self.game = view["game"]
            self.view = view  # and its words: _on_view_change
            self.selectable = targets
            self.highlight = marks
            self.message = V.default_message(view, targets) if message is None else str(message)

    def mark(self, highlight=None, message: str | None = None) -> None:
        """Change only the highlighted targets and the message (the page updates them without a redraw)."""
        view = self.view
        marks = []
        for h in highlight or []:
            marks.extend(V.check_public(view, [h]) if isinstance(h, dict) else [])
        with self.hold_sync():
            self.highlight = marks
            if message is not None:
                self.message = str(message)

    # ------------------------------------------------------------------ clicks
    def on_click(self, callback, remove: bool = False) -> None:
        """Call ``callback(target)`` for every accepted click (``remove=True`` to stop)."""
        if remove:
            self._callbacks = [c for c in self._callbacks if c is not callback]
        elif callback not in self._callbacks:
            self._callbacks.append(callback)
        self.interactive = bool(self._callbacks)

    def set_notes(self, notes) -> None:
        """Draw short texts under cards: ``{(kind, id): text}``, e.g. ``{("place", 3): "14/74"}``.

        A value may be ``(text, words)``: ``words`` is what a screen reader says after the card's name
        ("chance of a Color match 14 of 74"; issue 20), where the text is written for the eye ("14/74\n≈ 0.19").
        Only computed, public numbers belong here (the chance at a place, a
        card's chance to win): the notes are sent to the page as they are.
        """
        import json

        texts, words = {}, {}
        for (kind, id_), value in dict(notes or {}).items():
            k = f"{kind}:{json.dumps(id_)}"
            if isinstance(value, tuple):
                text, said = value
                words[k] = " ".join(str(said).split())
            else:
                text = value
            texts[k] = str(text)
        with self.hold_sync():
            self.notes = texts
            self.note_words = words

    def _find(self, kind, id_) -> dict | None:
        for t in self.selectable:
            if t.get("kind") == kind and (t.get("id") == id_ or str(t.get("id")) == str(id_)):
                return t
        return None

    def _on_view_change(self, change) -> None:
        """The words of the view now shown: its counts' plural forms and its count-bound sentences."""
        with language(self.language):
            self.words = table_words_for(change["new"])

    def _on_click_change(self, change) -> None:
        with language(self.language):
            try:
                self._handle_click(change["new"])
            except Exception as exc:  # never let an error vanish in the page or escape into the comm
                self._report(exc, "handling a click")

    def _handle_click(self, click) -> None:
        if not click:
            return
        if not isinstance(click, dict) or "kind" not in click or "id" not in click or not _small(click):
            self.message = _("That click could not be read; please click again.")
            return
        seq = click.get("seq")
        if seq is not None and self._last_seq is not None:
            try:
                if float(seq) <= float(self._last_seq):
                    self.message = _("That click was already handled (a repeated message was ignored).")
                    return
            except (TypeError, ValueError):
                pass
        if seq is not None:
            self._last_seq = seq
        target = self._find(click["kind"], click["id"])
        if target is None:
            self.message = self._refusal({"kind": click["kind"], "id": click["id"]})
            return
        for callback in list(self._callbacks):
            try:
                callback(dict(target))
            except Exception as exc:
                self._report(exc, f"running {getattr(callback, '__name__', 'a click callback')}")
                return

    def _refusal(self, target: dict) -> str:
        if target["kind"] not in V.TARGET_KINDS:
            return _("That is not something you can click.")
        try:
            return V.explain_refusal(self._state, self._viewer, target)
        except Exception:  # the explanation itself must never fail the click
            log.exception("safari_kit widget: explaining a refused click failed")
            return _("That is not clickable now.")

    def _report(self, exc: BaseException, doing: str) -> None:
        self.last_error = "".join(traceback.format_exception(exc))
        log.error("safari_kit widget: error while %s:\n%s", doing, self.last_error)
        try:
            # ``doing`` names the step for the server's log; the learner reads what went wrong, in their words
            self.message = _("Oops, something went wrong ({problem}). Please click again.").format(
                problem=page_words(exc))
        except Exception:  # pragma: no cover - setting a Unicode trait cannot really fail
            pass
