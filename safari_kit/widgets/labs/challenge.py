"""Challenge lab: on your turn, Identify or Challenge? In a Challenge, when should you stop?

How a browser test drives it (JupyterLab, the lab displayed as a cell's output)
-------------------------------------------------------------------------------
* The lab's root is ``.safari-lab.safari-challenge-lab``.
* Starting position: a Dropdown with class ``safari-position`` (``lab.position_box``);
  its options are :data:`~safari_kit.simulation.challenge_positions.POSITIONS`,
  each reached by real play (seed, bots, number of turns) and explained in one
  sentence in ``.safari-why``. A position with a ``kind`` (*Mid-game: stop or go on?*) deals only
  positions of its kind, from any seed, a secret one too (issue 27). The lab always opens on the
  learner's own turn: the bots' turns before it do not pause on a failure.
* The decision box (``.safari-decide``, beside the table) says what to decide now:
  on your turn the choice ``table.safari-choice`` (one ``tr`` per choice with
  ``data-choice="identify"|"challenge"`` and the expected number of cards archived,
  exact, like ``14/37 ≈ 0.378``); in a challenge the stop-or-continue numbers
  (``.safari-ev``; the rule "continue while P(next safe) > n/(n+1)", n = cards
  archived if you stop now, in ``.safari-rule``; at the moment both are allowed
  the box also has class ``safari-decision-now``).
* The probability panel (``.safari-prob``, beside the table): P(next safe) in
  ``.safari-p-safe``, P(safe) under each face-down place on the table (``.st-under``), P(k more in a
  row) in ``table.safari-streak``; what you remember in ``table.safari-memory``.
* The table (``.safari-table``): in a challenge each face-down place is clickable
  as ``.st-selectable[data-key^='place:']``; a click reveals it at once.
* Buttons (ipywidgets ``.widget-button``, found by their text): ``Identify``
  (the best declaration is played for you: the Identification lab is where you
  pick one), ``Challenge``, ``Reveal one more`` (class ``safari-reveal-one``: reveals
  the place most likely safe, like a click on it), ``Stop`` (class ``safari-stop``; it
  reads ``Stop: archive n`` once 4 reveals are safe, or when no face-down place is
  left), ``Next turn`` (the other seats play to your next
  turn, pausing on each failure so you can remember its face-up cards), ``Reset``.
* When a turn ends, ``.safari-summary`` holds your choice against the larger
  expected value and, for a challenge, the optimal rule against what you did
  step by step (``table.safari-steps``, one ``tr.safari-step`` per decision, with
  ``data-agree="yes"|"no"``). What the other seats did: ``.safari-log``; the
  status line: ``.safari-status``.

Python only (no browser): ``lab.challenge_button.click()``,
``lab.identify_button.click()``, ``lab.table.click = {"kind": "place", "id": 3, "seq": 1}``,
``lab.stop_button.click()``, ``lab.next_button.click()``, ``lab.position_box.value = "fresh"``;
the record is ``lab.steps`` (this challenge) and ``lab.history`` (finished turns).

The class experiment (issue 21): once the learner joined, each stop-or-continue *decision*
(the moment both Stop and a reveal are allowed: ``decision_now``; a forced reveal before 4 safe
and a forced Stop with no place left are no decisions) is recorded as a
:class:`~safari_kit.class_results.class_records.ChallengeDecision` with the numbers the box showed
(safe so far, P(next safe), the expected cards of stopping and of revealing on), what the rule
said and what the learner chose. Its ``result`` (cards archived, 0 for a failed challenge) is known
only when the challenge ends, so a challenge's decisions are recorded together when it ends, once
each; a challenge left unfinished by Reset or another position records them with ``result`` None.
``challenge`` numbers the learner's challenges with a decision in this lab, 1, 2, ... (from the
records, so reopening the lab goes on counting). A record holds no card.

The turns (positions, the bots' turns, Identify, Challenge, reveal, Stop, the decisions kept) are
:class:`~safari_kit.presentation.challenge_flow.ChallengeFlow`, the page's words
:mod:`safari_kit.presentation.challenge_text`, both without widgets (issue 28); this module is the layout.
Every number comes from :mod:`safari_kit.probability.witness` on the learner's
:class:`~safari_kit.probability.knowledge.Knowledge` (perfect memory by
default): Identify is worth ``identify_value`` (2 cards × P(match) of the best
declaration), Challenge ``challenge_value`` (the stopping DP ``challenge_dp``,
places remembered as safe counting as sure reveals).
"""
from __future__ import annotations

