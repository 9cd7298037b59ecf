"""Identification lab: the exact chance that a face-down place matches the clue, before you reveal it.

How a browser test drives it (JupyterLab, the lab displayed as a cell's output)
-------------------------------------------------------------------------------
* The lab's root is ``.safari-lab.safari-identification-lab``.
* The probability panel is an HTML widget with class ``safari-prob``: a table
  ``table.safari-prob-table`` whose cells are ``td.safari-prob-cell`` with
  ``data-types`` (``animal`` or ``animal+color``) and ``data-place``; the
  chosen cell also has class ``safari-picked``. Exact values read like
  ``7/37 ≈ 0.189``. Expected values of "identify now" / "reveal another" are in
  ``.safari-prob .safari-ev``.
* Buttons (ipywidgets ``.widget-button``, found by their text): ``Identify``,
  ``Reveal another`` (your turn, before an identification), ``Reveal`` (declare
  the picked type at the picked place), ``Next turn`` (the bots play until your
  next turn), ``Reset``.
* Clue type: a ToggleButtons with class ``safari-types``; its buttons read
  ``Animal``, ``Texture``, ``Color``, ``Name`` (and pairs like ``Animal + Color``
  while ALEX tops your archive).
* Your guess: a Text box with class ``safari-guess`` (type ``0.2``, ``13/70`` or
  ``20%``) before pressing ``Reveal``; leave it empty to skip.
* The table (``.safari-table``): a face-down place is clickable as
  ``.st-selectable[data-key^='place:']`` (e.g. ``[data-key='place:3']``); with
  two clue cards, each is ``.st-selectable[data-key^='clue:']``.
* The tally of guesses against outcomes: ``.safari-tally`` (a table
  ``table.safari-tally-table``, one row per reveal, and a summary line
  ``.safari-tally-summary``); what the other seats did: ``.safari-log``; the
  lab's status line: ``.safari-status``.

A typical round: click ``Identify``, click ``Animal``, click a place
(``.safari-prob .safari-picked`` appears), type a guess, click ``Reveal``; the
tally gets a row; click ``Next turn``.

Python only (no browser): ``lab.identify_button.click()``,
``lab.type_buttons.value = ("animal",)``,
``lab.table.click = {"kind": "place", "id": 3, "seq": 1}``,
``lab.guess_box.value = "0.2"``, ``lab.reveal_button.click()``,
``lab.next_button.click()``; the record is ``lab.predictions``.

The numbers come from :mod:`safari_kit.probability.witness` on the learner's
:class:`~safari_kit.probability.knowledge.Knowledge` twice: *knowing nothing*
(``Memory(last_k=0)``: only what is face up now and the archives) and *with
what you remember* (``memory``, default perfect memory).

**The class experiment** (issue 21). Once the learner joined
(:meth:`~safari_kit.widgets.labs.base.Lab.use_recorder`), each Reveal made with a guess typed records a
``guess``: the guess as typed (``1/5``, ``0.2`` and ``20%`` all record 1/5), the exact chance the lab computed for
that declaration at that place (with what you remember: the tally's "Exact P", also when the chances are hidden
before the guess), the outcome (1: the card matched) and a few words saying what was declared ("Color: Pink at
place 3"; the clue card is face up, so nothing hidden is written). A Reveal without a guess records nothing (there
is nothing to calibrate), and neither does a refused one (a guess that is not a probability, no place picked,
an illegal declaration): the tally gets no row then either.

**Guess first** (issue 26). A joined learner's chances are hidden until they guess: joining unticks "Show the
exact chances", the panel says why in one sentence, and the exact chance appears with the reveal's result and
in the tally. A learner may tick the box again; each guess records ``chance_seen``: True when any exact chance
of the lab was on the screen since the last reveal (the class's calibration then leaves the guess out), False
when none was. A guess is recorded once per reveal of a deal: the same reveal again (Reset with the same seed
replays the same deal, and the learner knows what lies where) stays in the tally but not in the class's records.

This module is the layout and the widget wiring (issue 28); the turn flow, the seats, the guesses, the tally and
every word the lab writes live in :mod:`safari_kit.presentation.identification_flow`, which needs no widgets.
"""
from __future__ import annotations

import html
import logging

import ipywidgets as W

from safari_kit.core.i18n import N_, _
from safari_kit.presentation.numbers import decimal
from safari_kit.presentation.identification_flow import NOTHING, IdentificationFlow, Prediction, Revealed, brier
from safari_kit.presentation.narration import card_label  # noqa: F401 - the tests read card names from here
from safari_kit.probability.knowledge import Memory
from safari_kit.widgets.labs.base import PLACE_STOP, Lab, guarded, in_own_language
from safari_kit.widgets.labs.limits import limit_text
from safari_kit.widgets.quiet import page_words
from safari_kit.widgets.table import CardTable
from safari_kit.witness import actions as A

