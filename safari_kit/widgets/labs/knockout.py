"""Knockout lab: play one seat of Safari Knockout against bots, with the exact chance of every option.

How a browser test can drive it (JupyterLab + Playwright, see tests/browser/helpers.py):

- The lab's outer box has the CSS classes ``safari-lab safari-knockout-lab``.
- The probability panel is the HTML widget with class ``safari-prob``. Its
  ``<table class="safari-prob-table">`` carries ``data-step`` (a counter that
  grows with every redraw, so a test can wait for it to change after a click),
  ``data-best-card`` and ``data-best-item`` (the best option, item empty when
  following) and ``data-phase`` (``lead``, ``follow``, ``done``, ``wait`` or
  ``over``). Each option row has ``data-card="K12"``; each cell ``data-item``; the best
  cell has the class ``safari-best``. Under it, the hint ``.safari-ko-why``
  explains the best option: ``data-u``, ``data-h``, ``data-k`` (U unseen
  cards, H of them higher, k cards held by the players after you, as
  :func:`~safari_kit.probability.knockout.win_count` counts them) and
  ``data-beaten`` (1 when a card already played is at least as high).
- A play is two steps, so that no single click plays by accident (issue 17: a
  data item clicked first used to play the next card clicked): *pick* a card of
  the hand (``data-key='card:"K12"'``, class ``st-selectable``) and, when
  leading, a data item (buttons ``data-key='item:"weight_kg"'``), in any order,
  each pick replacing the last (the picks are highlighted, ``st-highlight``);
  then press **Play** beside the table (``button.safari-play-button``, enabled
  once the picks are complete). Keyboard: Enter on a card or an item picks it,
  Tab goes on to Play.
- After the play the lab finishes the turn (the players after you) and *pauses
  on it*: the table shows every card of the turn where it was played, its named
  item and the result in words; beside the table ``.safari-ko-result``
  (``data-result`` ``won`` or ``lost``) says it, e.g. "You lost: Player 2's
  Cheetah (112 km/h) beat your Springbok (88 km/h) on Top speed.", with the
  chance the lab had shown and the plays in order (``data-phase='done'``,
  ``data-winner``). **Next turn** (``button.safari-next``, orange while it is
  the one thing to press) lets the bots play on to your next turn. Example::

      best = page.locator(".safari-prob-table").get_attribute("data-best-card")
      page.locator(f".safari-table [data-key='card:\\"{best}\\"']").click()
      item = page.locator(".safari-prob-table").get_attribute("data-best-item")
      if item:
          page.locator(f".safari-table [data-key='item:\\"{item}\\"']").click()
      page.locator(".safari-play-button").click()   # then .safari-prob-table[data-phase='done']
      page.locator(".safari-next").click()          # then data-phase 'lead' or 'follow' again

- After the last turn of a round (played by the learner, or by "Play to end of round") the lab pauses on
  the round's end (issue 27): ``lab.round_over`` is the round's number, the panel opens with
  ``.safari-ko-round-over`` ("Round 1 is over", the turns each player won, the points, who goes out under
  Variation 1), the table's words say it, and ``.safari-next`` reads **Next round**; nothing of the next round
  is played until it is pressed. The table still shows the round that ended (its chip "Round 1 of 7", its
  turns, the last turn's cards, an empty hand: :func:`~safari_kit.presentation.knockout_round_end.round_end_view`);
  the next round's hand is drawn only on Next round.
- Other buttons (ipywidgets ``.widget-button``) by their text: "Play to end of
  round" (no pauses: the turn log has every turn), "New game", "Reset"; the
  checkbox "Variation 1: elimination".
- The turn log is the HTML widget with class ``safari-ko-log``, the running
  comparison of predicted chances with outcomes ``safari-ko-tally``.

From Python (tests, notebooks): ``lab.table.click = {"kind": "card", "id": "K12", "seq": n}``
is exactly what a click in the page sends; ``lab.play_button.click()``, ``lab.next_button.click()``,
``lab.end_round_button.click()``, ``lab.new_game_button.click()``, ``lab.elimination_box.value = True``.
Hidden information stays hidden: the synced state holds the learner's hand, the cards played (public) and
the chances computed from the learner's view, never another hand.

The class experiment (issue 21): once the learner joined, each card they play is recorded when its turn is
settled, as a :class:`~safari_kit.class_results.class_records.KnockoutPlay` (the chance shown for it, whether it won,
the best chance in the hand, the data item named; no card). Plays made by "Play to end of round" are the
lab's, not the learner's, and are not recorded.

The turn flow, the picks, the pauses, the predictions and every word and panel live in
:mod:`safari_kit.presentation.knockout_flow` (no widgets, issue 28); this module is the layout and the wiring.
The lab decides no rule and computes no probability: the engine
(:mod:`safari_kit.knockout`) plays the game, the bots come from
:mod:`safari_kit.simulation.registry`, and every chance shown is
:func:`safari_kit.probability.knockout.best_play` of the learner's view
(:func:`~safari_kit.probability.knockout.view_of` of its observation).

>>> lab = KnockoutLab(seed=1)
>>> lab.best.action, lab.best.p
(Play(card='K12', item='top_speed_kmh'), 29/50 ≈ 0.5800)
>>> lab.table.click = {"kind": "card", "id": "K12", "seq": 1}
>>> lab.table.click = {"kind": "item", "id": "top_speed_kmh", "seq": 2}
>>> lab.history, lab.picked                # picked, not played yet
((), ('K12', 'top_speed_kmh'))
>>> lab.play_button.click()
>>> lab.history[0], lab.predictions[0].p
(Play(card='K12', item='top_speed_kmh'), Fraction(29, 50))
>>> lab.paused, lab.prob.value.count("You lost: Player 2's Cheetah (112 km/h) beat your Springbok (88 km/h)")
(True, 1)
>>> lab.next_button.click()
>>> lab.paused, lab.errors
(False, [])
"""
from __future__ import annotations