import html
import logging

import ipywidgets as W

from safari_kit.presentation import challenge_text as T
from safari_kit.presentation.challenge_flow import MIN_SAFE, ChallengeFlow, Said, Step  # noqa: F401
from safari_kit.presentation.challenge_text import STEP_CELL, STOP_COLUMN  # noqa: F401
from safari_kit.core.i18n import N_, _
from safari_kit.probability.knowledge import Memory
from safari_kit.simulation import challenge_positions as CP
from safari_kit.widgets.labs.base import (PLACE_STOP, Lab, count_html, count_lines, fraction_html,  # noqa: F401
                                          guarded, in_own_language)
from safari_kit.widgets.quiet import page_words
from safari_kit.widgets.table import CardTable
from safari_kit.witness import actions as A

log = logging.getLogger("safari_kit.widgets")

__all__ = ["ChallengeLab", "Step", "STOP_COLUMN"]

#: what the lab reads from its flow as its own (``lab.state``, ``lab.position()``, ...): the names tests and
#: notebooks have always used
_FROM_FLOW = frozenset({
    "game", "state", "seats", "steps", "history", "lines", "result", "learner", "memory", "start_position",
    "bot_spec", "deck_order", "choice_values", "first_facts", "first_claims_hold", "turn_facts", "start_value",
    "my_turn", "choosing", "in_challenge", "decision_now", "knowledge", "position", "safest_place", "_pending"})


