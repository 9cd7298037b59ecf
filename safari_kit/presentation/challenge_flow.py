"""The Challenge lab's flow without widgets: a position, the bots' turns, Identify or Challenge, reveal or stop.

:class:`~safari_kit.widgets.labs.challenge.ChallengeLab` is the layout around this state machine (issue 28:
the lab had tangled the two in 791 lines). Here lives everything the lab *does*: it reaches a starting
position (:mod:`safari_kit.simulation.challenge_positions`), lets the bots play to the learner's turn
(pausing after a bot's failed turn so its face-up cards can be remembered, except on the opening deal), plays
the learner's Identify / Challenge / reveal / Stop through the engine (which refuses anything illegal and then
changes nothing), keeps each stop-or-continue decision as a :class:`Step`, and says what happened. Each action
returns a :class:`Said` (the status line, its kind, the words for a screen reader) or None; the lab shows it.

Decisions for the class experiment (issue 21): a decision (:attr:`ChallengeFlow.decision_now`) is kept only
while ``recording()`` is true (the learner joined); a challenge's kept decisions are handed to
``on_decisions(steps, result)`` once, when the challenge ends (``result`` None: left unfinished by a new deal).

Nothing here imports a widget package, so the flow runs and is tested without ipywidgets
(``tests/presentation/test_challenge_flow.py``).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, NamedTuple

from safari_kit.core.i18n import _, ngettext
from safari_kit.presentation.narration import (card_label, describe_event, no_match_words, types_label,
                                               unsafe_words, why_failed)
from safari_kit.presentation.numbers import count_first
from safari_kit.presentation.spoken import challenge_sentence
from safari_kit.presentation.spoken_turns import turns_summary
from safari_kit.presentation.views import learner_sentence
from safari_kit.probability import witness as PW
from safari_kit.probability.knowledge import PERFECT, Knowledge, Memory
from safari_kit.simulation import challenge_positions as CP
from safari_kit.witness import actions as A

__all__ = ["ChallengeFlow", "MIN_SAFE", "Said", "Step"]

MIN_SAFE = PW.MIN_SAFE


class Said(NamedTuple):
    """What an action says: the status line, its kind (info, good, bad), the spoken words when they differ, and
    whether the game moved (``done`` False: refused or nothing to do, the game is exactly as it was)."""

    text: str
    kind: str = "info"
    spoken: str | None = None
    done: bool = True


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


class ChallengeFlow:
    """One Challenge lab's game: its starting position, the learner's seat and memory, the turns played."""

    def __init__(self, position=None, players: int | None = None, learner: int | None = None, *,
                 bot: str | None = None, memory: Memory | None = None, deck_order=None,
                 recording: Callable[[], bool] = lambda: False,
                 on_decisions: Callable[[list[Step], int | None], None] | None = None):
        base = CP.position(position)
        changes: dict[str, Any] = {k: v for k, v in (("players", players), ("learner", learner)) if v is not None}
        if changes:
            base = dataclasses.replace(base, key="custom", kind={}, kind_why="", **changes)  # any deal
        if not 0 <= base.learner < base.players:
            raise ValueError(f"learner must be a seat from 0 to {base.players - 1}, got {base.learner!r}")
        self.start_position = base
        self.learner = base.learner
        self.memory = memory or PERFECT
        self.bot_spec = bot
        self.deck_order = deck_order
        self.recording = recording
        self.on_decisions = on_decisions
        self._pending: list[Step] = []  # this challenge's decisions made after joining, kept until it ends

    # ------------------------------------------------------------------ set-up
    def choose_position(self, key: str) -> bool:
        """Start from the position ``key`` at the next deal; False if it is the one already chosen."""
        if key == self.start_position.key:
            return False
        self.start_position = CP.position(key)
        self.learner = self.start_position.learner
        return True

    def reset(self, seed: int) -> Said:
        """Deal the position from ``seed``: the bots play their turns, the game opens on the learner's turn."""
        self.record_decisions(None)  # a challenge left unfinished: its decisions, without a result
        self.seed = seed
        self.game, self.state, self.seats = CP.reach(self.start_position, seed, bot=self.bot_spec,
                                                     deck_order=self.deck_order)
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
        return self.start_turn(opening=True)

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

    def start_turn(self, opening: bool = False) -> Said:
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
        self.collect_log()
        news = self.bots_words(start)
        self.steps = []
        self.result = None
        self.choice_values = None
        self.turn_facts = None
        if state.is_terminal():
            return Said(self.over_text(), spoken=f"{news} {self.over_text()}")
        if state.phase == "face_up":  # a bot failed: remember its cards before play goes on
            why = why_failed(state.observation(self.learner).log, self.game, self.learner)
            self.result = (_("Player {player} failed.").format(player=state.current_player)
                           + (f" {why}" if why else "")
                           + " " + _("The cards they revealed lie face up for everyone (highlighted). Remember them, "
                                     "then press Next turn."))
            return Said(self.result, spoken=f"{news} {self.result}")
        self.choice_values = CP.lab_choice_values(self.knowledge())
        self.turn_facts = CP.facts(state, self.learner, self.memory)
        if self.first_facts is None:
            self.first_facts = self.turn_facts
            self.first_claims_hold = self.claims_hold(self.first_facts)
        text = _("Your turn: Identify or Challenge? Below the buttons: the cards each choice archives, on average.")
        if opening and any(e.get("player") not in (None, self.learner) for e in state.observation(self.learner).log):
            text = (_("The other players went first. What you saw of their cards is under “What you remember”.")
                    + " " + text)
        return Said(text, spoken=f"{news} {text}")

    def bots_words(self, start: int) -> str:
        """The bots' turns since ``start`` (issue 20), one clause each; a bot's failed turn now on the table is
        left out (the failure's own words say it)."""
        state = self.state
        events = list(state.observation(self.learner).log[start:])
        if state.phase == "face_up" and state.current_player != self.learner:
            events = [e for e in events if e.get("turn") != state.turn]
        return turns_summary(self.game, events, self.learner)

    def collect_log(self) -> None:
        obs = self.state.observation(self.learner)
        for event in obs.log[self._seen:]:
            line = describe_event(event, self.game, self.learner)
            if line:
                self.lines.append(_("Turn {turn}: {line}").format(turn=event['turn'], line=line))
        self._seen = len(obs.log)

    def claims_hold(self, f: dict) -> bool:
        """Does the position's sentence (its ``claims``) hold for facts ``f``, computed from this deal?"""
        claims = dict(self.start_position.claims)
        better = claims.pop("better", None)
        clue_name = claims.pop("clue_name", None)
        if any(f.get(k) != v for k, v in claims.items()):
            return False
        if better is not None and (f["challenge"] > f["identify"]) != (better == "challenge"):
            return False
        return clue_name is None or self.game.cards[self.state.clue[0]].name == clue_name

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

    def _step(self, action: str, place: int | None) -> Step:
        pos = self.position()
        optimal = "stop" if pos["decision"][0] == "stop" else "continue"
        optimal_place = pos["decision"][1] if optimal == "continue" else None
        return Step(pos["s"], pos["stop"], pos["continue"], pos["p_next"], pos["threshold"], optimal,
                    optimal_place, "stop" if action == "stop" else "continue", place,
                    None if place is None else pos["per_place"].get(place), None, None)

    def better(self) -> str:
        """The choice with the larger expected cards archived (Identify on a tie)."""
        v = self.choice_values or {}
        return "challenge" if v.get("challenge", 0) > v.get("identify", 0) else "identify"

    def optimal_decision(self) -> str | None:
        """"reveal" or "stop": what the optimal rule (P(next safe) > n/(n+1), :func:`PW.challenge_decision`)
        says now, in a challenge; None outside one. May raise: the lab reports it."""
        return PW.challenge_decision(self.knowledge())[0] if self.in_challenge else None

    def safest_place(self) -> int | None:
        """The face-down place with the highest P(safe) (table order on ties): what "Reveal one more" reveals."""
        per_place = self.position()["per_place"] if self.in_challenge else {}
        return max(per_place, key=lambda q: per_place[q]) if per_place else None

    # ------------------------------------------------------------------ actions
    def challenge(self) -> Said:
        if not self.choosing:
            return Said(_("You can choose Challenge at the start of your turn."), "bad", done=False)
        kn = self.knowledge()
        self.start_value = PW.challenge_value(kn, kn.clue[0]).value
        self.state.apply(A.Challenge())
        self.collect_log()
        return Said(_("You challenge with your clue card. Click a face-down place to reveal it, or press Reveal "
                      "one more for the safest place. A card that shares anything with your clue ends the "
                      "challenge."))

    def identify(self) -> Said:
        """The best declaration is played for the learner (the Identification lab is where they pick one)."""
        if not self.choosing:
            return Said(_("You can choose Identify at the start of your turn."), "bad", done=False)
        values = dict(self.choice_values or CP.lab_choice_values(self.knowledge()))
        better = self.better()
        clue = self.state.card_id(self.state.clue[0])
        done = CP.play_identify(self.state, self.learner, self.memory)
        self.collect_log()
        seen = (card_label(self.game, done["card"]) if done["success"]
                else no_match_words(self.game, clue, done["card"], done["types"]))
        how = _("You identified. The lab declared {types} at place {place}, with a chance of a match of {chance}. "
                "The place held {card}.").format(types=types_label(done['types']), place=done['place'],
                                                 chance=count_first(done['p']), card=seen)
        if done["success"]:
            text = how + " " + _("A match: 2 cards archived.")
        else:
            text = (how + " " + _("No match: nothing is archived. The cards lie face up for everyone (highlighted). "
                                  "Remember them before you go on."))
        self.result = text
        self.history.append({"kind": "identify", "values": values, "better": better, "steps": [],
                             "archived": 2 if done["success"] else 0,
                             "how": "identified" if done["success"] else "missed",
                             "optimal_value": values["identify"], "identify": done})
        return Said(text + (" " + _("Press Next turn.") if not self.state.is_terminal() else ""),
                    "good" if done["success"] else "bad")

    def reveal(self, place: int) -> Said:
        """Reveal ``place`` in a challenge; an illegal place is refused with the rules' reason, nothing changes."""
        action = A.RevealNext(place)
        if not self.state.is_legal(action):
            return Said(learner_sentence(self.state.why_illegal(action)), "bad", done=False)
        step = self._step("reveal", place)
        decided = self.decision_now  # asked before the reveal: could the learner have stopped instead?
        challenged = self.state.card_id(self.state.challenged)
        n_log = len(self.state.log)
        self.state.apply(action)
        event = next(e for e, _, _ in self.state.log[n_log:] if e["kind"] == "challenge_reveal")
        step = Step(**{**step.__dict__, "safe": bool(event["safe"]), "card": event["card"]})
        self.steps.append(step)
        self._decided(step, decided)
        self.collect_log()
        seen = card_label(self.game, event["card"])
        if event["safe"]:
            s = self.state.safe
            more = (_("You may Stop now and archive {n} cards, or reveal on.").format(n=1 + s) if s >= MIN_SAFE else
                    ngettext("{n} more safe reveal before you may stop.", "{n} more safe reveals before you may stop.",
                             MIN_SAFE - s).format(n=MIN_SAFE - s))
            if not self.state.face_down_places():
                more = _("No face-down place is left: press Stop to archive {n} cards.").format(n=1 + s)
            said = challenge_sentence(self.game, event, self.state, self.learner, safe_so_far=s)
            return Said(_("Safe! Place {place} held {card}.").format(place=place, card=seen) + f" {more}", "good",
                        f"{said} {more}")
        return self._finish("fail", _("Not safe: place {place} held {card}.").format(
                                place=place, card=unsafe_words(self.game, challenged, event['card']))
                            + " " + _("The challenge fails and nothing is archived. Every card you revealed now lies "
                                      "face up for everyone (highlighted). Remember them before you go on."),
                            spoken=challenge_sentence(self.game, event, self.state, self.learner))

    def stop(self) -> Said:
        if not self.in_challenge or not self.state.is_legal(A.StopChallenge()):
            return Said(_("You may stop once 4 reveals are safe (or when no face-down place is left)."), "bad",
                        done=False)
        step = self._step("stop", None)
        self._decided(step, self.decision_now)
        self.steps.append(step)
        n = 1 + self.state.safe
        self.state.apply(A.StopChallenge())
        return self._finish("stop", _("You stopped and archived {n} cards.").format(n=n))

    def _finish(self, how: str, text: str, spoken: str | None = None) -> Said:
        CP.finish_turn(self.state, self.learner)
        self.collect_log()
        archived = 0 if how == "fail" else 1 + sum(1 for st in self.steps if st.safe)
        self.result = text
        self.history.append({"kind": "challenge", "values": dict(self.choice_values or {}), "better": self.better(),
                             "steps": list(self.steps), "archived": archived, "how": how,
                             "optimal_value": self.start_value})
        self.record_decisions(archived)
        go_on = " " + _("Press Next turn.") if not self.state.is_terminal() else ""
        return Said(text + go_on, "good" if how == "stop" else "bad", None if spoken is None else spoken + go_on)

    def next_turn(self) -> Said:
        if self.choosing or self.in_challenge:
            return Said(_("Finish your turn first (Identify, or Challenge and reveal or Stop)."), "bad", done=False)
        if self.state.is_terminal():
            return Said(self.over_text(), done=False)
        return self.start_turn()

    def over_text(self) -> str:
        scores = self.state.scores()
        return _("Game over. Scores: {scores}. Press Reset.").format(scores=", ".join(
            (_("You") if p == self.learner else _("Player {player}").format(player=p)) + f" {s}"
            for p, s in enumerate(scores)))

    # ------------------------------------------------------------------ the class experiment (issue 21)
    def _decided(self, step: Step, decision: bool) -> None:
        """Keep ``step`` to hand over when its challenge ends, if it was a decision made after joining."""
        if decision and self.recording():
            self._pending.append(step)

    def record_decisions(self, result: int | None) -> None:
        """Hand over the decisions of the challenge that ended (``result``: cards archived; None: left
        unfinished), each once: the list is emptied first, so a second call hands over nothing."""
        pending, self._pending = self._pending, []
        if pending and self.on_decisions is not None:
            self.on_decisions(pending, result)
