"""The Identification lab's flow without widgets: the bots' turns, Identify or Reveal another, the learner's reveal
with a guess, the tally of guesses against outcomes, and every word the lab writes about them.

:class:`~safari_kit.widgets.labs.identification.IdentificationLab` is the layout around this state machine (issue
28: the lab had tangled the two in 725 lines). Here lives what the lab *does*: it deals (seeded), lets the bots play
to the learner's turn (pausing on a bot's failed turn so its face-up cards can be remembered, except on the opening
deal: a lab opens on the learner's own turn), plays the learner's choice and declaration through the engine (which
refuses anything illegal and then changes nothing), finishes the learner's turn (archive, no abilities: another
lab's subject), keeps each reveal as a :class:`Prediction`, and writes the log; the chances panel and the tally are
its mixin's, :mod:`safari_kit.presentation.identification_panels`. Each action returns a :class:`Said` (the
status line, its kind, the words for a screen reader); the lab shows it.

Hidden information: every chance is computed from :meth:`IdentificationFlow.knowledge`, the learner's own
observation (``state.observation(learner)``), never from the full state; the class record of a guess names only
the face-up clue card (:meth:`IdentificationFlow.declared_words`).

The class experiment (issues 21, 26): :meth:`IdentificationFlow.reveal` returns the guess's fields for the
recorder (or None: no guess, a refused reveal, or the same reveal of the same deal guessed before);
:attr:`IdentificationFlow.chance_shown` says whether an exact chance was drawn since the last reveal.

Nothing here imports a widget package (``tests/presentation/test_identification_flow.py``).
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from safari_kit.core.i18n import _, and_join, language
from safari_kit.presentation.identification_panels import NOTHING, IdentificationPanels, brier
from safari_kit.presentation.narration import (card_label, card_words, describe_event, no_match_words, shared_words,
                                               types_label, who, why_failed)
from safari_kit.presentation.numbers import as_number, count_first, decimal, percent
from safari_kit.presentation.spoken import identify_sentence
from safari_kit.presentation.spoken_turns import turns_summary
from safari_kit.presentation.views import learner_sentence
from safari_kit.probability import witness as PW
from safari_kit.probability.knowledge import PERFECT, Knowledge, Memory
from safari_kit.simulation.seats import BotSeats
from safari_kit.witness import WitnessGame
from safari_kit.witness import actions as A

__all__ = ["IdentificationFlow", "Prediction", "Said", "Controls", "Revealed", "brier", "NOTHING"]


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


class Said(NamedTuple):
    """What an action says: the status line, its kind (info, good, bad) and, when they differ, the spoken words."""

    text: str
    kind: str = "info"
    spoken: str | None = None


class Revealed(NamedTuple):
    """A reveal that happened: what to say, and the guess's fields for the class record (None: nothing to record)."""

    said: Said
    record: dict | None


@dataclass
class Controls:
    """What the lab's buttons and table show now (the lab copies it onto its widgets)."""

    identify: bool  # enabled
    another: bool
    next: bool
    next_style: str
    identifying: bool
    type_choices: list  # [(label, types)]
    reveal: bool
    table: dict = field(default_factory=dict)  # CardTable.show's keyword arguments but state and learner


