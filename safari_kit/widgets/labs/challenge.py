"""Challenge lab: reveal places one at a time; when should you stop?

How a browser test drives it (JupyterLab, the lab displayed as a cell's output)
-------------------------------------------------------------------------------
* The lab's root is ``.safari-lab.safari-challenge-lab``.
* The probability panel is an HTML widget with class ``safari-prob``: P(next
  safe) in ``.safari-p-safe``, P(k more in a row) in ``table.safari-streak``,
  the expected archive of stopping now vs continuing in ``.safari-ev``, the rule
  "continue while P(safe) > n/(n+1)" in ``.safari-rule``. Exact values read like
  ``31/74 ≈ 0.419``.
* The table (``.safari-table``): each face-down place is clickable as
  ``.st-selectable[data-key^='place:']`` (e.g. ``[data-key='place:3']``); a
  click reveals it at once.
* Buttons (ipywidgets ``.widget-button``, found by their text): ``Stop`` (enabled
  once 4 reveals are safe, or when no face-down place is left), ``Next
  challenge`` (the other seats play, then your next turn starts with a
  Challenge), ``Reset``.
* When a challenge ends, ``.safari-summary`` holds the optimal rule against what
  you did, step by step (``table.safari-steps``, one ``tr.safari-step`` per
  decision, with ``data-agree="yes"|"no"``). What the other seats did:
  ``.safari-log``; the status line: ``.safari-status``.

Python only (no browser): ``lab.table.click = {"kind": "place", "id": 3, "seq": 1}``,
``lab.stop_button.click()``, ``lab.next_button.click()``; the record is
``lab.steps`` (this challenge) and ``lab.history`` (finished challenges).

Every number comes from :mod:`safari_kit.probability.witness` on the learner's
:class:`~safari_kit.probability.knowledge.Knowledge` (perfect memory by
default): places remembered as safe count as sure reveals; the optimal value is
the stopping DP ``challenge_dp``.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as W

from safari_kit.probability import witness as PW
from safari_kit.probability.knowledge import PERFECT, Knowledge, Memory
from safari_kit.widgets.labs.base import Lab, fraction_html, guarded
from safari_kit.presentation.narration import card_label, describe_event
from safari_kit.simulation.seats import BotSeats
from safari_kit.widgets.table import CardTable
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A

__all__ = ["ChallengeLab", "Step"]

MIN_SAFE = PW.MIN_SAFE


@dataclass(frozen=True)
class Step:
    """One decision of a challenge: the position, what the optimal rule says, what the learner did."""

    safe_so_far: int
    stop_value: Fraction | None  # archive size by stopping now (None: not allowed yet)
    continue_value: Fraction | None  # expected archive by revealing on, then playing optimally
    p_next: Fraction  # P(next safe) at the best place
    threshold: Fraction  # n/(n+1) with n = 1 + safe_so_far
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


class ChallengeLab(Lab):
    """A Challenge on your turn: the exact chance of each safe reveal, and the optimal moment to stop."""

    title = "Challenge lab: push your luck, or stop?"

    def __init__(self, seed: int | None = 1, players: int = 3, *, bot: str = "greedy", learner: int = 0,
                 memory: Memory | None = None, deck_order=None, fair: bool = False):
        super().__init__(seed, fair=fair)
        self.layout.add_class("safari-challenge-lab")
        self.status.add_class("safari-status")
        self.game = WitnessGame(players=players)
        if not 0 <= learner < players:
            raise ValueError(f"learner must be a seat from 0 to {players - 1}, got {learner!r}")
        self.learner = learner
        self.memory = memory or PERFECT
        self.bot_spec = bot
        self.deck_order = deck_order
        self.table = CardTable(game="witness")
        self.table.on_click(self._on_table_click)
        self.stop_button = W.Button(description="Stop", button_style="success",
                                    tooltip="Stop and archive the challenged card and every safe card")
        self.stop_button.add_class("safari-stop")
        self.stop_button.on_click(lambda _b: self._stop())
        self.next_button = W.Button(description="Next challenge",
                                    tooltip="The other players play, then you challenge again")
        self.next_button.add_class("safari-next")
        self.next_button.on_click(lambda _b: self._next_challenge())
        self.prob = W.HTML()
        self.prob.add_class("safari-prob")
        self.summary = W.HTML()
        self.summary.add_class("safari-summary")
        self.log_html = W.HTML()
        self.log_html.add_class("safari-log")
        self.body.children = [self.table, W.HBox([self.stop_button, self.next_button]), self.prob,
                              self.summary, self.log_html]
        self.reset(seed)

    # ------------------------------------------------------------------ set-up
    def _reset(self) -> None:
        self.errors.clear()
        self.state = self.game.new_initial_state(seed=self.seed, deck_order=self.deck_order)
        self.seats = BotSeats(self.game, self.learner, self.bot_spec, self.seed)
        self.steps: list[Step] = []
        self.history: list[dict] = []
        self.lines: list[str] = []
        self._seen = 0
        self.start_value: Fraction | None = None
        self.result: str | None = None
        self._start_challenge()
        self._refresh()

    @property
    def in_challenge(self) -> bool:
        return (not self.state.is_terminal() and self.state.current_player == self.learner
                and self.state.phase == "challenge")

    def knowledge(self) -> Knowledge:
        return Knowledge.from_observation(self.state.observation(self.learner), self.memory, game=self.game)

    def _start_challenge(self) -> None:
        """The bots play to the learner's turn, pausing after a failed turn (its cards lie face up)."""
        state = self.state
        if state.phase == "face_up" and state.current_player == self.learner:
            state.apply(A.TurnFaceDown())  # the learner has seen what their failed challenge revealed
        self.seats.play_until_learner(state)
        self._collect_log()
        self.steps = []
        self.result = None
        if state.is_terminal():
            self.show_status(self._over_text())
            return
        if state.phase == "face_up":  # a bot failed: remember its cards before play goes on
            self.result = (f"Player {state.current_player} failed: the cards they revealed lie face up for "
                           "everyone (highlighted). Remember them, then press Next challenge.")
            self.show_status(self.result)
            return
        self.start_value = PW.challenge_value(self.knowledge()).value
        self.state.apply(A.Challenge())
        self._collect_log()
        self.show_status("You challenge with the clue card: click a face-down place to reveal it. "
                         "A card sharing anything with the clue (animal, texture, color, a possible name) ends it.")

    def _collect_log(self) -> None:
        obs = self.state.observation(self.learner)
        for event in obs.log[self._seen:]:
            line = describe_event(event, self.game, self.learner)
            if line:
                self.lines.append(f"Turn {event['turn']}: {line}")
        self._seen = len(obs.log)

    # ------------------------------------------------------------------ the position
    def position(self) -> dict:
        """The numbers shown before the next decision (exact Fractions)."""
        kn = self.knowledge()
        pos = PW.challenge_position(kn)
        s = kn.safe_reveals
        stop, cont = PW.stop_vs_continue(kn)
        decision = PW.challenge_decision(kn)
        per_place = {p: PW.p_safe_place(kn, p, pos["card"]) for p in kn.face_down}
        left = len(pos["safe_places"]) + len(pos["unknown_places"])
        streak = {k: PW.p_streak(kn, k).value for k in range(1, left + 1)}
        return {"kn": kn, "pos": pos, "s": s, "stop": None if stop is None else stop.value,
                "continue": None if cont is None else cont.value,
                "p_next": PW.p_safe_next(kn).value, "threshold": Fraction(1 + s, 2 + s),
                "decision": decision, "per_place": per_place, "streak": streak,
                "value": PW.challenge_value(kn).value}

    def _record(self, action: str, place: int | None) -> Step:
        pos = self.position()
        optimal = "stop" if pos["decision"][0] == "stop" else "continue"
        optimal_place = pos["decision"][1] if optimal == "continue" else None
        return Step(pos["s"], pos["stop"], pos["continue"], pos["p_next"], pos["threshold"], optimal,
                    optimal_place, "stop" if action == "stop" else "continue", place,
                    None if place is None else pos["per_place"].get(place), None, None)

    # ------------------------------------------------------------------ actions
    @guarded
    def _on_table_click(self, target: dict) -> None:
        if not self.in_challenge or target["kind"] != "place":
            return
        place = int(target["id"])
        action = A.RevealNext(place)
        if not self.state.is_legal(action):
            self.show_status(self.state.why_illegal(action), kind="bad")
            return
        step = self._record("reveal", place)
        n_log = len(self.state.log)
        self.state.apply(action)
        event = next(e for e, _, _ in self.state.log[n_log:] if e["kind"] == "challenge_reveal")
        step = Step(**{**step.__dict__, "safe": bool(event["safe"]), "card": event["card"]})
        self.steps.append(step)
        self._collect_log()
        seen = card_label(self.game, event["card"])
        if event["safe"]:
            s = self.state.safe
            more = ("You may Stop now, or reveal on." if s >= MIN_SAFE else
                    f"{MIN_SAFE - s} more safe reveal{'s' if MIN_SAFE - s != 1 else ''} before you may stop.")
            if not self.state.face_down_places():
                more = "No face-down place is left: press Stop to archive."
            self.show_status(f"Safe! Place {place} held {seen}. {more}", kind="good")
        else:
            self._finish("fail", f"Not safe: place {place} held {seen}. The challenge fails and nothing is archived. "
                                 "Every card you revealed now lies face up for everyone (highlighted): remember "
                                 "them before you go on.")
        self._refresh()

    @guarded
    def _stop(self) -> None:
        if not self.in_challenge or not self.state.is_legal(A.StopChallenge()):
            self.show_status("You may stop once 4 reveals are safe (or when no face-down place is left).",
                             kind="bad")
            return
        self.steps.append(self._record("stop", None))
        n = 1 + self.state.safe
        self.state.apply(A.StopChallenge())
        self._finish("stop", f"You stopped and archived {n} cards.")
        self._refresh()

    def _finish(self, how: str, text: str) -> None:
        state = self.state
        guard = 0
        while (not state.is_terminal() and state.current_player == self.learner
               and state.phase in ("archive", "abilities") and guard < 100):
            guard += 1
            legal = state.legal_actions()
            pick = legal[0] if state.phase == "archive" else next(  # archive in reveal order
                (a for a in legal if isinstance(a, A.EndTurn)), legal[0])
            state.apply(pick)
        self._collect_log()
        archived = 0 if how == "fail" else 1 + sum(1 for st in self.steps if st.safe)
        self.result = text
        self.history.append({"steps": list(self.steps), "archived": archived, "how": how,
                             "optimal_value": self.start_value})
        self.show_status(text + (" Press Next challenge." if not state.is_terminal() else ""),
                         kind="good" if how == "stop" else "bad")

    @guarded
    def _next_challenge(self) -> None:
        if self.in_challenge:
            self.show_status("Finish this challenge first (reveal, or Stop).", kind="bad")
            return
        if self.state.is_terminal():
            self.show_status(self._over_text())
            return
        self._start_challenge()
        self._refresh()

    def _over_text(self) -> str:
        scores = self.state.scores()
        return ("Game over. Scores: " + ", ".join(("You" if p == self.learner else f"Player {p}") + f" {s}"
                                                  for p, s in enumerate(scores)) + ". Press Reset.")

    # ------------------------------------------------------------------ drawing
    def _refresh(self) -> None:
        state = self.state
        live = self.in_challenge
        self.stop_button.disabled = not (live and state.is_legal(A.StopChallenge()))
        self.next_button.disabled = live or state.is_terminal()
        self.next_button.button_style = "warning" if state.phase == "face_up" else ""  # the one thing to press now
        selectable = ([{"kind": "place", "id": p, "label": f"Reveal place {p}"} for p in state.face_down_places()]
                      if live else [])
        if live:
            message = (f"Click a face-down place to reveal it ({state.safe} safe so far"
                       + ("; you may Stop)." if state.is_legal(A.StopChallenge()) else ")."))
        elif state.is_terminal():
            message = None
        elif state.phase == "face_up":
            message = (("Your challenge failed" if state.current_player == self.learner
                        else f"Player {state.current_player} failed")
                       + ": remember the face-up cards, then press Next challenge.")
        else:
            message = "This challenge is over: press Next challenge."
        self.table.show(state, self.learner, selectable=selectable, message=message)
        try:
            self.prob.value = self._panel_html() if live else (
                f"<div class='safari-prob-panel'><p>{html.escape(self.result or '')}</p></div>")
        except Exception as exc:  # noqa: BLE001 - the panel must never break the lab
            self.errors.append(f"{type(exc).__name__}: {exc}")
            self.prob.value = f"<div style='color:#a00'>Could not compute the chances: {html.escape(str(exc))}</div>"
        self.summary.value = self._summary_html() if (self.history and not live) else ""
        self.log_html.value = ("<details><summary>What happened (latest last)</summary><div style='font-size:90%'>"
                               + "<br>".join(html.escape(x) for x in self.lines[-40:]) + "</div></details>")

    def _panel_html(self) -> str:
        pos = self.position()
        p = pos["pos"]
        s = pos["s"]
        n = 1 + s
        out = ["<div class='safari-prob-panel'>",
               f"<p><b>Challenged card:</b> {html.escape(card_label(self.game, self.game.cards[p['card']].id))}. "
               f"Safe so far: <b>{s}</b>. Unknown cards: {p['n']}, of which {p['a']} are safe"
               + (f"; you remember {len(p['safe_places'])} safe place(s)" if p["safe_places"] else "") + ".</p>",
               f"<p class='safari-p-safe'>P(next reveal safe) = <b>{fraction_html(pos['p_next'])}</b></p>"]
        cells = "".join(f"<td>Place {q}: {fraction_html(v)}</td>" for q, v in pos["per_place"].items())
        out.append(f"<table class='safari-places'><tr><th>P(safe) by place</th>{cells}</tr></table>")
        if pos["streak"]:
            head = "".join(f"<th>{k}</th>" for k in pos["streak"])
            vals = "".join(f"<td>{fraction_html(v)}</td>" for v in pos["streak"].values())
            out.append("<table class='safari-streak' style='border-collapse:collapse'>"
                       f"<tr><th>k more in a row</th>{head}</tr><tr><th>P(all k safe)</th>{vals}</tr></table>")
        stop = "not allowed yet (fewer than 4 safe)" if pos["stop"] is None else f"{fraction_html(pos['stop'])} cards"
        cont = "—" if pos["continue"] is None else f"{fraction_html(pos['continue'])} cards"
        out.append(f"<div class='safari-ev'><p>Expected archive: <b>stop now</b> {stop}; "
                   f"<b>continue</b> (then play optimally) {cont}.</p></div>")
        if s >= MIN_SAFE:
            go = pos["p_next"] > pos["threshold"]
            out.append(f"<p class='safari-rule'>Rule: continue while P(safe) &gt; n/(n+1), n = {n} cards now: "
                       f"{fraction_html(pos['p_next'])} vs {fraction_html(pos['threshold'])} → "
                       f"<b>{'continue' if go else 'stop'}</b>.</p>")
        else:
            out.append(f"<p class='safari-rule'>Rule: continue while P(safe) &gt; n/(n+1); before 4 safe reveals "
                       f"you must continue ({MIN_SAFE - s} to go).</p>")
        out.append("</div>")
        return "".join(out)

    def _summary_html(self) -> str:
        last = self.history[-1]
        rows = []
        for k, st in enumerate(last["steps"], 1):
            stop = "—" if st.stop_value is None else fraction_html(st.stop_value)
            cont = "—" if st.continue_value is None else fraction_html(st.continue_value)
            did = "stop" if st.action == "stop" else f"reveal place {st.place}"
            outcome = "" if st.safe is None else ("safe" if st.safe else "NOT safe")
            agree = "yes" if st.agrees else "no"
            mark = "✔" if st.agrees else "✘"
            rows.append(f"<tr class='safari-step' data-agree='{agree}'><td>{k}</td><td>{st.safe_so_far}</td>"
                        f"<td>{fraction_html(st.p_next)}</td><td>{fraction_html(st.threshold)}</td>"
                        f"<td>{stop}</td><td>{cont}</td><td>{st.optimal}</td><td>{html.escape(did)} {mark}</td>"
                        f"<td>{outcome}</td></tr>")
        agree = sum(st.agrees for st in last["steps"])
        total_got = sum(h["archived"] for h in self.history)
        total_opt = sum((h["optimal_value"] or Fraction(0)) for h in self.history)
        return ("<div><p><b>The optimal stopping rule:</b> with n cards archived if you stop now, "
                "continue while P(next safe) &gt; n/(n+1) (before 4 safe reveals you must go on).</p>"
                "<table class='safari-steps' style='border-collapse:collapse'><tr><th>Step</th><th>Safe so far</th>"
                "<th>P(next safe)</th><th>n/(n+1)</th><th>Stop gives</th><th>Continue expects</th>"
                "<th>Optimal</th><th>You</th><th>Result</th></tr>" + "".join(rows) + "</table>"
                f"<p>You agreed with the optimal rule at {agree} of {len(last['steps'])} decisions and archived "
                f"{last['archived']} card(s); optimal play expected "
                f"{fraction_html(last['optimal_value'] or Fraction(0))} "
                f"from the start of this challenge.</p>"
                f"<p>All your challenges: {len(self.history)}, archived {total_got} card(s) in all; optimal play "
                f"expected {float(total_opt):.2f}.</p></div>")