log = logging.getLogger("safari_kit.widgets")

__all__ = ["IdentificationLab", "Prediction", "brier", "NOTHING"]

#: the flow's state, read (and a few set) on the lab as before the split (tests, lessons, the browser tests)
_FLOW_ATTRIBUTES = ("game", "learner", "memory", "bot_spec", "deck_order", "state", "seats", "predictions", "lines",
                    "picked_place", "picked_clue", "last_result", "chance_shown", "_seen", "_recorded_reveals",
                    "my_turn", "knowledge", "tally_summary", "tally_text")


class IdentificationLab(Lab):
    """Play Safari Witness identifications against bots, with the exact chances and a tally of your guesses."""

    title = N_("Identification lab: which clue type, which place?")
    record_lab = "identification"

    def __init__(self, seed: int | None = 1, players: int = 3, advanced: bool = False,
                 memory: Memory | None = None, *, bot: str = "greedy", learner: int = 0,
                 deck_order=None, fair: bool = False):
        super().__init__(seed, fair=fair)
        self.layout.add_class("safari-identification-lab")
        self.status.add_class("safari-status")
        self.flow = IdentificationFlow(players, advanced, memory, bot=bot, learner=learner, deck_order=deck_order)

        self.table = CardTable(game="witness")
        self.table.on_click(self._on_table_click)
        self.identify_button = W.Button(description=_("Identify"), tooltip=_("Identify with the one clue card now"))
        self.another_button = W.Button(description=_("Reveal another"),
                                       tooltip=_("Reveal a second clue card, then identify both"))
        self.identify_button.add_class("safari-identify")
        self.another_button.add_class("safari-reveal-another")
        self.identify_button.on_click(lambda _b: self._choose(A.Identify()))
        self.another_button.on_click(lambda _b: self._choose(A.RevealAnother()))
        self.type_buttons = W.ToggleButtons(options=[], description=_("Clue type"), style={"button_width": "auto"})
        self.type_buttons.add_class("safari-types")
        self.type_buttons.observe(lambda _c: self._refresh_panel(), names="value")  # chances and notes only
        self.guess_box = W.Text(value="", placeholder=_("e.g. {decimal} or {fraction}").format(
                                    decimal=decimal(0.25, 2), fraction="13/70"), description=_("Your guess"),
                                layout=W.Layout(width="260px"))
        self.guess_box.add_class("safari-guess")
        limit_text(self.guess_box, 40)  # a guess is a short number; a huge one would only cost work
        self.reveal_button = W.Button(description=_("Reveal"), button_style="primary",
                                      tooltip=_("Declare the clue type at the picked place and turn it over"))
        self.reveal_button.layout.width = "90px"
        self.reveal_button.add_class("safari-reveal")
        self.reveal_button.on_click(lambda _b: self._reveal())
        self.next_button = W.Button(description=_("Next turn"), tooltip=_("The other players play until your turn"))
        self.next_button.add_class("safari-next")
        self.next_button.on_click(lambda _b: self._next_turn())
        self.show_exact = W.Checkbox(value=True, description=_("Show the exact chances"), indent=False)
        self.show_exact.observe(lambda _c: self._refresh_panel(), names="value")
        self.prob = W.HTML()
        self.prob.add_class("safari-prob")
        self.tally = W.HTML()
        self.tally.add_class("safari-tally")
        self.log_html = W.HTML()
        self.log_html.add_class("safari-log")
        for b, w in ((self.identify_button, "90px"), (self.another_button, "128px"), (self.next_button, "100px")):
            b.layout.width, b.layout.min_width = "auto", w  # as wide as its words in any language (issue 30)
        self.all_chances = W.HTML()
        self.all_chances.add_class("safari-prob-all")
        self.type_buttons.description = ""
        self.type_label = W.HTML("<b>" + html.escape(_("Clue type")) + "</b>")
        self.guess_box.layout.width = "250px"
        self.guess_box.style.description_width = "initial"  # "Tu estimación" was cut at the default width
        self.arrange(
            main=[self.table],
            side=[W.HBox([self.identify_button, self.another_button, self.next_button]),
                  self.type_label, self.type_buttons,
                  W.HBox([self.guess_box, self.reveal_button]),
                  self.prob, self.show_exact],
            below=[self.all_chances, self.tally, self.log_html])
        self.reset(seed)

    def use_recorder(self, recorder, opening: bool = False, download=None) -> None:
        """Issue 26: a learner who joins guesses first: the exact chances are hidden until the reveal (they may
        show them again; their guesses then record ``chance_seen=True``)."""
        joining = recorder is not None and self.recorder is None
        super().use_recorder(recorder, opening=opening, download=download)
        if joining:
            self.show_exact.value = False  # observed: the panel redraws without the chances
            self._refresh_panel()
            if opening:  # the lab was just built for a joined learner: what it drew was never on a screen
                self.flow.chance_shown = False

    def _show(self, said) -> None:
        self.show_status(said.text, kind=said.kind, spoken=said.spoken)

    # ------------------------------------------------------------------ actions
    def _reset(self) -> None:
        self.errors.clear()
        self.flow.reset(self.seed)
        self._refresh()
        self.show_status(self.flow.opening_text(), kind="info")

    @guarded
    def _choose(self, action) -> None:
        why_not = self.flow.why_not_choose(action)
        if why_not:
            self.show_status(why_not, kind="bad")
            return
        self.live.focus(PLACE_STOP)  # the keyboard goes on where the turn goes on: the places (asked before the
        # buttons change, so the page knows before Identify is disabled; it waits for the places; issue 20)
        said = self.flow.choose(action)
        self._refresh()
        self._show(said)

    @guarded
    def _on_table_click(self, target: dict) -> None:
        said = self.flow.pick(target)
        if said is not None:
            self._show(said)
        self._refresh_pick()

    def _refresh_pick(self) -> None:
        """After a pick (nothing the learner knows has changed): the chances first, then the marks on the table.

        A click must answer fast (issue 12: median <= 30 ms click -> updated chances), so the table is
        not rebuilt: only its highlight and message change.
        """
        if not self.flow.identifying:
            self._refresh()
            return
        self._refresh_panel()
        self.reveal_button.disabled = self.flow.picked_place is None
        self.table.mark(*self.flow.pick_marks())

    @guarded
    def _reveal(self) -> None:
        out = self.flow.reveal(self.type_buttons.value, self.guess_box.value, joined=self.recorder is not None)
        if not isinstance(out, Revealed):
            self._show(out)
            return
        if out.record is not None:
            self.record("guess", **out.record)
        self.guess_box.value = ""
        self._refresh()
        self._show(out.said)

    @guarded
    def _next_turn(self) -> None:
        why_not = self.flow.why_not_next()
        if why_not is not None:
            self._show(why_not)
            return
        said = self.flow.next_turn()
        self._refresh()
        self._show(said)

    # ------------------------------------------------------------------ drawing
    def _refresh(self) -> None:
        c = self.flow.controls()
        self.identify_button.disabled = not c.identify
        self.another_button.disabled = not c.another
        self.next_button.disabled = not c.next
        self.next_button.button_style = c.next_style
        if [v for _, v in c.type_choices] != [v for _, v in self.type_buttons.options]:
            old = self.type_buttons.value
            self.type_buttons.options = c.type_choices
            if c.type_choices:
                self.type_buttons.value = old if old in [v for _, v in c.type_choices] else c.type_choices[0][1]
        self.type_buttons.disabled = not c.identifying
        self.reveal_button.disabled = not c.reveal
        self.guess_box.disabled = not c.identifying
        self.table.show(self.flow.state, self.flow.learner, **c.table)
        self._refresh_panel()
        self.tally.value = self.flow.tally_html()
        self.log_html.value = self.flow.log_html()

    @in_own_language  # also run by the clue-type buttons and the "exact chances" box
    def _refresh_panel(self) -> None:
        try:
            side, everything, notes = self.flow.panel_html(self.type_buttons.value, self.show_exact.value,
                                                           joined=self.recorder is not None)
        except Exception as exc:  # noqa: BLE001 - the panel must never break the lab
            self.errors.append(f"{type(exc).__name__}: {exc}")
            log.error("the chances panel failed", exc_info=True)
            side, everything, notes = ("<div style='color:#a00'>" + html.escape(
                _("Could not compute the chances ({problem})").format(problem=page_words(exc))) + "</div>"), "", {}
        self.prob.value = side
        self.all_chances.value = everything
        self.table.set_notes(notes)


def _delegate(name: str) -> property:
    return property(lambda self: getattr(self.flow, name), lambda self, value: setattr(self.flow, name, value),
                    doc=f"The flow's ``{name}`` (see IdentificationFlow).")


for _name in _FLOW_ATTRIBUTES:
    setattr(IdentificationLab, _name, _delegate(_name))