class IdentificationFlow(IdentificationPanels):
    """One learner's seat at a Safari Witness table of bots: turns, reveals, guesses and their words."""

    def __init__(self, players: int = 3, advanced: bool = False, memory: Memory | None = None, *,
                 bot: str = "greedy", learner: int = 0, deck_order=None):
        self.game = WitnessGame(players=players, advanced=advanced)
        if not 0 <= learner < players:
            raise ValueError(f"learner must be a seat from 0 to {players - 1}, got {learner!r}")
        self.learner = learner
        self.memory = memory or PERFECT
        self.bot_spec = bot
        self.deck_order = deck_order
        #: whether an exact chance was on the screen since the last reveal (issue 26: Guess.chance_seen)
        self.chance_shown = False
        #: reveals of a deal already recorded for the class: (seed, turn, clue, place, types)
        self._recorded_reveals: set[tuple] = set()

    # ------------------------------------------------------------------ set-up
    def reset(self, seed: int) -> None:
        """Deal from ``seed``; the bots play to the learner's first turn (:meth:`opening_text` says so)."""
        self.seed = seed
        self.state = self.game.new_initial_state(seed=seed, deck_order=self.deck_order)
        self.seats = BotSeats(self.game, self.learner, self.bot_spec, seed)
        self.predictions: list[Prediction] = []
        self._pm: dict = {}
        self.lines: list[str] = []
        self.picked_place: int | None = None
        self.picked_clue: str | None = None
        self.last_result: str | None = None
        self._seen = 0
        self.chance_shown = False
        self.run_bots(opening=True)

    def opening_text(self) -> str:
        """The status line of a new deal (after :meth:`reset` and the lab's first drawing)."""
        text = self.turn_text()
        if self.my_turn and any(e.get("player") not in (None, self.learner)
                                for e in self.state.observation(self.learner).log):
            text = _("The other players went first: what they did is under “What happened”.") + " " + text
        return text

    # ------------------------------------------------------------------ knowledge
    @property
    def my_turn(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player == self.learner

    @property
    def identifying(self) -> bool:
        return self.my_turn and self.state.phase == "identify"

    def knowledge(self, memory: Memory | None = None) -> Knowledge:
        """The learner's knowledge now (``memory`` default: the lab's memory)."""
        return Knowledge.from_observation(self.state.observation(self.learner), memory or self.memory,
                                          game=self.game)

    def _now(self) -> tuple:
        """A key of the position: a click on a place or a clue type changes nothing the learner knows."""
        return (id(self.state), len(self.state.history))

    def knowledge_now(self, memory: Memory | None = None) -> Knowledge:
        """:meth:`knowledge`, computed once per position (every click of a turn reuses it)."""
        memory = memory or self.memory
        now = self._now()
        if getattr(self, "_kn_now", None) != now:
            self._kn_now, self._kn_cache, self._pm = now, {}, {}
        kn = self._kn_cache.get(memory)
        if kn is None:
            kn = self._kn_cache[memory] = self.knowledge(memory)
        return kn

    def p_match(self, kn, clue, place: int, types):
        """PW.p_match, remembered for this position (the panel asks for every type at every place)."""
        key = (id(kn), clue, place, tuple(types) if not isinstance(types, str) else (types,))
        hit = self._pm.get(key)
        if hit is None:
            hit = self._pm[key] = PW.p_match(kn, clue, place, types)
        return hit

    def clue_for_panel(self, kn) -> int | None:
        if self.state.phase == "identify":
            if self.picked_clue is not None:
                return self.game.index[self.picked_clue]
            return kn.unresolved[0] if kn.unresolved else None
        return kn.clue[0] if kn.clue else None

    # ------------------------------------------------------------------ actions
    def run_bots(self, opening: bool = False) -> None:
        """The bots play to the learner's turn, pausing on a failed turn (its cards lie face up) except at the
        ``opening`` of a game: a lab opens on the learner's own turn (issue 27)."""
        self.seats.play_until_learner(self.state, show_failures=not opening)
        self.collect_log()

    def collect_log(self) -> None:
        obs = self.state.observation(self.learner)
        for event in obs.log[self._seen:]:
            line = describe_event(event, self.game, self.learner)
            if line:
                self.lines.append(_("Turn {turn}: {line}").format(turn=event['turn'], line=line))
        self._seen = len(obs.log)

    def why_not_choose(self, action) -> str | None:
        """Why Identify / Reveal another cannot be played now (None: it can)."""
        if not self.my_turn or self.state.phase != "choose":
            return _("That choice is made at the start of your turn.")
        if not self.state.is_legal(action):
            return learner_sentence(self.state.why_illegal(action))
        return None

    def choose(self, action) -> Said:
        """Play Identify or Reveal another (the lab asked :meth:`why_not_choose` first)."""
        self.state.apply(action)
        self.collect_log()
        self.picked_place, self.picked_clue = None, None
        return Said(_("Identify with one clue card: pick a clue type, then click a face-down place.")
                    if isinstance(action, A.Identify) else
                    _("Identify with two clue cards: pick a clue type, then click a face-down place."))

    def pick(self, target: dict) -> Said | None:
        """A click on the table: a place, or (with two clue cards) the clue card to identify first."""
        if target["kind"] == "place":
            self.picked_place = int(target["id"])
            return Said(_("Place {place} picked. Type your guess (optional), then press Reveal.").format(
                place=self.picked_place))
        if target["kind"] == "clue":
            self.picked_clue = str(target["id"])
            return Said(_("Clue card picked: {card}.").format(card=card_label(self.game, self.picked_clue)))
        return None

    def pick_marks(self) -> tuple[list, str]:
        """The table's marks and message after a pick: (highlight, message)."""
        highlight = []
        if self.picked_place is not None:
            highlight.append({"kind": "place", "id": self.picked_place})
        if self.picked_clue is not None:
            highlight.append({"kind": "clue", "id": self.picked_clue})
        return highlight, self._pick_message()

    def _pick_message(self) -> str:
        return (_("Pick a clue type, then click a face-down place.") if self.picked_place is None else
                _("Place {place} picked: type your guess, then press Reveal.").format(place=self.picked_place))

    @staticmethod
    def parse_guess(text: str):
        """(the typed guess as read: a Fraction for "14/74", a float for "0.2" or "20%"; None for no guess,
        the problem in words or None). The tally keeps it as a float; the class record keeps it as typed."""
        text = text.strip()
        if not text:
            return None, None
        value = as_number(text)
        if value is None or not 0 <= float(value) <= 1:
            return None, _("I could not read {text} as a probability between 0 and 1 (try {decimal}, 13/70 or "
                           "{percent}).").format(text=repr(text), decimal=decimal(0.25, 2), percent=percent(0.25, 0))
        return value, None

    def reveal(self, types, guess_text: str, joined: bool = False) -> Revealed | Said:
        """Declare ``types`` at the picked place with the typed guess. A refusal is a :class:`Said` (nothing
        changes); a reveal is a :class:`Revealed`. ``joined``: the learner joined the class experiment."""
        state = self.state
        if not self.my_turn or state.phase != "identify":
            return Said(_("Reveal is for an identification on your turn: press Identify first."), "bad")
        if not types:
            return Said(_("Pick a clue type first."), "bad")
        if self.picked_place is None:
            return Said(_("Click a face-down place on the table first."), "bad")
        guess, problem = self.parse_guess(guess_text)
        if problem:
            return Said(problem, "bad")
        kn, kn0 = self.knowledge(), self.knowledge(NOTHING)
        clue = self.game.cards[self.clue_for_panel(kn)].id
        action = A.Declare(clue, tuple(types), self.picked_place)
        if not state.is_legal(action):
            return Said(learner_sentence(state.why_illegal(action)), "bad")
        exact_shown = PW.p_match(kn, clue, self.picked_place, types)
        exact = exact_shown.value
        nothing_shown = PW.p_match(kn0, clue, self.picked_place, types)
        turn = state.turn
        n_log = len(state.log)
        state.apply(action)
        event = next(e for e, _, _ in state.log[n_log:] if e["kind"] == "identify")
        self.predictions.append(Prediction(turn, clue, tuple(types), self.picked_place,
                                           None if guess is None else float(guess), exact, nothing_shown.value,
                                           bool(event["success"]), event["card"], exact_shown.count,
                                           nothing_shown.count))
        again, record = False, None
        if guess is not None:
            key = (self.seed, turn, clue, self.picked_place, tuple(types))
            again = key in self._recorded_reveals
            if not again and joined:
                self._recorded_reveals.add(key)
                with language("en"):  # the class's records are the teacher's data: one language for all
                    context = self.declared_words(clue, types, event["place"])
                record = dict(guess=guess, exact=exact, outcome=1 if event["success"] else 0, context=context,
                              chance_seen=self.chance_shown)
        self.chance_shown = False  # the next guess starts with nothing shown (the result below is after it)
        self.picked_place, self.picked_clue = None, None
        self.collect_log()
        self.finish_own_turn()
        if event["success"]:
            shared = shared_words(self.game, clue, event["card"], types)
            card = card_words(self.game.cards[self.game.index[event['card']]])
            text = (_("Match! Place {place} held {card}: it shares {shared} with the clue.").format(
                        place=event['place'], card=card, shared=and_join(shared)) if shared else
                    _("Match! Place {place} held {card}.").format(place=event['place'], card=card))
        else:
            text = _("No match: place {place} held {card}.").format(
                place=event['place'], card=no_match_words(self.game, clue, event['card'], types))
        text += " " + _("The exact chance was {chance}.").format(chance=count_first(exact_shown))
        if again and joined:
            text += " " + _("You guessed this same reveal before, so the class results keep your first guess only.")
        self.last_result = text
        if self.my_turn and self.state.phase == "identify":
            text += " " + _("Now identify your other clue card.")
        elif self.state.phase == "face_up":
            text += " " + _("Every card you revealed now lies face up for everyone (highlighted). Remember them, "
                            "then press Next turn to turn them face down.")
        elif not self.state.is_terminal():
            text += " " + _("Press Next turn.")
        spoken = identify_sentence(self.game, event, self.state, self.learner)
        if not event["success"] or not self.my_turn:
            spoken += " " + (_("Press Next turn.") if not self.state.is_terminal() else _("The game is over."))
        return Revealed(Said(text, "good" if event["success"] else "bad", spoken), record)

    def declared_words(self, clue: str, types, place: int) -> str:
        """What was declared, for the class record: "Color: Pink at place 3" (the clue card is face up)."""
        card = self.game.cards[self.game.index[clue]]
        values = ", ".join(str(getattr(card, t)) for t in types)
        return f"{types_label(types)}: {values} at place {place}"

    def finish_own_turn(self) -> None:
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
        self.collect_log()

    def why_not_next(self) -> Said | None:
        """What Next turn says when it plays nothing: the game is over, or it is the learner's turn to play."""
        if self.state.is_terminal():
            return Said(self.over_text())
        if self.my_turn and self.state.phase != "face_up":
            return Said(_("It is your turn now: play it first."), "bad")
        return None

    def next_turn(self) -> Said:
        """Next turn (the lab asked :meth:`why_not_next` first): the learner's failed cards go face down, the bots
        play until the learner's turn."""
        start = len(self.state.log)
        if self.my_turn:  # the learner has seen the cards of their failed turn: turn them face down
            self.state.apply(A.TurnFaceDown())
            self.collect_log()
        self.last_result = None
        self.run_bots()
        return Said(self.turn_text(), "info", self.bots_words(start))

    def bots_words(self, start: int) -> str:
        """Said after Next turn (issue 20): the bots' turns since ``start`` in one clause each, then the turn's
        text (a bot's failed turn is said by the turn text itself, so its own clause is left out)."""
        state = self.state
        events = list(state.observation(self.learner).log[start:])
        if state.phase == "face_up" and not self.my_turn:
            events = [e for e in events if e.get("turn") != state.turn]
        return " ".join(x for x in (turns_summary(self.game, events, self.learner), self.turn_text()) if x)

    def turn_text(self) -> str:
        state = self.state
        if state.is_terminal():
            return self.over_text()
        if state.phase == "face_up" and not self.my_turn:
            why = why_failed(state.observation(self.learner).log, self.game, self.learner)
            return (_("Player {player} failed.").format(player=state.current_player) + (f" {why}" if why else "")
                    + " " + _("The cards they revealed lie face up for everyone (highlighted). Remember them, "
                              "then press Next turn."))
        return _("Your turn: a clue card is revealed. Look at the chances, then Identify or Reveal another.")

    def over_text(self) -> str:
        if not self.state.is_terminal():
            return ""
        scores = self.state.scores()
        return _("Game over. Scores: {scores}. Press Reset for a new game.").format(
            scores=", ".join(f"{who(p, self.learner)} {s}" for p, s in enumerate(scores)))

    # ------------------------------------------------------------------ what the page shows
    def controls(self) -> Controls:
        """The buttons' states and the table's marks now (forgets a picked clue card that is resolved)."""
        state = self.state
        mine = self.my_turn
        phase = state.phase
        identifying = mine and phase == "identify"
        selectable: list[dict[str, Any]] = []
        highlight: list[dict[str, Any]] = []
        if identifying:
            unresolved = [state.card_id(c) for c in state.clue if c not in state.resolved]
            if self.picked_clue not in unresolved:
                self.picked_clue = None
            if len(unresolved) > 1:
                selectable += [{"kind": "clue", "id": c, "label": card_label(self.game, c)} for c in unresolved]
            selectable += [{"kind": "place", "id": p, "label": _("Place {place} (face down)").format(place=p)}
                           for p in state.available_places()]
            highlight = self.pick_marks()[0]
            message: str | None = self._pick_message()
        elif mine and phase == "choose":
            message = _("Your turn: press Identify, or Reveal another clue card.")
        elif phase == "face_up":
            message = (_("Your identification failed: remember the face-up cards, then press Next turn.") if mine
                       else _("Player {player} failed: remember the face-up cards, then press Next turn.").format(
                           player=state.current_player))
        elif state.is_terminal():
            message = None
        else:
            message = _("Player {player} plays next: press Next turn.").format(player=state.current_player)
        words = None
        if mine and phase == "choose":  # this lab has no Challenge button: its header must not offer one
            words = _("Your turn: Identify with this clue card, or reveal another clue card "
                      "(Challenge is the Challenge lab's subject).")
        elif identifying:
            words = (_("Your turn: pick a clue type, then click a face-down place (two clue cards: click the one "
                       "you identify first).")
                     if len([c for c in state.clue if c not in state.resolved]) > 1 else
                     _("Your turn: pick a clue type, then click a face-down place."))
        return Controls(
            identify=mine and phase == "choose",
            another=mine and phase == "choose" and state.is_legal(A.RevealAnother()),
            next=not ((mine and phase != "face_up") or state.is_terminal()),
            next_style="warning" if phase == "face_up" else "",  # the one thing to press now
            identifying=identifying,
            type_choices=[(types_label(t), t) for t in state.type_choices()] if identifying else [],
            reveal=identifying and self.picked_place is not None,
            table=dict(selectable=selectable, highlight=highlight, message=message, phase_words=words))

    def log_html(self) -> str:
        return ("<details><summary>" + html.escape(_("What happened (latest last)")) + "</summary>"
                "<div style='font-size:90%'>"
                + "<br>".join(html.escape(x) for x in self.lines[-40:]) + "</div></details>")
