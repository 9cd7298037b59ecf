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
"""
from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as W

from safari_kit.probability import witness as PW
from safari_kit.probability.knowledge import PERFECT, Knowledge, Memory
from safari_kit.widgets.labs.base import PLACE_STOP, Lab, _count_of, count_html, count_lines, guarded
from safari_kit.widgets.quiet import page_words
from safari_kit.widgets.labs.limits import limit_text
from safari_kit.presentation.narration import (card_label, card_words, describe_event, no_match_words, shared_words,
                                               types_label, who, why_failed)
from safari_kit.presentation.numbers import count_first
from safari_kit.presentation.spoken import chance_words, identify_sentence
from safari_kit.presentation.views import learner_sentence
from safari_kit.simulation.seats import BotSeats
from safari_kit.widgets.table import CardTable
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A

log = logging.getLogger("safari_kit.widgets")

__all__ = ["IdentificationLab", "Prediction", "brier"]

NOTHING = Memory(last_k=0)


def brier(pairs) -> float | None:
    """Mean of (forecast − outcome)² over ``(forecast, outcome)`` pairs; None for no pairs."""
    pairs = [(float(p), 1.0 if o else 0.0) for p, o in pairs]
    if not pairs:
        return None
    return sum((p - o) ** 2 for p, o in pairs) / len(pairs)


# ----------------------------------------------------------------------------- predictions
@dataclass(frozen=True)
class Prediction:
    """One reveal of the learner: what was declared, the guess, the exact chances and the outcome."""

    turn: int
    clue: str
    types: tuple
    place: int
    guess: float | None
    exact: Fraction  # with what you remember
    nothing: Fraction  # knowing nothing
    success: bool
    card: str
    exact_count: tuple | None = None  # the count behind ``exact`` (favourable, equally likely), when it is one
    nothing_count: tuple | None = None  # the count behind ``nothing`` (the tally writes it first, issue 27)


# ----------------------------------------------------------------------------- the lab
class IdentificationLab(Lab):
    """Play Safari Witness identifications against bots, with the exact chances and a tally of your guesses."""

    title = "Identification lab: which clue type, which place?"
    record_lab = "identification"

    def __init__(self, seed: int | None = 1, players: int = 3, advanced: bool = False,
                 memory: Memory | None = None, *, bot: str = "greedy", learner: int = 0,
                 deck_order=None, fair: bool = False):
        super().__init__(seed, fair=fair)
        self.layout.add_class("safari-identification-lab")
        self.status.add_class("safari-status")
        self.game = WitnessGame(players=players, advanced=advanced)
        if not 0 <= learner < players:
            raise ValueError(f"learner must be a seat from 0 to {players - 1}, got {learner!r}")
        self.learner = learner
        self.memory = memory or PERFECT
        self.bot_spec = bot
        self.deck_order = deck_order

        self.table = CardTable(game="witness")
        self.table.on_click(self._on_table_click)
        self.identify_button = W.Button(description="Identify", tooltip="Identify with the one clue card now")
        self.another_button = W.Button(description="Reveal another",
                                       tooltip="Reveal a second clue card, then identify both")
        self.identify_button.add_class("safari-identify")
        self.another_button.add_class("safari-reveal-another")
        self.identify_button.on_click(lambda _b: self._choose(A.Identify()))
        self.another_button.on_click(lambda _b: self._choose(A.RevealAnother()))
        self.type_buttons = W.ToggleButtons(options=[], description="Clue type", style={"button_width": "auto"})
        self.type_buttons.add_class("safari-types")
        self.type_buttons.observe(lambda _c: self._refresh_panel(), names="value")  # chances and notes only
        self.guess_box = W.Text(value="", placeholder="e.g. 0.25 or 13/70", description="Your guess",
                                layout=W.Layout(width="260px"))
        self.guess_box.add_class("safari-guess")
        limit_text(self.guess_box, 40)  # a guess is a short number; a huge one would only cost work
        self.reveal_button = W.Button(description="Reveal", button_style="primary",
                                      tooltip="Declare the clue type at the picked place and turn it over")
        self.reveal_button.layout.width = "90px"
        self.reveal_button.add_class("safari-reveal")
        self.reveal_button.on_click(lambda _b: self._reveal())
        self.next_button = W.Button(description="Next turn", tooltip="The other players play until your turn")
        self.next_button.add_class("safari-next")
        self.next_button.on_click(lambda _b: self._next_turn())
        self.show_exact = W.Checkbox(value=True, description="Show the exact chances", indent=False)
        #: whether an exact chance was on the screen since the last reveal (issue 26: Guess.chance_seen)
        self.chance_shown = False
        #: reveals of a deal already recorded for the class: (seed, turn, clue, place, types)
        self._recorded_reveals: set[tuple] = set()
        self.show_exact.observe(lambda _c: self._refresh_panel(), names="value")
        self.prob = W.HTML()
        self.prob.add_class("safari-prob")
        self.tally = W.HTML()
        self.tally.add_class("safari-tally")
        self.log_html = W.HTML()
        self.log_html.add_class("safari-log")
        for b, w in ((self.identify_button, "90px"), (self.another_button, "128px"), (self.next_button, "100px")):
            b.layout.width = w
        self.all_chances = W.HTML()
        self.all_chances.add_class("safari-prob-all")
        self.type_buttons.description = ""
        self.type_label = W.HTML("<b>Clue type</b>")
        self.guess_box.layout.width = "210px"
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
                self.chance_shown = False

    # ------------------------------------------------------------------ set-up
    def _reset(self) -> None:
        self.errors.clear()
        self.state = self.game.new_initial_state(seed=self.seed, deck_order=self.deck_order)
        self.seats = BotSeats(self.game, self.learner, self.bot_spec, self.seed)
        self.predictions: list[Prediction] = []
        self._pm: dict = {}
        self.lines: list[str] = []
        self.picked_place: int | None = None
        self.picked_clue: str | None = None
        self.last_result: str | None = None
        self._seen = 0
        self.chance_shown = False
        self._run_bots(opening=True)
        self._refresh()
        text = self._turn_text()
        if self.my_turn and any(e.get("player") not in (None, self.learner)
                                for e in self.state.observation(self.learner).log):
            text = "The other players went first: what they did is under “What happened”. " + text
        self.show_status(text, kind="info")

    # ------------------------------------------------------------------ knowledge
    @property
    def my_turn(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player == self.learner

    def knowledge(self, memory: Memory | None = None) -> Knowledge:
        """The learner's knowledge now (``memory`` default: the lab's memory)."""
        return Knowledge.from_observation(self.state.observation(self.learner), memory or self.memory,
                                          game=self.game)

    def _now(self) -> tuple:
        """A key of the position: a click on a place or a clue type changes nothing the learner knows."""
        return (id(self.state), len(self.state.history))

    def _knowledge_now(self, memory: Memory | None = None) -> Knowledge:
        """:meth:`knowledge`, computed once per position (every click of a turn reuses it)."""
        memory = memory or self.memory
        now = self._now()
        if getattr(self, "_kn_now", None) != now:
            self._kn_now, self._kn_cache, self._pm = now, {}, {}
        kn = self._kn_cache.get(memory)
        if kn is None:
            kn = self._kn_cache[memory] = self.knowledge(memory)
        return kn

    def _p_match(self, kn, clue, place: int, types):
        """PW.p_match, remembered for this position (the panel asks for every type at every place)."""
        key = (id(kn), clue, place, tuple(types) if not isinstance(types, str) else (types,))
        hit = self._pm.get(key)
        if hit is None:
            hit = self._pm[key] = PW.p_match(kn, clue, place, types)
        return hit

    def _clue_for_panel(self, kn) -> int | None:
        if self.state.phase == "identify":
            if self.picked_clue is not None:
                return self.game.index[self.picked_clue]
            return kn.unresolved[0] if kn.unresolved else None
        return kn.clue[0] if kn.clue else None

    # ------------------------------------------------------------------ actions
    def _run_bots(self, opening: bool = False) -> None:
        """The bots play to the learner's turn, pausing on a failed turn (its cards lie face up) except at the
        ``opening`` of a game: a lab opens on the learner's own turn (issue 27)."""
        self.seats.play_until_learner(self.state, show_failures=not opening)
        self._collect_log()

    def _collect_log(self) -> None:
        obs = self.state.observation(self.learner)
        for event in obs.log[self._seen:]:
            line = describe_event(event, self.game, self.learner)
            if line:
                self.lines.append(f"Turn {event['turn']}: {line}")
        self._seen = len(obs.log)

    @guarded
    def _choose(self, action) -> None:
        if not self.my_turn or self.state.phase != "choose":
            self.show_status("That choice is made at the start of your turn.", kind="bad")
            return
        if not self.state.is_legal(action):
            self.show_status(learner_sentence(self.state.why_illegal(action)), kind="bad")
            return
        self.live.focus(PLACE_STOP)  # the keyboard goes on where the turn goes on: the places (asked before the
        # buttons change, so the page knows before Identify is disabled; it waits for the places; issue 20)
        self.state.apply(action)
        self._collect_log()
        self.picked_place, self.picked_clue = None, None
        self._refresh()
        what = "one clue card" if isinstance(action, A.Identify) else "two clue cards"
        self.show_status(f"Identify with {what}: pick a clue type, then click a face-down place.", kind="info")

    @guarded
    def _on_table_click(self, target: dict) -> None:
        if target["kind"] == "place":
            self.picked_place = int(target["id"])
            self.show_status(f"Place {self.picked_place} picked. Type your guess (optional), then press Reveal.")
        elif target["kind"] == "clue":
            self.picked_clue = str(target["id"])
            self.show_status(f"Clue card picked: {card_label(self.game, self.picked_clue)}.")
        self._refresh_pick()

    def _refresh_pick(self) -> None:
        """After a pick (nothing the learner knows has changed): the chances first, then the marks on the table.

        A click must answer fast (issue 12: median <= 30 ms click -> updated chances), so the table is
        not rebuilt: only its highlight and message change.
        """
        if not (self.my_turn and self.state.phase == "identify"):
            self._refresh()
            return
        self._refresh_panel()
        self.reveal_button.disabled = self.picked_place is None
        highlight = []
        if self.picked_place is not None:
            highlight.append({"kind": "place", "id": self.picked_place})
        if self.picked_clue is not None:
            highlight.append({"kind": "clue", "id": self.picked_clue})
        message = ("Pick a clue type, then click a face-down place." if self.picked_place is None else
                   f"Place {self.picked_place} picked: type your guess, then press Reveal.")
        self.table.mark(highlight, message)

    def _parse_guess(self):
        """(the typed guess as read: a Fraction for "14/74", a float for "0.2" or "20%"; None for no guess,
        the problem in words or None). The tally keeps it as a float; the class record keeps it as typed."""
        from safari_kit.presentation.numbers import as_number

        text = self.guess_box.value.strip()
        if not text:
            return None, None
        value = as_number(text)
        if value is None or not 0 <= float(value) <= 1:
            return None, f"I could not read {text!r} as a probability between 0 and 1 (try 0.25, 13/70 or 25%)."
        return value, None

    @guarded
    def _reveal(self) -> None:
        state = self.state
        if not self.my_turn or state.phase != "identify":
            self.show_status("Reveal is for an identification on your turn: press Identify first.", kind="bad")
            return
        types = self.type_buttons.value
        if not types:
            self.show_status("Pick a clue type first.", kind="bad")
            return
        if self.picked_place is None:
            self.show_status("Click a face-down place on the table first.", kind="bad")
            return
        guess, problem = self._parse_guess()
        if problem:
            self.show_status(problem, kind="bad")
            return
        kn, kn0 = self.knowledge(), self.knowledge(NOTHING)
        clue_index = self._clue_for_panel(kn)
        clue = self.game.cards[clue_index].id
        action = A.Declare(clue, tuple(types), self.picked_place)
        if not state.is_legal(action):
            self.show_status(learner_sentence(state.why_illegal(action)), kind="bad")
            return
        exact_shown = PW.p_match(kn, clue, self.picked_place, types)
        exact = exact_shown.value
        nothing_shown = PW.p_match(kn0, clue, self.picked_place, types)
        nothing = nothing_shown.value
        turn = state.turn
        n_log = len(state.log)
        state.apply(action)
        event = next(e for e, _, _ in state.log[n_log:] if e["kind"] == "identify")
        self.predictions.append(Prediction(turn, clue, tuple(types), self.picked_place,
                                           None if guess is None else float(guess), exact, nothing,
                                           bool(event["success"]), event["card"], exact_shown.count,
                                           nothing_shown.count))
        again = False
        if guess is not None:
            reveal = (self.seed, turn, clue, self.picked_place, tuple(types))
            again = reveal in self._recorded_reveals
            if not again and self.recorder is not None:
                self._recorded_reveals.add(reveal)
                self.record("guess", guess=guess, exact=exact, outcome=1 if event["success"] else 0,
                            context=self._declared_words(clue, types, event["place"]),
                            chance_seen=self.chance_shown)
        self.chance_shown = False  # the next guess starts with nothing shown (the result below is after it)
        self.picked_place, self.picked_clue = None, None
        self.guess_box.value = ""
        self._collect_log()
        self._finish_own_turn()
        if event["success"]:
            shared = shared_words(self.game, clue, event["card"], types)
            text = (f"Match! Place {event['place']} held {card_words(self.game.cards[self.game.index[event['card']]])}"
                    + (f": it shares {' and '.join(shared)} with the clue." if shared else "."))
        else:
            text = f"No match: place {event['place']} held {no_match_words(self.game, clue, event['card'], types)}."
        text += f" The exact chance was {count_first(exact_shown)}."
        if again and self.recorder is not None:
            text += " You guessed this same reveal before, so the class results keep your first guess only."
        self.last_result = text
        self._refresh()
        if self.my_turn and self.state.phase == "identify":
            text += " Now identify your other clue card."
        elif self.state.phase == "face_up":
            text += (" Every card you revealed now lies face up for everyone (highlighted). Remember them, "
                     "then press Next turn to turn them face down.")
        elif not self.state.is_terminal():
            text += " Press Next turn."
        spoken = identify_sentence(self.game, event, self.state, self.learner)
        if not event["success"] or not self.my_turn:
            spoken += " Press Next turn." if not self.state.is_terminal() else " The game is over."
        self.show_status(text, kind="good" if event["success"] else "bad", spoken=spoken)

    def _declared_words(self, clue: str, types, place: int) -> str:
        """What was declared, for the class record: "Color: Pink at place 3" (the clue card is face up)."""
        card = self.game.cards[self.game.index[clue]]
        values = ", ".join(str(getattr(card, t)) for t in types)
        return f"{types_label(types)}: {values} at place {place}"

    def _finish_own_turn(self) -> None:
        """Archive (an ALEX-capable card on top) and skip abilities: they are another lab's subject."""
        state = self.state
        guard = 0
        while self.my_turn and state.phase in ("archive", "abilities", "alan") and guard < 100:
            guard += 1
            legal = state.legal_actions()
            if state.phase == "archive":  # in reveal order, a card that can be ALEX last (on top)
                pick = next((a for a in legal if "ALEX" not in self.game.cards[self.game.index[a.card]].possible_names),
                            legal[0])
            else:
                pick = next((a for a in legal if isinstance(a, (A.EndTurn, A.AlanDone))), legal[0])
            state.apply(pick)
        self._collect_log()

    @guarded
    def _next_turn(self) -> None:
        if self.state.is_terminal():
            self.show_status(self._over_text())
            return
        if self.my_turn and self.state.phase != "face_up":
            self.show_status("It is your turn now: play it first.", kind="bad")
            return
        start = len(self.state.log)
        if self.my_turn:  # the learner has seen the cards of their failed turn: turn them face down
            self.state.apply(A.TurnFaceDown())
            self._collect_log()
        self.last_result = None
        self._run_bots()
        self._refresh()
        self.show_status(self._turn_text(), spoken=self._bots_words(start))

    def _bots_words(self, start: int) -> str:
        """Said after Next turn (issue 20): the bots' turns since ``start`` in one clause each, then the turn's
        text (a bot's failed turn is said by the turn text itself, so its own clause is left out)."""
        from safari_kit.presentation.spoken_turns import turns_summary

        state = self.state
        events = list(state.observation(self.learner).log[start:])
        if state.phase == "face_up" and not self.my_turn:
            events = [e for e in events if e.get("turn") != state.turn]
        return " ".join(x for x in (turns_summary(self.game, events, self.learner), self._turn_text()) if x)

    def _turn_text(self) -> str:
        state = self.state
        if state.is_terminal():
            return self._over_text()
        if state.phase == "face_up" and not self.my_turn:
            why = why_failed(state.observation(self.learner).log, self.game, self.learner)
            return (f"Player {state.current_player} failed." + (f" {why}" if why else "")
                    + " The cards they revealed lie face up for everyone (highlighted). Remember them, "
                    "then press Next turn.")
        return "Your turn: a clue card is revealed. Look at the chances, then Identify or Reveal another."

    def _over_text(self) -> str:
        if not self.state.is_terminal():
            return ""
        scores = self.state.scores()
        return ("Game over. Scores: " + ", ".join(f"{who(p, self.learner)} {s}" for p, s in enumerate(scores))
                + ". Press Reset for a new game.")

    # ------------------------------------------------------------------ drawing
    def _refresh(self) -> None:
        state = self.state
        mine = self.my_turn
        phase = state.phase
        self.identify_button.disabled = not (mine and phase == "choose")
        self.another_button.disabled = not (mine and phase == "choose" and state.is_legal(A.RevealAnother()))
        self.next_button.disabled = (mine and phase != "face_up") or state.is_terminal()
        self.next_button.button_style = "warning" if phase == "face_up" else ""  # the one thing to press now
        identifying = mine and phase == "identify"
        choices = [(types_label(t), t) for t in state.type_choices()] if identifying else []
        if [v for _, v in choices] != [v for _, v in self.type_buttons.options]:
            old = self.type_buttons.value
            self.type_buttons.options = choices
            if choices:
                self.type_buttons.value = old if old in [v for _, v in choices] else choices[0][1]
        self.type_buttons.disabled = not identifying
        self.reveal_button.disabled = not (identifying and self.picked_place is not None)
        self.guess_box.disabled = not identifying
        selectable, highlight = [], []
        if identifying:
            unresolved = [state.card_id(c) for c in state.clue if c not in state.resolved]
            if self.picked_clue not in unresolved:
                self.picked_clue = None
            if len(unresolved) > 1:
                selectable += [{"kind": "clue", "id": c, "label": card_label(self.game, c)} for c in unresolved]
            selectable += [{"kind": "place", "id": p, "label": f"Place {p} (face down)"}
                           for p in state.available_places()]
            if self.picked_place is not None:
                highlight.append({"kind": "place", "id": self.picked_place})
            if self.picked_clue is not None:
                highlight.append({"kind": "clue", "id": self.picked_clue})
        if identifying:
            message = ("Pick a clue type, then click a face-down place." if self.picked_place is None else
                       f"Place {self.picked_place} picked: type your guess, then press Reveal.")
        elif mine and phase == "choose":
            message = "Your turn: press Identify, or Reveal another clue card."
        elif phase == "face_up":
            message = (("Your identification failed" if mine else f"Player {state.current_player} failed")
                       + ": remember the face-up cards, then press Next turn.")
        elif state.is_terminal():
            message = None
        else:
            message = f"Player {state.current_player} plays next: press Next turn."
        words = None
        if mine and phase == "choose":  # this lab has no Challenge button: its header must not offer one
            words = ("Your turn: Identify with this clue card, or reveal another clue card "
                     "(Challenge is the Challenge lab's subject).")
        elif identifying:
            words = ("Your turn: pick a clue type, then click a face-down place"
                     + (" (two clue cards: click the one you identify first)." if len(unresolved) > 1 else "."))
        self.table.show(state, self.learner, selectable=selectable, message=message, highlight=highlight,
                        phase_words=words)
        self._refresh_panel()
        self._refresh_tally()
        self.log_html.value = ("<details><summary>What happened (latest last)</summary><div style='font-size:90%'>"
                               + "<br>".join(html.escape(x) for x in self.lines[-40:]) + "</div></details>")

    def _refresh_panel(self) -> None:
        try:
            side, everything, notes = self._panel_html()
        except Exception as exc:  # noqa: BLE001 - the panel must never break the lab
            self.errors.append(f"{type(exc).__name__}: {exc}")
            log.error("the chances panel failed", exc_info=True)
            side, everything, notes = (f"<div style='color:#a00'>Could not compute the chances "
                                       f"({html.escape(page_words(exc))})</div>"), "", {}
        self.prob.value = side
        self.all_chances.value = everything
        self.table.set_notes(notes)

    def _panel_html(self) -> tuple[str, str, dict]:
        """(the side panel, the table of every chance, the chances drawn under the places)."""
        state = self.state
        parts = ["<div class='safari-prob-panel'>"]
        if self.last_result:
            parts.append(f"<p class='safari-last'><b>Last reveal:</b> {html.escape(self.last_result)}</p>")
        if state.phase == "face_up":
            parts.append("<p><b>Remember the face-up cards</b> (framed in orange on the table), "
                         "then press <b>Next turn</b>.</p></div>")
            return "".join(parts), "", {}
        if not self.my_turn or state.phase not in ("choose", "identify"):
            parts.append("<p>The chances appear on your turn.</p></div>")
            return "".join(parts), "", {}
        kn, kn0 = self._knowledge_now(), self._knowledge_now(NOTHING)
        clue = self._clue_for_panel(kn)
        if clue is None:
            return "".join(parts) + "</div>", "", {}
        clue_id = self.game.cards[clue].id
        unresolved = list(kn.unresolved) if state.phase == "identify" else []
        if len(unresolved) > 1:
            which = "first" if clue == unresolved[0] else "second"
            parts.append(f"<p><b>Identifying now</b> ({which} of your two clue cards; click the other one on the "
                         f"table to switch): {html.escape(card_label(self.game, clue_id))}</p>")
        else:
            parts.append(f"<p><b>Clue card:</b> {html.escape(card_label(self.game, clue_id))}</p>")
        if not self.show_exact.value:
            words = ("The exact chances are hidden until you guess, so the class sees your own guesses. Type your "
                     "guess, press Reveal, then compare in the tally." if self.recorder is not None else
                     "Exact chances hidden: make your guess, reveal, then compare in the tally.")
            parts.append(f"<p class='safari-guess-first'><i>{words}</i></p></div>")
            return "".join(parts), "", {}
        self.chance_shown = True  # what follows shows exact chances: a guess made now was made seeing them
        if self.recorder is not None:
            parts.append("<p class='safari-guess-first'><small>You can see the exact chances, so your next guess "
                         "will not count for the class.</small></p>")
        places = list(kn.available)
        type_choices = state.type_choices()
        picked_types = self.type_buttons.value if state.phase == "identify" else None
        best = PW.best_declaration(kn, clue, places, type_choices) if places else None
        notes = {}
        if picked_types:
            for p in places:
                v = self._p_match(kn, clue, p, picked_types)
                notes[("place", p)] = (count_lines(v), chance_words(picked_types, _count_of(v), v.value))
            parts.append(f"<p>Under each place: the chance it matches your clue by "
                         f"<b>{html.escape(types_label(picked_types))}</b>. It uses what you remember; "
                         f"{len(kn.pool)} cards are still unknown to you.</p>")
            if self.picked_place is not None:
                v = self._p_match(kn, clue, self.picked_place, picked_types)
                v0 = self._p_match(kn0, clue, self.picked_place, picked_types)
                parts.append(f"<p>Place {self.picked_place}: chance <b>{count_html(v)}</b> "
                             f"<small style='color:#555'>(knowing nothing: {count_html(v0)})</small></p>")
        if best:
            parts.append(f"<p>Best choice: <b>{html.escape(types_label(best[1]))} at place {best[0]}</b>, "
                         f"chance {count_html(self._p_match(kn, clue, best[0], best[1]))}.</p>")
        parts.append(self._ev_html(kn, kn0, clue))
        parts.append("</div>")
        head = "".join(f"<th>Place {p}<br><small>{html.escape(self._place_words(kn, p))}</small></th>" for p in places)
        rows = []
        for types in type_choices:
            cells = []
            for p in places:
                v = self._p_match(kn, clue, p, types)
                v0 = self._p_match(kn0, clue, p, types)
                cls = ["safari-prob-cell"]
                if picked_types == types and p == self.picked_place:
                    cls.append("safari-picked")
                if best and best[0] == p and best[1] == types:
                    cls.append("safari-best")
                style = "background:#fff3c4;" if "safari-picked" in cls else ""
                style += "font-weight:bold;" if "safari-best" in cls else ""
                cells.append(f"<td class='{' '.join(cls)}' data-types='{'+'.join(types)}' data-place='{p}' "
                             f"style='{style}padding:2px 6px'>{count_html(v)}"
                             f"<br><small style='color:#5c5c5c'>knowing nothing: {count_html(v0)}</small></td>")
            rows.append(f"<tr><th style='text-align:left'>{html.escape(types_label(types))}</th>{''.join(cells)}</tr>")
        everything = ("<details class='safari-prob-details'><summary><b>Every clue type at every place</b> "
                      "(with what you remember, and knowing nothing)</summary>"
                      f"<p>The chance that the card at each place matches your clue. The first number uses what you "
                      f"remember ({len(kn.pool)} cards unknown to you). The small one is <small>knowing "
                      f"nothing</small> ({len(kn0.pool)} cards).</p>"
                      "<table class='safari-prob-table' style='border-collapse:collapse'>"
                      f"<tr><th></th>{head}</tr>{''.join(rows)}</table></details>")
        return "".join(parts), everything, notes

    def _place_words(self, kn, p) -> str:
        if p in kn.known:
            return "remembered: " + card_label(self.game, self.game.cards[kn.known[p]].id)  # no card ids (#27)
        if p in kn.mixed:
            return "one of a SAM pair"
        return "unknown"

    def _ev_html(self, kn, kn0, clue) -> str:
        state = self.state
        out = ["<div class='safari-ev'>"]
        if state.phase == "choose":
            vals = PW.choice_values(kn, with_reveal_another=state.is_legal(A.RevealAnother()))
            vals0 = PW.choice_values(kn0, with_reveal_another=state.is_legal(A.RevealAnother()))
            out.append("<p><b>Expected cards archived</b>, on average. One clue card: 2 × its chance of a match. "
                       "Two clue cards: 4 × the chance both match.</p><ul>")
            for key, words in (("identify", "Identify now"), ("reveal_another", "Reveal another")):
                if key in vals:
                    out.append(f"<li>{words}: {count_html(vals[key].value)} "
                               f"<small style='color:#5c5c5c'>(knowing nothing: {count_html(vals0[key].value)})"
                               "</small></li>")
            out.append("</ul>")
            if "reveal_another" in vals:
                better = vals["reveal_another"].value > vals["identify"].value
                out.append("<p>Reveal another is worth it when P(both succeed) &gt; p/2. Here p is the chance of a "
                           "match now, and P(both succeed) is the chance both match. P(both) = p₁·p₂, where p₂ is "
                           "the chance of the second match <i>given that the first succeeded</i>. It is not the two "
                           "chances multiplied as if each were alone: both places hide cards from the same deck. "
                           f"With what you remember, <b>{'Reveal another' if better else 'Identify now'}</b> is "
                           "better on average.</p>")
        elif len(kn.unresolved) >= 2:
            plan = PW.best_two_clue_plan(kn, kn.unresolved[0], kn.unresolved[1])
            if plan:
                (p1, t1), (p2, t2), both = plan
                out.append(f"<p>Two clue cards: the best plan is {html.escape(types_label(t1))} at place {p1}, "
                           f"then {html.escape(types_label(t2))} at place {p2}. P(both succeed), the chance both "
                           f"match, is {count_html(both.value)}. So you expect 4 × that = "
                           f"{count_html(4 * both.value)} cards.</p>")
        out.append("</div>")
        return "".join(out)

    def _refresh_tally(self) -> None:
        preds = self.predictions
        if not preds:
            self.tally.value = ("<div class='safari-tally-summary'>No reveal yet. Type a guess before each "
                                "reveal and see how well you predict.</div>")
            return
        rows = []
        for k, r in enumerate(preds, 1):
            guess = "—" if r.guess is None else f"{r.guess:.2f}"
            rows.append(f"<tr><td>{k}</td><td>{r.turn}</td><td>{html.escape(types_label(r.types))}</td>"
                        f"<td>{r.place}</td><td>{guess}</td><td>{count_html(_with_count(r.exact, r.exact_count))}</td>"
                        f"<td>{count_html(_with_count(r.nothing, r.nothing_count))}</td>"
                        f"<td>{'✔ match' if r.success else '✘ no'}</td></tr>")
        self.tally.value = (
            "<table class='safari-tally-table' style='border-collapse:collapse'>"
            "<tr><th>#</th><th>Turn</th><th>Type</th><th>Place</th><th>Your guess</th><th>Exact P</th>"
            "<th>Knowing nothing</th><th>Outcome</th></tr>" + "".join(rows) + "</table>"
            + f"<div class='safari-tally-summary'>{html.escape(self.tally_text())}</div>")

    def tally_summary(self) -> dict:
        """Numbers of the tally: counts, means, Brier scores (guesses: only the reveals with a guess)."""
        preds = self.predictions
        guessed = [r for r in preds if r.guess is not None]
        n = len(preds)
        return {
            "reveals": n,
            "successes": sum(r.success for r in preds),
            "fraction_success": (sum(r.success for r in preds) / n) if n else None,
            "mean_exact": (float(sum(r.exact for r in preds)) / n) if n else None,
            "guesses": len(guessed),
            "mean_guess": (sum(r.guess for r in guessed) / len(guessed)) if guessed else None,
            "success_when_guessed": (sum(r.success for r in guessed) / len(guessed)) if guessed else None,
            "brier_guess": brier((r.guess, r.success) for r in guessed),
            "brier_exact_same": brier((r.exact, r.success) for r in guessed),
            "brier_exact": brier((r.exact, r.success) for r in preds),
        }

    def tally_text(self) -> str:
        s = self.tally_summary()
        text = (f"{s['reveals']} reveal{'s' if s['reveals'] != 1 else ''}: {s['successes']} matched "
                f"({s['fraction_success']:.2f}); the exact chances averaged {s['mean_exact']:.3f}.")
        if s["guesses"]:
            text += (f" Your {s['guesses']} guess{'es' if s['guesses'] != 1 else ''} averaged {s['mean_guess']:.3f};"
                     f" {s['success_when_guessed']:.2f} of those reveals matched."
                     f" Miss score: yours {s['brier_guess']:.3f}, the exact chances' {s['brier_exact_same']:.3f}."
                     " Lower is better. (The miss score, or Brier score, is the average of (guess − outcome)², "
                     "with outcome 1 for a match and 0 for none.)")
        return text


def _with_count(value: Fraction, count):
    """An exact value with its count, for :func:`count_html` (count first in the tally too)."""
    from safari_kit.probability.distributions import Exact

    return Exact(value, count=tuple(count)) if count else value
