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
:class:`~safari_kit.teaching.class_records.ChallengeDecision` with the numbers the box showed
(safe so far, P(next safe), the expected cards of stopping and of revealing on), what the rule
said and what the learner chose. Its ``result`` (cards archived, 0 for a failed challenge) is known
only when the challenge ends, so a challenge's decisions are recorded together when it ends, once
each; a challenge left unfinished by Reset or another position records them with ``result`` None.
``challenge`` numbers the learner's challenges with a decision in this lab, 1, 2, ... (from the
records, so reopening the lab goes on counting). A record holds no card.

Every number comes from :mod:`safari_kit.probability.witness` on the learner's
:class:`~safari_kit.probability.knowledge.Knowledge` (perfect memory by
default): Identify is worth ``identify_value`` (2 cards × P(match) of the best
declaration), Challenge ``challenge_value`` (the stopping DP ``challenge_dp``,
places remembered as safe counting as sure reveals).
"""
from __future__ import annotations

import dataclasses
import html
import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import ipywidgets as W

from safari_kit.presentation.numbers import count_first
from safari_kit.presentation.spoken import challenge_sentence, count_words
from safari_kit.presentation.views import learner_sentence
from safari_kit.presentation.narration import (card_label, describe_event, no_match_words, types_label, unsafe_words,
                                               why_failed)
from safari_kit.probability import witness as PW
from safari_kit.probability.knowledge import PERFECT, Knowledge, Memory
from safari_kit.simulation import challenge_positions as CP
from safari_kit.widgets.labs.base import (PLACE_STOP, Lab, count_html, count_lines, fraction_html,  # noqa: F401
                                          guarded)
from safari_kit.widgets.quiet import page_words
from safari_kit.widgets.table import CardTable
from safari_kit.witness import actions as A

log = logging.getLogger("safari_kit.widgets")

__all__ = ["ChallengeLab", "Step", "STOP_COLUMN"]

MIN_SAFE = PW.MIN_SAFE
#: the header of the summary's n column: n counts the cards a stop archives, not the safe reveals
STOP_COLUMN = "n = cards archived if you stop now"
#: every cell of the end-of-challenge table: padded apart, so its headers never run together (issue 27)
STEP_CELL = "padding:2px 12px 2px 0;text-align:left;vertical-align:bottom"


@dataclass(frozen=True)
class Step:
    """One decision of a challenge: the position, what the optimal rule says, what the learner did."""

    safe_so_far: int
    stop_value: Fraction | None  # archive size by stopping now (None: not allowed yet)
    continue_value: Fraction | None  # expected archive by revealing on, then playing optimally
    p_next: Fraction  # P(next safe) at the best place
    threshold: Fraction  # n/(n+1) with n = 1 + safe_so_far, the cards archived by stopping now
    optimal: str  # "continue" or "stop"
    optimal_place: int | None
    action: str  # "reveal" or "stop"
    place: int | None
    p_place: Fraction | None  # P(safe) at the place the learner revealed
    safe: bool | None  # outcome of the reveal (None for a stop)
    card: str | None

    @property
    def agrees(self) -> bool:
        return self.action == self.optimal

    @property
    def n_if_stop(self) -> int:
        """Cards archived by stopping now: the challenged card and every safe card so far."""
        return 1 + self.safe_so_far


class ChallengeLab(Lab):
    """Your turn: Identify or Challenge, by expected cards archived; in a Challenge, the optimal moment to stop."""

    title = "Challenge lab: push your luck, or stop?"
    record_lab = "challenge"

    def __init__(self, seed: int | None = None, players: int | None = None, *, position=None,
                 bot: str | None = None, learner: int | None = None, memory: Memory | None = None,
                 deck_order=None, fair: bool = False):
        base = CP.position(position)
        changes: dict[str, Any] = {k: v for k, v in (("players", players), ("learner", learner)) if v is not None}
        if changes:
            base = dataclasses.replace(base, key="custom", kind={}, kind_why="", **changes)  # any deal
        if not 0 <= base.learner < base.players:
            raise ValueError(f"learner must be a seat from 0 to {base.players - 1}, got {base.learner!r}")
        super().__init__(base.seed if seed is None and not fair else seed, fair=fair)
        self.layout.add_class("safari-challenge-lab")
        self.status.add_class("safari-status")
        self.start_position = base
        self.memory = memory or PERFECT
        self.bot_spec = bot
        self.deck_order = deck_order
        self.learner = base.learner
        self._pending: list[Step] = []  # this challenge's decisions made after joining, recorded when it ends
        self.table = CardTable(game="witness")
        self.table.on_click(self._on_table_click)

        options = [(p.title, p.key) for p in CP.POSITIONS]
        if base.key not in {p.key for p in CP.POSITIONS}:
            options.append(("Custom", base.key))
        self.position_box = W.Dropdown(options=options, value=base.key, description="Start from",
                                       layout=W.Layout(width="480px"), style={"description_width": "80px"})
        self.position_box.add_class("safari-position")
        self.position_box.observe(self._on_position, names="value")
        self.why = W.HTML()
        self.why.add_class("safari-why")
        self.decide = W.HTML()
        self.decide.add_class("safari-decide")
        self.identify_button = W.Button(description="Identify", tooltip="Identify with your clue card. The lab "
                                        "picks the best clue type and place for you.")
        self.identify_button.add_class("safari-identify")
        self.identify_button.on_click(lambda _b: self._identify())
        self.challenge_button = W.Button(description="Challenge", button_style="info",
                                         tooltip="Challenge with your clue card: reveal face-down places one at a time")
        self.challenge_button.add_class("safari-challenge")
        self.challenge_button.on_click(lambda _b: self._challenge())
        self.reveal_button = W.Button(description="Reveal one more", button_style="warning",
                                      tooltip="Reveal the face-down place most likely to be safe. "
                                              "A click on a place of the table reveals that place.")
        self.reveal_button.add_class("safari-reveal-one")
        self.reveal_button.on_click(lambda _b: self._reveal_best())
        self.stop_button = W.Button(description="Stop", button_style="success",
                                    tooltip="Stop and archive the challenged card and every safe card")
        self.stop_button.add_class("safari-stop")
        self.stop_button.on_click(lambda _b: self._stop())
        self.next_button = W.Button(description="Next turn",
                                    tooltip="The other players play, then it is your turn again")
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
        self.position_box.style.description_width = "72px"
        self.buttons = W.HBox([self.identify_button, self.challenge_button, self.reveal_button, self.stop_button,
                               self.next_button], layout=W.Layout(flex_flow="row wrap"))
        self.buttons.add_class("safari-challenge-buttons")
        self.arrange(main=[self.table], side=[self.position_box, self.buttons, self.decide, self.prob, self.why],
                     below=[self.summary, self.log_html])
        self.reset(None if fair else self.seed)

    # ------------------------------------------------------------------ set-up
    def _on_position(self, change) -> None:
        key = change["new"]
        if key == self.start_position.key:
            return
        self.start_position = CP.position(key)
        self.learner = self.start_position.learner
        if not self.fair:
            self.seed_box.value = self.start_position.seed
        self.reset(None if self.fair else self.start_position.seed)

    def _reset(self) -> None:
        self.errors.clear()
        self._record_decisions(None)  # a challenge left unfinished: its decisions, without a result
        pos = self.start_position
        self.game, self.state, self.seats = CP.reach(pos, self.seed, bot=self.bot_spec, deck_order=self.deck_order)
        self.steps: list[Step] = []
        self.history: list[dict] = []
        self.lines: list[str] = []
        self._seen = 0
        self.start_value: Fraction | None = None
        self.choice_values: dict | None = None
        self.result: str | None = None
        self.first_facts: dict | None = None
        self.first_claims_hold = False
        self.turn_facts: dict | None = None
        self._start_turn(opening=True)
        self._refresh()

    @property
    def my_turn(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player == self.learner

    @property
    def choosing(self) -> bool:
        return self.my_turn and self.state.phase == "choose"

    @property
    def in_challenge(self) -> bool:
        return self.my_turn and self.state.phase == "challenge"

    @property
    def decision_now(self) -> bool:
        """The stop-or-continue moment: Stop is allowed and a face-down place is left to reveal."""
        return (self.in_challenge and self.state.is_legal(A.StopChallenge())
                and bool(self.state.face_down_places()))

    def knowledge(self) -> Knowledge:
        return Knowledge.from_observation(self.state.observation(self.learner), self.memory, game=self.game)

    def _start_turn(self, opening: bool = False) -> None:
        """The bots play to the learner's turn, pausing after a failed turn (its cards lie face up).

        ``opening`` (a new deal): no pause, the lab opens on the learner's own turn (issue 27: a lab that opened
        on "Player 2 failed" made learners think they had done something wrong). What the learner saw of the
        bots' turns before is in "What you remember" (the position's recipe played them).
        """
        state = self.state
        start = len(state.log)
        if opening:
            CP.to_decision(state, self.seats, self.learner)
        if state.phase == "face_up" and state.current_player == self.learner:
            state.apply(A.TurnFaceDown())  # the learner has seen what their failed turn revealed
        self.seats.play_until_learner(state)
        self._collect_log()
        news = self._bots_words(start)
        self.steps = []
        self.result = None
        self.choice_values = None
        self.turn_facts = None
        if state.is_terminal():
            self.show_status(self._over_text(), spoken=f"{news} {self._over_text()}")
            return
        if state.phase == "face_up":  # a bot failed: remember its cards before play goes on
            why = why_failed(state.observation(self.learner).log, self.game, self.learner)
            self.result = (f"Player {state.current_player} failed." + (f" {why}" if why else "")
                           + " The cards they revealed lie face up for everyone (highlighted). Remember them, "
                           "then press Next turn.")
            self.show_status(self.result, spoken=f"{news} {self.result}")
            return
        self.choice_values = CP.lab_choice_values(self.knowledge())
        self.turn_facts = CP.facts(state, self.learner, self.memory)
        if self.first_facts is None:
            self.first_facts = self.turn_facts
            self.first_claims_hold = self._claims_hold(self.first_facts)
        text = ("Your turn: Identify or Challenge? Below the buttons: the cards each choice archives, on average.")
        if opening and any(e.get("player") not in (None, self.learner) for e in state.observation(self.learner).log):
            text = ("The other players went first. What you saw of their cards is under “What you remember”. "
                    + text)
        self.show_status(text, spoken=f"{news} {text}")

    def _bots_words(self, start: int) -> str:
        """The bots' turns since ``start`` (issue 20), one clause each; a bot's failed turn now on the table is
        left out (the failure's own words say it)."""
        from safari_kit.presentation.spoken_turns import turns_summary

        state = self.state
        events = list(state.observation(self.learner).log[start:])
        if state.phase == "face_up" and state.current_player != self.learner:
            events = [e for e in events if e.get("turn") != state.turn]
        return turns_summary(self.game, events, self.learner)

    def _collect_log(self) -> None:
        obs = self.state.observation(self.learner)
        for event in obs.log[self._seen:]:
            line = describe_event(event, self.game, self.learner)
            if line:
                self.lines.append(f"Turn {event['turn']}: {line}")
        self._seen = len(obs.log)

    # ------------------------------------------------------------------ the position
    def position(self) -> dict:
        """The numbers shown before the next challenge decision (exact Fractions)."""
        kn = self.knowledge()
        pos = PW.challenge_position(kn)
        s = kn.safe_reveals
        stop, cont = PW.stop_vs_continue(kn)
        decision = PW.challenge_decision(kn)
        per_place = {p: PW.p_safe_place(kn, p, pos["card"]) for p in kn.face_down}
        left = len(pos["safe_places"]) + len(pos["unknown_places"])
        streak_exact = {k: PW.p_streak(kn, k) for k in range(1, left + 1)}  # with their counts, for the page
        streak = {k: e.value for k, e in streak_exact.items()}
        p_next = PW.p_safe_next(kn)
        return {"kn": kn, "pos": pos, "s": s, "stop": None if stop is None else stop.value,
                "continue": None if cont is None else cont.value,
                "p_next": p_next.value, "p_next_exact": p_next, "threshold": Fraction(1 + s, 2 + s),
                "decision": decision, "per_place": per_place, "streak": streak, "streak_exact": streak_exact,
                "value": PW.challenge_value(kn).value}

    def _record(self, action: str, place: int | None) -> Step:
        pos = self.position()
        optimal = "stop" if pos["decision"][0] == "stop" else "continue"
        optimal_place = pos["decision"][1] if optimal == "continue" else None
        return Step(pos["s"], pos["stop"], pos["continue"], pos["p_next"], pos["threshold"], optimal,
                    optimal_place, "stop" if action == "stop" else "continue", place,
                    None if place is None else pos["per_place"].get(place), None, None)

    # ------------------------------------------------------------------ actions
    def _better(self) -> str:
        v = self.choice_values or {}
        return "challenge" if v.get("challenge", 0) > v.get("identify", 0) else "identify"

    @guarded
    def _challenge(self) -> None:
        if not self.choosing:
            self.show_status("You can choose Challenge at the start of your turn.", kind="bad")
            return
        kn = self.knowledge()
        self.start_value = PW.challenge_value(kn, kn.clue[0]).value
        # the keyboard goes on where the challenge goes on: the places (asked first, so the page knows before the
        # Challenge button is disabled; it waits for the places to be drawn; issue 20)
        self.live.focus(PLACE_STOP)
        self.state.apply(A.Challenge())
        self._collect_log()
        self.show_status("You challenge with your clue card. Click a face-down place to reveal it, or press Reveal "
                         "one more for the safest place. A card that shares anything with your clue ends the "
                         "challenge.")
        self._refresh()

    @guarded
    def _identify(self) -> None:
        if not self.choosing:
            self.show_status("You can choose Identify at the start of your turn.", kind="bad")
            return
        values = dict(self.choice_values or CP.lab_choice_values(self.knowledge()))
        better = self._better()
        clue = self.state.card_id(self.state.clue[0])
        done = CP.play_identify(self.state, self.learner, self.memory)
        self._collect_log()
        seen = (card_label(self.game, done["card"]) if done["success"]
                else no_match_words(self.game, clue, done["card"], done["types"]))
        how = (f"You identified. The lab declared {types_label(done['types'])} at place {done['place']}, "
               f"with a chance of a match of {count_first(done['p'])}. The place held {seen}.")
        if done["success"]:
            text = how + " A match: 2 cards archived."
        else:
            text = (how + " No match: nothing is archived. The cards lie face up for everyone (highlighted). "
                    "Remember them before you go on.")
        self.result = text
        self.history.append({"kind": "identify", "values": values, "better": better, "steps": [],
                             "archived": 2 if done["success"] else 0,
                             "how": "identified" if done["success"] else "missed",
                             "optimal_value": values["identify"], "identify": done})
        self.show_status(text + (" Press Next turn." if not self.state.is_terminal() else ""),
                         kind="good" if done["success"] else "bad")
        self._refresh()

    def optimal_decision(self) -> str | None:
        """"reveal" or "stop": what the optimal rule (P(next safe) > n/(n+1), :func:`PW.challenge_decision`)
        says now, in a challenge; None outside one (or if it cannot be computed)."""
        if not self.in_challenge:
            return None
        try:
            return PW.challenge_decision(self.knowledge())[0]
        except Exception as exc:  # noqa: BLE001 - the panel reports errors; the buttons just stay plain
            self.errors.append(f"{type(exc).__name__}: {exc}")
            return None

    def safest_place(self) -> int | None:
        """The face-down place with the highest P(safe) (table order on ties): what "Reveal one more" reveals."""
        per_place = self.position()["per_place"] if self.in_challenge else {}
        return max(per_place, key=lambda q: per_place[q]) if per_place else None

    @guarded
    def _reveal_best(self) -> None:
        place = self.safest_place()
        if place is None:
            self.show_status("Reveal one more works during a challenge, while a face-down place is left.",
                             kind="bad")
            return
        self._reveal(place)

    @guarded
    def _on_table_click(self, target: dict) -> None:
        if not self.in_challenge or target["kind"] != "place":
            return
        self._reveal(int(target["id"]))

    def _reveal(self, place: int) -> None:
        action = A.RevealNext(place)
        if not self.state.is_legal(action):
            self.show_status(learner_sentence(self.state.why_illegal(action)), kind="bad")
            return
        step = self._record("reveal", place)
        decided = self.decision_now  # asked before the reveal: could the learner have stopped instead?
        challenged = self.state.card_id(self.state.challenged)
        n_log = len(self.state.log)
        self.state.apply(action)
        event = next(e for e, _, _ in self.state.log[n_log:] if e["kind"] == "challenge_reveal")
        step = Step(**{**step.__dict__, "safe": bool(event["safe"]), "card": event["card"]})
        self.steps.append(step)
        self._decided(step, decided)
        self._collect_log()
        seen = card_label(self.game, event["card"])
        if event["safe"]:
            s = self.state.safe
            more = (f"You may Stop now and archive {1 + s} cards, or reveal on." if s >= MIN_SAFE else
                    f"{MIN_SAFE - s} more safe reveal{'s' if MIN_SAFE - s != 1 else ''} before you may stop.")
            if not self.state.face_down_places():
                more = f"No face-down place is left: press Stop to archive {1 + s} cards."
            said = challenge_sentence(self.game, event, self.state, self.learner, safe_so_far=s)
            self.show_status(f"Safe! Place {place} held {seen}. {more}", kind="good", spoken=f"{said} {more}")
        else:
            self._finish("fail", f"Not safe: place {place} held {unsafe_words(self.game, challenged, event['card'])}. "
                                 "The challenge fails and nothing is archived. "
                                 "Every card you revealed now lies face up for everyone (highlighted). Remember "
                                 "them before you go on.",
                         spoken=challenge_sentence(self.game, event, self.state, self.learner))
        self._refresh()

    @guarded
    def _stop(self) -> None:
        if not self.in_challenge or not self.state.is_legal(A.StopChallenge()):
            self.show_status("You may stop once 4 reveals are safe (or when no face-down place is left).",
                             kind="bad")
            return
        step = self._record("stop", None)
        self._decided(step, self.decision_now)
        self.steps.append(step)
        n = 1 + self.state.safe
        self.state.apply(A.StopChallenge())
        self._finish("stop", f"You stopped and archived {n} cards.")
        self._refresh()

    def _finish(self, how: str, text: str, spoken: str | None = None) -> None:
        CP.finish_turn(self.state, self.learner)
        self._collect_log()
        archived = 0 if how == "fail" else 1 + sum(1 for st in self.steps if st.safe)
        self.result = text
        self.history.append({"kind": "challenge", "values": dict(self.choice_values or {}), "better": self._better(),
                             "steps": list(self.steps), "archived": archived, "how": how,
                             "optimal_value": self.start_value})
        self._record_decisions(archived)
        go_on = " Press Next turn." if not self.state.is_terminal() else ""
        self.show_status(text + go_on, kind="good" if how == "stop" else "bad",
                         spoken=None if spoken is None else spoken + go_on)

    # ------------------------------------------------------------------ the class experiment (issue 21)
    def _decided(self, step: Step, decision: bool) -> None:
        """Keep ``step`` to record when its challenge ends, if it was a decision made after joining."""
        if decision and self.recorder is not None:
            self._pending.append(step)

    def _record_decisions(self, result: int | None) -> None:
        """Record the decisions of the challenge that ended (``result``: cards archived; None: left unfinished),
        each once: the list is emptied first, so a second call records nothing."""
        pending, self._pending = self._pending, []
        if not pending or self.recorder is None:
            return
        number = 1 + max((r.challenge for r in self.recorder.records
                          if r.kind == "challenge-decision" and r.lab == self.record_lab), default=0)
        for st in pending:
            self.record("challenge_decision", challenge=number, safe_so_far=st.safe_so_far, p_next=st.p_next,
                        stop_value=st.stop_value, continue_value=st.continue_value, rule=st.optimal,
                        choice=st.action, result=result)

    @guarded
    def _next_turn(self) -> None:
        if self.choosing or self.in_challenge:
            self.show_status("Finish your turn first (Identify, or Challenge and reveal or Stop).", kind="bad")
            return
        if self.state.is_terminal():
            self.show_status(self._over_text())
            return
        self._start_turn()
        self._refresh()

    def _over_text(self) -> str:
        scores = self.state.scores()
        return ("Game over. Scores: " + ", ".join(("You" if p == self.learner else f"Player {p}") + f" {s}"
                                                  for p, s in enumerate(scores)) + ". Press Reset.")

    # ------------------------------------------------------------------ drawing
    def _refresh(self) -> None:
        state = self.state
        live = self.in_challenge
        choosing = self.choosing
        self.identify_button.disabled = not choosing
        self.challenge_button.disabled = not choosing
        better = self._better() if choosing else None
        self.identify_button.button_style = "info" if better == "identify" else ""
        self.challenge_button.button_style = "info" if better == "challenge" else ""
        can_stop = live and state.is_legal(A.StopChallenge())
        self.stop_button.disabled = not can_stop
        self.stop_button.description = f"Stop: archive {1 + state.safe}" if can_stop else "Stop"
        self.reveal_button.disabled = not (live and state.face_down_places())
        # the recommended button (coloured) is the optimal decision's: Reveal one more while the rule says go on
        # (or must), Stop when it says stop; the other one stays plain
        best = self.optimal_decision() if live else None
        self.reveal_button.button_style = "warning" if best == "reveal" and not self.reveal_button.disabled else ""
        self.stop_button.button_style = "success" if best == "stop" and can_stop else ""
        self.next_button.disabled = choosing or live or state.is_terminal()
        self.next_button.button_style = "warning" if state.phase == "face_up" else ""  # the one thing to press now
        selectable = ([{"kind": "place", "id": p, "label": f"Reveal place {p}"} for p in state.face_down_places()]
                      if live else [])
        if live:  # one way to reveal, said as one: the button is a click on the safest place (issue 27)
            message = (f"{state.safe} safe so far. Click a face-down place to reveal it, or press Reveal one more "
                       "for the safest place.")
        elif choosing:
            message = "Your turn: press Identify or Challenge."
        elif state.is_terminal():
            message = None
        elif state.phase == "face_up":
            message = (("Your turn failed" if state.current_player == self.learner
                        else f"Player {state.current_player} failed")
                       + ": remember the face-up cards, then press Next turn.")
        else:
            message = "Your turn is over: press Next turn."
        words = "Your turn: Identify or Challenge (this lab has no Reveal another)." if choosing else None
        self.table.show(state, self.learner, selectable=selectable, message=message, phase_words=words)
        self.table.set_notes(self._safe_notes() if live else {})
        self.why.value = self._why_html()
        try:
            self.decide.value = self._decide_html()
            self.prob.value = self._panel_html() if (live or choosing) else ""
        except Exception as exc:  # noqa: BLE001 - the panel must never break the lab
            self.errors.append(f"{type(exc).__name__}: {exc}")
            log.error("the chances panel failed", exc_info=True)
            self.prob.value = (f"<div style='color:#a00'>Could not compute the chances "
                               f"({html.escape(page_words(exc))})</div>")
        self.summary.value = self._summary_html() if (self.history and not live and not choosing) else ""
        self.log_html.value = ("<details><summary>What happened (latest last)</summary><div style='font-size:90%'>"
                               + "<br>".join(html.escape(x) for x in self.lines[-40:]) + "</div></details>")

    def _safe_notes(self) -> dict:
        """P(safe) under each face-down place, count first (the lesson's form)."""
        try:
            pos = self.position()
        except Exception:  # noqa: BLE001 - the panel reports errors; the notes just stay empty
            return {}
        a, n = pos["pos"]["a"], pos["pos"]["n"]
        notes = {}
        for q, v in pos["per_place"].items():
            v = Fraction(v)
            # (what is written under the place, what a screen reader says after the place's name; issue 20)
            if v == 1:
                notes[("place", q)] = ("safe\nfor sure", "safe for sure")
            elif v == 0:
                notes[("place", q)] = ("not safe", "not safe for sure")
            elif n and v == Fraction(a, n):  # an unknown place: S safe among the N unknown cards
                notes[("place", q)] = (f"{a}/{n}\n≈ {float(v):.2f}", f"chance it is safe {a} of {n}")
            else:
                notes[("place", q)] = (count_lines(v), f"chance it is safe {count_words(v)}")
        return notes

    def _claims_hold(self, f: dict) -> bool:
        """Does the position's sentence (its ``claims``) hold for facts ``f``, computed from this deal?"""
        claims = dict(self.start_position.claims)
        better = claims.pop("better", None)
        clue_name = claims.pop("clue_name", None)
        if any(f.get(k) != v for k, v in claims.items()):
            return False
        if better is not None and (f["challenge"] > f["identify"]) != (better == "challenge"):
            return False
        return clue_name is None or self.game.cards[self.state.clue[0]].name == clue_name

    def _why_html(self) -> str:
        """Why this position (its sentence), only on its first turn and only when this deal makes it true;
        on later turns (and other deals) the facts of the turn shown, computed from the learner's view."""
        pos = self.start_position
        first = not self.history  # no turn of the learner's finished since the deal
        own = (first and not self.secret and self.seed == pos.seed and self.deck_order is None and bool(pos.why)
               and self.first_claims_hold)
        f = self.turn_facts
        out = ["<div style='margin:2px 0 6px 0;color:#234'>"]
        kind = (first and not own and bool(pos.kind_why) and self.first_facts is not None
                and CP.fits_kind(pos, self.first_facts))
        if own:
            out.append(f"<b>Why this position:</b> {html.escape(pos.why)}")
        elif kind:  # every deal of this position is of its kind (issue 27): its sentence holds on this deal too
            out.append(f"<b>Why this position:</b> {html.escape(pos.kind_why)}")
        elif first and pos.why:
            out.append("<b>A new deal of this kind.</b> The bots played the same number of turns"
                       + ("" if self.secret else f" (seed {self.seed})") + ". The numbers below are for this deal.")
        if f is not None and not own:
            when = "At your first turn here" if first else f"At the start of this turn (turn {f['turn']})"
            out.append(("<br>" if first and pos.why else "")
                       + f"<span class='safari-facts'>{when}: {f['face_down']} face-down places; you remember "
                       f"{f['remembered']} of them ({f['remembered_safe']} safe for your clue).</span>")
        out.append("</div>")
        return "".join(out)

    def _box(self, inner: str, extra: str = "", color: str = "#2a6fb0") -> str:
        return (f"<div class='safari-decide-box {extra}' style='border:2px solid {color};border-radius:8px;"
                f"padding:6px 10px;margin:4px 0;background:#f6f9fd;line-height:1.45'>{inner}</div>")

    def _decide_html(self) -> str:
        state = self.state
        if self.choosing:
            return self._box(self._choice_html())
        if self.in_challenge:
            return self._box(self._stop_or_go_html(), "safari-decision-now" if self.decision_now else "",
                             "#c77700" if self.decision_now else "#2a6fb0")
        if state.is_terminal():
            return self._box(f"<p style='margin:0'>{html.escape(self._over_text())}</p>", color="#888")
        if self.result:
            return self._box(f"<p style='margin:0'>{html.escape(self.result)}</p>", color="#888")
        return ""

    def _choice_html(self) -> str:
        kn = self.knowledge()
        v = self.choice_values or CP.lab_choice_values(kn)
        clue = self.game.cards[kn.clue[0]]
        best = PW.best_declaration(kn)
        p4 = PW.p_streak(kn, MIN_SAFE, kn.clue[0]).value
        cpos = PW.challenge_position(kn, kn.clue[0])
        better = self._better()
        mark = {k: (" <b style='color:#1b7f3b'>&larr; more</b>" if better == k else "") for k in v}
        ident = (f"Best: {types_label(best[1]).lower()} at place {best[0]}. Chance of a match: "
                 f"{count_html(PW.p_match(kn, clue.id, best[0], best[1]))}. "
                 "A match archives 2 cards: your clue and that card.")
        safe_known = len(cpos["safe_places"])
        chal = (f"Chance that the first 4 reveals are all safe: {fraction_html(p4)}."
                + (f" You remember {safe_known} safe place{'s' if safe_known != 1 else ''}: reveal "
                   f"{'them' if safe_known != 1 else 'it'} first." if safe_known else "")
                + " Then stop or go on by the rule.")
        return (f"<p style='margin:0 0 4px 0'><b>Your turn.</b> Your clue card: "
                f"<b>{html.escape(card_label(self.game, clue.id))}</b>. "
                "Which choice archives more cards, on average?</p>"
                "<table class='safari-choice' style='border-collapse:collapse'>"
                "<tr><th style='text-align:left;padding-right:10px'>Choice</th>"
                "<th style='text-align:left'>Expected cards archived</th></tr>"
                f"<tr data-choice='identify'><td><b>Identify</b></td><td class='safari-ev-identify'>"
                f"{count_html(v['identify'])}{mark['identify']}</td></tr>"
                f"<tr class='safari-how'><td colspan='2'><small>{ident}</small></td></tr>"
                f"<tr data-choice='challenge'><td><b>Challenge</b></td><td class='safari-ev-challenge'>"
                f"{count_html(v['challenge'])}{mark['challenge']}</td></tr>"
                f"<tr class='safari-how'><td colspan='2'><small>{chal}</small></td></tr></table>")

    def _stop_or_go_html(self) -> str:
        pos = self.position()
        s = pos["s"]
        n = 1 + s
        card = card_label(self.game, self.game.cards[pos["pos"]["card"]].id)
        head = (f"<p style='margin:0 0 4px 0'><b>Challenge</b> with {html.escape(card)}. Safe so far: <b>{s}</b>. "
                f"If you stop now you archive <b>n = {n}</b> card{'s' if n != 1 else ''} "
                f"(the challenged card + {s} safe).</p>")
        if self.decision_now:
            head = ("<p style='margin:0 0 4px 0;font-size:110%'><b>Decide: Stop now, or reveal one more?</b></p>"
                    + head)
        stop = ("not allowed yet (fewer than 4 safe)" if pos["stop"] is None
                else f"<b>{fraction_html(pos['stop'])} cards</b> for sure")
        cont = "—" if pos["continue"] is None else f"<b>{fraction_html(pos['continue'])} cards</b> on average"
        ev = (f"<div class='safari-ev'>Stop now: {stop}. Reveal one more (then play the best way): {cont}. "
              f"Chance the next reveal is safe: <b>{fraction_html(pos['p_next'])}</b>.</div>")
        if s >= MIN_SAFE:
            go = pos["p_next"] > pos["threshold"]
            rule = (f"<div class='safari-rule'>The rule: reveal on only while that chance is more than n/(n+1), "
                    "where n = the cards archived if you stop now. "
                    f"Here n = {n}, so compare {fraction_html(pos['p_next'])} with {n}/{n + 1} "
                    f"&rarr; <b>{'reveal on' if go else 'stop'}</b>.</div>")
        else:
            rule = (f"<div class='safari-rule'>The rule: reveal on only while that chance is more than n/(n+1), "
                    "where n = the cards archived if you stop now. "
                    f"Before 4 safe reveals you must go on ({MIN_SAFE - s} to go).</div>")
        return head + ev + rule

    def _memory_html(self, kn, card: int) -> str:
        if not kn.known:
            return "<p class='safari-memory-none'>You remember no face-down card.</p>"
        unsafe = PW.tables(self.game).unsafe[card]
        rows = []
        for place in kn.face_down:
            if place not in kn.known:
                continue
            c = kn.known[place]
            safe = not (unsafe >> c) & 1
            verdict = ("<span style='color:#1b7f3b'>safe</span>" if safe
                       else "<span style='color:#a33' title='it shares something with your clue'>not safe</span>")
            rows.append(f"<tr><td>Place {place}</td><td>{html.escape(card_label(self.game, self.game.cards[c].id))}"
                        f"</td><td>{verdict}</td></tr>")
        return ("<table class='safari-memory' style='border-collapse:collapse'><tr><th colspan='3' "
                "style='text-align:left'>What you remember (face-down cards you have seen)</th></tr>"
                + "".join(rows) + "</table>")

    def _panel_html(self) -> str:
        kn = self.knowledge()
        if self.choosing:
            return "<div class='safari-prob-panel'>" + self._memory_html(kn, kn.clue[0]) + "</div>"
        pos = self.position()
        p = pos["pos"]
        out = ["<div class='safari-prob-panel'>",
               f"<p>Unknown cards: {p['n']}, of which {p['a']} are safe"
               + (f"; you remember {len(p['safe_places'])} safe place(s)" if p["safe_places"] else "") + ".</p>",
               f"<p class='safari-p-safe'>Chance the next reveal is safe: <b>{count_html(pos['p_next_exact'])}</b>"
               "</p>"]
        out.append("<p class='safari-places-note'>Under each face-down place on the table: the chance it is "
                   "safe.</p>")
        if pos["streak"]:
            rows = "".join(f"<tr><td style='padding:0 10px 0 0'>{k} more</td><td>{count_html(v)}</td></tr>"
                           for k, v in pos["streak_exact"].items())
            out.append("<table class='safari-streak' style='border-collapse:collapse'>"
                       "<tr><th style='text-align:left;padding-right:10px'>Reveal k more</th>"
                       f"<th style='text-align:left'>Chance all k are safe</th></tr>{rows}</table>")
        out.append(self._memory_html(kn, p["card"]))
        out.append("</div>")
        return "".join(out)

    def _summary_html(self) -> str:
        last = self.history[-1]
        v = last.get("values") or {}
        parts = []
        if v:
            chose = last["kind"]
            ok = chose == last["better"]
            parts.append(f"<p class='safari-choice-summary' data-agree='{'yes' if ok else 'no'}'>You chose "
                         f"<b>{chose.capitalize()}</b>. Expected cards: Identify {fraction_html(v['identify'])}, "
                         f"Challenge {fraction_html(v['challenge'])}. You chose "
                         f"{'the larger one ✔' if ok else 'the smaller one ✘'}. You archived "
                         f"{last['archived']} card(s).</p>")
        if last["kind"] == "challenge":
            parts.append(self._steps_html(last))
        total_got = sum(h["archived"] for h in self.history)
        total_best = sum(max(h["values"].values()) if h.get("values") else (h["optimal_value"] or Fraction(0))
                         for h in self.history)
        parts.append(f"<p>Your turns here: {len(self.history)}. You archived {total_got} card(s) in all. Always "
                     f"choosing the larger expected value, then stopping by the rule, expected "
                     f"{float(total_best):.2f} cards.</p>")
        return "<div>" + "".join(parts) + "</div>"

    def _steps_html(self, last: dict) -> str:
        rows = []
        for k, st in enumerate(last["steps"], 1):
            cont = "—" if st.continue_value is None else fraction_html(st.continue_value)
            did = "stop" if st.action == "stop" else f"reveal place {st.place}"
            outcome = "" if st.safe is None else ("safe" if st.safe else "NOT safe")
            agree = "yes" if st.agrees else "no"
            mark = "✔" if st.agrees else "✘"
            optimal = "reveal on" if st.optimal == "continue" else "stop"
            if st.stop_value is None and st.optimal == "continue":
                optimal += " (must)"
            cells = (k, st.safe_so_far, st.n_if_stop, fraction_html(st.p_next), fraction_html(st.threshold), cont,
                     optimal, f"{html.escape(did)} {mark}", outcome)
            rows.append(f"<tr class='safari-step' data-agree='{agree}'>"  # a chance is never split over lines
                        + "".join(f"<td style='{STEP_CELL}{';white-space:nowrap' if 3 <= i <= 5 else ''}'>{c}</td>"
                                  for i, c in enumerate(cells)) + "</tr>")
        agree = sum(st.agrees for st in last["steps"])
        # each cell padded and the headers wrapped above a line: at 9bdb9c7 the headers ran together (issue 27)
        heads = ("Step", "Safe so far", STOP_COLUMN, "Chance the next is safe", "n/(n+1)",
                 "Reveal one more: expected cards", "Best", "You", "Result")
        head = "".join(f"<th style='{STEP_CELL};border-bottom:1px solid #999;max-width:9em'>{html.escape(h)}</th>"
                       for h in heads)
        return ("<p><b>The best stopping rule.</b> Let n be the cards you archive if you stop now: the challenged "
                "card and every safe card. Reveal on only while the chance the next card is safe is more than "
                "n/(n+1). Before 4 safe reveals you must go on.</p>"
                f"<table class='safari-steps' style='border-collapse:collapse;line-height:1.35'><tr>{head}</tr>"
                + "".join(rows) + "</table>"
                f"<p>You followed the rule at {agree} of {len(last['steps'])} steps and archived "
                f"{last['archived']} card(s). Playing by the rule expected "
                f"{fraction_html(last['optimal_value'] or Fraction(0))} cards from the start of this challenge.</p>")