import ipywidgets as W

from safari_kit.core.i18n import N_, _
from safari_kit.presentation.knockout_flow import KnockoutFlow, Prediction
from safari_kit.presentation.knockout_round_end import round_end_view
from safari_kit.presentation.knockout_text import LAB_CSS as _CSS, chance_html, reduced_html, result_sentence
from safari_kit.widgets.labs.base import Lab, guarded
from safari_kit.widgets.table import CardTable

__all__ = ["KnockoutLab", "Prediction", "chance_html", "reduced_html", "result_sentence"]


class _Table(CardTable):
    """The lab's card table: while a finished turn is shown, a click on it is answered with ``busy_words``
    (press Next turn) rather than the engine's reason, which would be about the next turn."""

    busy_words: str | None = None

    def _refusal(self, target: dict) -> str:
        return self.busy_words or super()._refusal(target)


#: the flow's methods under the lab's old names (tests, tools); every other name of the flow (state, game,
#: predictions, history, best, paused, round_over, picked, ...) is read on the lab as before the split
_OLD_NAMES = {"_my_turn": "my_turn", "_status_text": "status_text", "_why_html": "why_html",
              "_advance": "advance", "_spoken_status": "spoken_status", "_shown_turn": "shown_turn"}


class KnockoutLab(Lab):
    """Play seat ``learner`` of a ``players``-player Knockout game against bots.

    Before each of your plays the panel shows, for every card of your hand
    (and, when you lead, every data item), the exact chance of winning the turn,
    with the best option marked. Click a card on the table (and a data item
    when you lead). Bots (``bot``: a registry spec such as ``"greedy"``,
    ``"random"``, ``"highcard"``) play automatically; their plays appear in
    order in the turn log. "Play to end of round" plays the rest of the round
    for you with the best option (or lets the others play the round while you
    are out); "New game" deals a new game (next seed; in fair mode a fresh
    secret deal, see :class:`~safari_kit.widgets.labs.base.Lab`). The checkbox
    switches Variation 1 (elimination) and starts again.
    """

    title = N_("Knockout lab: which card wins the turn?")
    record_lab = "knockout"

    def __init__(self, seed: int | None = 1, players: int = 4, elimination: bool = False,
                 learner: int = 0, bot: str = "greedy", *, fair: bool = False):
        super().__init__(seed, fair=fair)
        self.flow = KnockoutFlow(players, learner, bot,
                                 on_play=lambda fields: self.record("knockout_play", **fields))
        self.layout.add_class("safari-knockout-lab")
        self.elimination_box = W.Checkbox(value=bool(elimination), description=_("Variation 1: elimination"),
                                          indent=False, layout=W.Layout(width="auto", min_width="230px"))
        self.elimination_box.observe(self._on_elimination, names="value")
        self.play_button = W.Button(description=_("Play"), disabled=True,
                                    layout=W.Layout(width="auto", min_width="80px"),  # its words are never cut
                                    tooltip=_("Play the card you picked (and name the data item you picked)"))
        self.play_button.add_class("safari-play-button")
        self.play_button.on_click(self._on_play)
        self.next_button = W.Button(description=_("Next turn"), disabled=True,
                                    layout=W.Layout(width="auto", min_width="100px"),
                                    tooltip=_("The other players play until your next turn"))
        self.next_button.add_class("safari-next")
        self.next_button.on_click(self._on_next)
        self.end_round_button = W.Button(description=_("Play to end of round"), layout=W.Layout(width="auto"),
                                         tooltip=_("Play the rest of this round with the best option for you"))
        self.end_round_button.on_click(self._on_end_round)
        self.new_game_button = W.Button(description=_("New game"),
                                        tooltip=_("Deal a new game") if self.fair else _("Deal a new game (next seed)"))
        self.new_game_button.on_click(self._on_new_game)
        self.table = _Table(game="knockout")
        self.table.on_click(self._on_table_click)
        self.prob = W.HTML()
        self.prob.add_class("safari-prob")
        self.log = W.HTML()
        self.log.add_class("safari-ko-log")
        self.tally = W.HTML()
        self.tally.add_class("safari-ko-tally")
        self.elimination_box.layout.width = "auto"
        self.new_game_button.layout.width, self.new_game_button.layout.min_width = "auto", "110px"
        controls = W.VBox([W.HBox([self.play_button, self.next_button, self.end_round_button]),
                           W.HBox([self.new_game_button, self.elimination_box])])
        self.arrange(main=[self.table], side=[controls, self.prob], below=[self.log, self.tally])
        self.reset(self.seed)

    def __getattr__(self, name: str):
        """The flow's state and methods, read on the lab as before the split (only names the lab lacks)."""
        if name == "flow" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.flow, _OLD_NAMES.get(name, name))

    def _say(self, said) -> None:
        self.show_status(said.text, kind=said.kind, spoken=said.spoken)

    # ------------------------------------------------------------------ setup
    @guarded
    def _reset(self) -> None:
        self.flow.reset(self.seed, bool(self.elimination_box.value))
        self._redraw()
        self.show_status(self.flow.status_text())

    # ------------------------------------------------------------------ callbacks
    @guarded
    def _on_table_click(self, target: dict) -> None:
        """A card or a data item picks it for the coming play; nothing is played until Play."""
        said = self.flow.pick(target)
        if said.kind != "bad":
            self._redraw()
        self._say(said)

    @guarded
    def _on_play(self, _button=None) -> None:
        """Play the picked card (naming the picked item when leading); the turn is finished and shown."""
        said = self.flow.play()
        if said.kind != "bad":
            self._redraw()
        self._say(said)

    @guarded
    def _on_next(self, _button=None) -> None:
        """Leave the finished turn: the bots play until the learner's next turn."""
        said = self.flow.next_turn()
        if said is not None:
            self._redraw()
            self._say(said)

    @guarded
    def _on_end_round(self, _button=None) -> None:
        said = self.flow.end_round()
        if said.kind != "bad":
            self._redraw()
        self._say(said)

    @guarded
    def _on_new_game(self, _button=None) -> None:
        self.reset(self.seed + 1)

    @guarded
    def _on_elimination(self, _change=None) -> None:
        self.reset(self.seed)

    # ------------------------------------------------------------------ drawing
    def _redraw(self) -> None:
        f = self.flow
        s = f.state
        shown = f.refresh()
        if shown == "mine":
            self.table.busy_words = None
            self.table.show(s, f.learner, message=f.pick_words(), highlight=f.pick_marks())
            self.table.set_notes(f.hand_notes())
            self.prob.value = _CSS + f.prob_html()
        elif shown == "finished":
            self._show_finished_turn()
            self.table.set_notes({})
            self.prob.value = _CSS + f.result_html()
        else:
            self.table.busy_words = None
            self.table.show(s, f.learner, selectable=[])
            self.table.set_notes({})
            self.prob.value = _CSS + f.idle_html()
        ready = f.ready()
        self.play_button.disabled = not ready
        self.play_button.button_style = "warning" if ready else ""  # the one thing to press now
        self.next_button.disabled = not f.paused
        self.next_button.button_style = "warning" if f.paused else ""
        self.next_button.description = _("Next round") if f.round_over else _("Next turn")
        self.next_button.tooltip = (_("Start round {round}").format(round=s.round) if f.round_over
                                    else _("The other players play until your next turn"))
        self.log.value = f.log_html()
        self.tally.value = f.tally_html()

    def _show_finished_turn(self) -> None:
        """The table at the end of the learner's turn: every card of it face up where the turn was played,
        its named item, and the result in words (all public: the whole table saw these cards)."""
        f = self.flow
        w = f.finished_turn()
        self.table.busy_words = w["busy_words"]
        if w["round_end"] is not None:
            # the table as the round ended (its chip, its turns, the last turn's cards), not the next round's
            # new hand (issue 27): that is drawn on Next round
            before, after = w["round_end"]
            with self.table.hold_sync():
                self.table.show(before, f.learner, selectable=[], message=w["message"], phase_words=w["phase_words"])
                self.table.view = dict(round_end_view(before, after, f.learner), phase_words=w["phase_words"])
            return
        with self.table.hold_sync():
            self.table.show(f.state, f.learner, selectable=[], message=w["message"], phase_words=w["phase_words"])
            self.table.view = f.turn_view(self.table.view, w["turn"])