class ChallengeLab(Lab):
    """Your turn: Identify or Challenge, by expected cards archived; in a Challenge, the optimal moment to stop."""

    title = N_("Challenge lab: push your luck, or stop?")
    record_lab = "challenge"

    def __init__(self, seed: int | None = None, players: int | None = None, *, position=None,
                 bot: str | None = None, learner: int | None = None, memory: Memory | None = None,
                 deck_order=None, fair: bool = False):
        self.flow = ChallengeFlow(position, players, learner, bot=bot, memory=memory, deck_order=deck_order,
                                  recording=lambda: self.recorder is not None, on_decisions=self._record_steps)
        base = self.flow.start_position
        super().__init__(base.seed if seed is None and not fair else seed, fair=fair)
        self.layout.add_class("safari-challenge-lab")
        self.status.add_class("safari-status")
        self.table = CardTable(game="witness")
        self.table.on_click(self._on_table_click)

        options = [(_(p.title), p.key) for p in CP.POSITIONS]  # the positions' titles: T.POSITION_TITLES
        if base.key not in {p.key for p in CP.POSITIONS}:
            options.append((_("Custom"), base.key))
        self.position_box = W.Dropdown(options=options, value=base.key, description=_("Start from"),
                                       layout=W.Layout(width="480px"), style={"description_width": "80px"})
        self.position_box.add_class("safari-position")
        self.position_box.observe(self._on_position, names="value")
        self.why = W.HTML()
        self.why.add_class("safari-why")
        self.decide = W.HTML()
        self.decide.add_class("safari-decide")
        self.identify_button = W.Button(description=_("Identify"), tooltip=_("Identify with your clue card. The lab "
                                                                             "picks the best clue type and place for "
                                                                             "you."))
        self.identify_button.add_class("safari-identify")
        self.identify_button.on_click(lambda _b: self._identify())
        self.challenge_button = W.Button(description=_("Challenge"), button_style="info",
                                         tooltip=_("Challenge with your clue card: reveal face-down places one at a "
                                                   "time"))
        self.challenge_button.add_class("safari-challenge")
        self.challenge_button.on_click(lambda _b: self._challenge())
        self.reveal_button = W.Button(description=_("Reveal one more"), button_style="warning",
                                      tooltip=_("Reveal the face-down place most likely to be safe. "
                                                "A click on a place of the table reveals that place."))
        self.reveal_button.add_class("safari-reveal-one")
        self.reveal_button.on_click(lambda _b: self._reveal_best())
        self.stop_button = W.Button(description=_("Stop"), button_style="success",
                                    tooltip=_("Stop and archive the challenged card and every safe card"))
        self.stop_button.add_class("safari-stop")
        self.stop_button.on_click(lambda _b: self._stop())
        self.next_button = W.Button(description=_("Next turn"),
                                    tooltip=_("The other players play, then it is your turn again"))
        self.next_button.add_class("safari-next")
        self.next_button.on_click(lambda _b: self._next_turn())
        self.prob = W.HTML()
        self.prob.add_class("safari-prob")
        self.summary = W.HTML()
        self.summary.add_class("safari-summary")
        self.log_html = W.HTML()
        self.log_html.add_class("safari-log")
        for b, w in ((self.identify_button, "84px"), (self.challenge_button, "96px"), (self.reveal_button, "132px"),
                     (self.stop_button, "132px"), (self.next_button, "96px")):
            # never narrower than its words: in a narrow notebook the row wraps instead ("Reveal one m…", issue 27)
            b.layout.width = "auto"  # as wide as its words (bold, when it is the one to press) ...
            b.layout.min_width = w  # ... and never narrower than before
            b.layout.flex = "0 0 auto"
        self.position_box.layout.width = "100%"
        self.position_box.style.description_width = "initial"  # "Empezar en" (Spanish) was cut at 72px
        self.buttons = W.HBox([self.identify_button, self.challenge_button, self.reveal_button, self.stop_button,
                               self.next_button], layout=W.Layout(flex_flow="row wrap"))
        self.buttons.add_class("safari-challenge-buttons")
        self.arrange(main=[self.table], side=[self.position_box, self.buttons, self.decide, self.prob, self.why],
                     below=[self.summary, self.log_html])
        self.reset(None if fair else self.seed)

    def __getattr__(self, name: str):
        if name in _FROM_FLOW and "flow" in self.__dict__:
            return getattr(self.flow, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # ------------------------------------------------------------------ set-up
    @in_own_language
    def _on_position(self, change) -> None:
        if not self.flow.choose_position(change["new"]):
            return
        if not self.fair:
            self.seed_box.value = self.flow.start_position.seed
        self.reset(None if self.fair else self.flow.start_position.seed)

    def _reset(self) -> None:
        self.errors.clear()
        self._act(self.flow.reset(self.seed))

    def _better(self) -> str:
        return self.flow.better()

    def optimal_decision(self) -> str | None:
        """"reveal" or "stop": what the optimal rule says now, in a challenge; None outside one (or if it
        cannot be computed: the error is kept in ``errors``, the buttons just stay plain)."""
        try:
            return self.flow.optimal_decision()
        except Exception as exc:  # noqa: BLE001 - the panel reports errors; the buttons just stay plain
            self.errors.append(f"{type(exc).__name__}: {exc}")
            return None

    # ------------------------------------------------------------------ actions
    def _act(self, said: Said) -> None:
        """Show what an action said; redraw only if the game moved (a refusal changes nothing on the page)."""
        self.show_status(said.text, kind=said.kind, spoken=said.spoken)
        if said.done:
            self._refresh()

    @guarded
    def _challenge(self) -> None:
        if self.flow.choosing:
            # the keyboard goes on where the challenge goes on: the places (asked first, so the page knows before
            # the Challenge button is disabled; it waits for the places to be drawn; issue 20)
            self.live.focus(PLACE_STOP)
        self._act(self.flow.challenge())

    @guarded
    def _identify(self) -> None:
        self._act(self.flow.identify())

    @guarded
    def _reveal_best(self) -> None:
        place = self.flow.safest_place()
        if place is None:
            self.show_status(_("Reveal one more works during a challenge, while a face-down place is left."),
                             kind="bad")
            return
        self._reveal(place)

    @guarded
    def _on_table_click(self, target: dict) -> None:
        if not self.flow.in_challenge or target["kind"] != "place":
            return
        self._reveal(int(target["id"]))

    def _reveal(self, place: int) -> None:
        self._act(self.flow.reveal(place))

    @guarded
    def _stop(self) -> None:
        self._act(self.flow.stop())

    def _record_steps(self, steps: list[Step], result: int | None) -> None:
        """The class experiment (issue 21): a challenge's decisions, recorded together when it ends, each once;
        ``challenge`` numbers the learner's challenges with a decision in this lab (from the records)."""
        if self.recorder is None:
            return
        number = 1 + max((r.challenge for r in self.recorder.records
                          if r.kind == "challenge-decision" and r.lab == self.record_lab), default=0)
        for st in steps:
            self.record("challenge_decision", challenge=number, safe_so_far=st.safe_so_far, p_next=st.p_next,
                        stop_value=st.stop_value, continue_value=st.continue_value, rule=st.optimal,
                        choice=st.action, result=result)

    @guarded
    def _next_turn(self) -> None:
        self._act(self.flow.next_turn())

    def _over_text(self) -> str:
        return self.flow.over_text()

    # ------------------------------------------------------------------ drawing
    def _refresh(self) -> None:
        flow, state = self.flow, self.flow.state
        live = flow.in_challenge
        choosing = flow.choosing
        self.identify_button.disabled = not choosing
        self.challenge_button.disabled = not choosing
        better = flow.better() if choosing else None
        self.identify_button.button_style = "info" if better == "identify" else ""
        self.challenge_button.button_style = "info" if better == "challenge" else ""
        can_stop = live and state.is_legal(A.StopChallenge())
        self.stop_button.disabled = not can_stop
        self.stop_button.description = _("Stop: archive {n}").format(n=1 + state.safe) if can_stop else _("Stop")
        self.reveal_button.disabled = not (live and state.face_down_places())
        # the recommended button (coloured) is the optimal decision's: Reveal one more while the rule says go on
        # (or must), Stop when it says stop; the other one stays plain
        best = self.optimal_decision() if live else None
        self.reveal_button.button_style = "warning" if best == "reveal" and not self.reveal_button.disabled else ""
        self.stop_button.button_style = "success" if best == "stop" and can_stop else ""
        self.next_button.disabled = choosing or live or state.is_terminal()
        self.next_button.button_style = "warning" if state.phase == "face_up" else ""  # the one thing to press now
        selectable = ([{"kind": "place", "id": p, "label": _("Reveal place {place}").format(place=p)}
                       for p in state.face_down_places()] if live else [])
        words = _("Your turn: Identify or Challenge (this lab has no Reveal another).") if choosing else None
        self.table.show(state, self.learner, selectable=selectable, message=T.table_message(flow), phase_words=words)
        self.table.set_notes(T.safe_notes(flow) if live else {})
        self.why.value = T.why_html(flow, self.secret, self.seed)
        try:
            self.decide.value = T.decide_html(flow)
            self.prob.value = T.panel_html(flow) if (live or choosing) else ""
        except Exception as exc:  # noqa: BLE001 - the panel must never break the lab
            self.errors.append(f"{type(exc).__name__}: {exc}")
            log.error("the chances panel failed", exc_info=True)
            self.prob.value = ("<div style='color:#a00'>" + html.escape(
                _("Could not compute the chances ({problem})").format(problem=page_words(exc))) + "</div>")
        self.summary.value = T.summary_html(flow) if (self.history and not live and not choosing) else ""
        self.log_html.value = ("<details><summary>" + html.escape(_("What happened (latest last)"))
                               + "</summary><div style='font-size:90%'>"
                               + "<br>".join(html.escape(x) for x in self.lines[-40:]) + "</div></details>")
