"""The Full game lab's flow without widgets: seats, bots, hot-seat passes, the turn's clicks, the words of a screen.

:class:`~safari_kit.widgets.labs.fullgame.FullGameLab` is the layout around this state machine (issue 28: the
lab had tangled the two in 958 lines). Here lives what the lab *does*:

* **seats**: the learners' seats (``humans``) and one bot per other seat, each bot seeing only its own
  observation (:meth:`FullGameFlow.start`);
* **turn flow** (:meth:`FullGameFlow.advance`): the bots play until a learner must act or the game ends. They pause
  after a failed turn (phase ``face_up``, W4/W5) so its face-up cards can be remembered, except at the opening of a
  game (issue 27: a game opens on a learner's own turn). The result is a :class:`Screen`: a learner's ``table``,
  the hot-seat ``pass`` screen, a bot's failure (``bot_failed``) or the game's end (``over``);
* **hot-seat passes**: between two different learners the ``pass`` screen shows no seat (``viewer`` None) until
  the next learner presses "I am player N" (:meth:`FullGameFlow.confirm`); a press counts only for a learner's
  seat while the pass screen waits for it; every press is kept in ``passes`` for the whole table;
* **clicks** (:meth:`FullGameFlow.click`): a click on a table target picks a clue, a clue type, an ability's
  spots, or makes a whole action; :meth:`FullGameFlow.act` applies a learner's action through the engine, which
  refuses anything illegal and then changes nothing;
* the table's words: targets, hints, "Since your last turn" and the TOM looks, each from the viewer's
  observation only (:mod:`safari_kit.presentation.fullgame_text`).

Nothing here imports a widget package (``tests/presentation/test_fullgame_flow.py`` runs it without ipywidgets).
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from safari_kit.core.chance import Chance
from safari_kit.core.i18n import N_, _
from safari_kit.presentation.narration import card_label, types_label, why_failed
from safari_kit.presentation.spoken import challenge_sentence, identify_sentence
from safari_kit.presentation.views import WITNESS_PHASE_WORDS, action_of, learner_sentence, selectable_from_legal
from safari_kit.simulation.registry import BotSpecError, learner_name, make_bot, parse_bots
from safari_kit.witness import actions as A

__all__ = ["BOT_CHOICES", "PLAYERS", "Act", "Click", "FullGameFlow", "Screen", "bot_words", "parse_humans"]
log = logging.getLogger("safari_kit.widgets")

_SPOT_KINDS = ("place", "archive")
_MAX_BOT_ACTIONS = 5000  # a safety net: a bot loop never runs away
PLAYERS = (2, 7)  # seats at the table: the slider's range, kept on the server

#: the bots a teacher can pick for the other seats (spec, words): the words are the learner's names of the
#: registry (issue 27: no code names such as ``memory:0.5`` on a learner's screen)
BOT_CHOICES = (
    ("greedy", learner_name("witness", "greedy")),
    ("memory:0.5", learner_name("witness", "memory:0.5")),
    ("lastk:3", learner_name("witness", "lastk:3")),
    ("random", learner_name("witness", "random")),
    ("greedy,random", N_("Seat by seat, a best-chance bot then a random bot")),
)
#: the registry's learner names of the Witness bots (safari_kit.simulation writes no words for learners): the
#: catalogue's copy, said with bot_words(spec); tests/i18n checks the two agree
BOT_NAMES = (N_("Bot that makes the move with the best chance"), N_("Bot that remembers half of the cards it sees"),
             N_("Bot that remembers only the last 3 cards it saw"), N_("Bot that plays at random"))


def bot_words(spec: str) -> str:
    """A bot seat's name for the page (the registry's learner name; a spec it does not know stays as it is)."""
    try:
        return _(learner_name("witness", spec))
    except BotSpecError:
        return spec


def parse_humans(text, players: int) -> tuple[int, ...]:
    """The learners' seats from ``(0, 2)`` or ``"0, 2"``; a seat outside the table is refused, naming the range."""
    if isinstance(text, (list, tuple)):
        seats = [int(x) for x in text]
    else:
        seats = [int(x) for x in str(text).replace(" ", "").split(",") if x != ""]
    bad = [s for s in seats if not 0 <= s < players]
    if bad:
        raise ValueError(f"learner seats must be between 0 and {players - 1}, got {bad}")
    return tuple(sorted(set(seats)))


@dataclass(frozen=True)
class Screen:
    """What the lab shows after the bots played: ``kind`` is "table" (``seat``'s table, with ``message`` or the
    step's hint), "pass" (the hot-seat screen waiting for ``seat``), "bot_failed" or "over"."""

    kind: str
    seat: int | None = None
    message: str | None = None


@dataclass(frozen=True)
class Click:
    """What a click on the table means: "ignore", "go_on", "act" (``action``) or "render" (``message``)."""

    kind: str
    action: object = None
    message: str | None = None


@dataclass(frozen=True)
class Act:
    """A learner's action: ``refused`` (the rules' reason, the game unchanged), else who played it, the events it
    made, and ``tom`` (W10: the look to show before play goes on) or None."""

    refused: str | None = None
    player: int | None = None
    events: tuple = ()
    tom: str | None = None


class FullGameFlow:
    """One Full game: its state, the learners' seats, the bots, who is at the screen, the picks of a turn."""

    def __init__(self) -> None:
        self.game = None
        self.state = None
        self.humans: tuple[int, ...] = ()
        self.bot_specs: dict[int, str] = {}
        self.bots: dict[int, object] = {}
        self.bot_log: list[str] = []
        self.viewer: int | None = None  # the seat whose view is on screen (None: the pass screen, nobody's)
        self.passes: list[dict] = []  # every "I am player N" press, for the whole table to see
        self.games = 0
        self.touched = False  # a learner has moved (or a device pass happened) in this game
        self.seen: dict[int, int] = {}  # human seat -> log length when it last finished acting
        self.pause: str | None = None  # "bot_failed" or "tom": the table waits for "go on"
        self.waiting_for: int | None = None  # the learner seat the pass screen waits for, while it shows
        self.clear_pick()

    def clear_pick(self) -> None:
        self.pick: dict = {"clue": None, "types": None}
        self.ability: str | None = None
        self.spots: list = []

    def start(self, game, state, humans, bots_text: str) -> None:
        """A new game (or a loaded one): the bots take their seats, nobody is at the screen yet."""
        self.game, self.state, self.humans = game, state, tuple(humans)
        bot_seats = [s for s in range(game.players) if s not in self.humans]
        specs = parse_bots(bots_text) if bot_seats else []
        self.bot_specs = {s: specs[k % len(specs)] for k, s in enumerate(bot_seats)}
        chance = Chance(state.seed)
        self.bots = {}
        for s, spec in self.bot_specs.items():
            bot = make_bot("witness", spec)
            bot.start(game, s, chance.generator("bot", s))
            self.bots[s] = bot
        self.bot_log = []
        self.seen = {h: 0 for h in self.humans}
        self.games += 1
        self.touched = False
        self.clear_pick()
        self.viewer = None
        self.waiting_for = None

    @property
    def in_progress(self) -> bool:
        """A game is in progress from the learners' first move (or device pass) until it ends."""
        return self.state is not None and not self.state.is_terminal() and self.touched

    # ------------------------------------------------------------------ the turn flow
    def advance(self, opening: bool = False) -> Screen:
        """Let bots play until a learner must act or the game ends; say which screen comes next."""
        steps = 0
        self.pause = None
        state = self.state
        while not state.is_terminal() and state.current_player not in self.humans:
            seat = state.current_player
            if state.phase == "face_up" and self.humans and not opening:
                self.pause = "bot_failed"
                return Screen("bot_failed", seat)
            bot = self.bots[seat]
            obs = state.observation(seat) if bot.needs_observation else None
            action = bot.choose(obs, state.legal_sequence())
            state.apply(action)
            self.bot_log.append(f"Player {seat} ({self.bot_specs[seat]}): {action}")
            steps += 1
            if steps > _MAX_BOT_ACTIONS:
                raise RuntimeError("the bots took too many actions in a row")
        if state.is_terminal():
            return Screen("over")
        seat = state.current_player
        if self.viewer != seat and len(self.humans) > 1:
            self.viewer = None
            self.waiting_for = seat
            return Screen("pass", seat)
        self.viewer = seat
        return Screen("table", seat, self.opening_words(seat) if opening else None)

    def opening_words(self, seat: int) -> str | None:
        """The table's line on a game's first screen, when other players went first: whose turn, and why."""
        if not any(e.get("player") not in (None, seat) for e in self.state.observation(seat).log):
            return None
        return _("Your turn. The other players went first: what they did is listed below the table.")

    def bot_failure(self) -> tuple[str, list | None]:
        """A bot's failed turn: the words, and (with several learners and nobody at the screen) the public
        face-up cards (place, card) to show instead of a table; None when a learner's table shows them."""
        state = self.state
        seat = state.current_player
        # the failed declaration or reveal in words, from a public part of the log (both cards lie face up)
        looker = self.viewer if self.viewer is not None else (self.humans[0] if self.humans else seat)
        why = why_failed(state.observation(looker).log, self.game, looker)
        text = (_("Player {player} failed.").format(player=seat) + (f" {why}" if why else "") + " "
                + _("The cards they revealed lie face up for everyone. Remember them, then press Next turn."))
        if self.viewer is None and len(self.humans) == 1:
            self.viewer = self.humans[0]
        if self.viewer is None:
            return text, [(p, cid) for p, cid in state.observation(seat).unidentified if cid is not None]
        return text, None

    def go_on(self) -> tuple[str, str] | None:
        """After a pause (a bot's failure, a TOM look): turn the bot's cards down if needed; the words said
        (lead, kind) when they were, else None. The caller then calls :meth:`advance`."""
        pause, self.pause = self.pause, None
        if pause == "bot_failed" and self.state.phase == "face_up" and self.state.current_player not in self.humans:
            self.state.apply(A.TurnFaceDown())
            return _("The face-up cards turn face down."), "end"
        return None

    def confirm(self, seat: int | None = None) -> str:
        """"I am player N": "refused" (not this seat's turn), "ignored" (no pass screen waits for a learner's
        seat, or the game is over: nothing changes), "repeat" (the table was already open: written down only)
        or "open" (the seat's table may now be built)."""
        if self.state is None or self.state.is_terminal():
            return "ignored"
        current = self.state.current_player
        if seat is not None and seat != current:
            return "refused"
        repeat = self.viewer == current
        # only a learner's seat, and only while the pass screen waits for it (or its table is already open: a
        # repeat press, written down): a click sent to the hidden button at any other moment (a bot's failed
        # turn, the game's end) would open a seat nobody may see, a bot's Case Card included
        if current not in self.humans or not (repeat or self.waiting_for == current):
            log.warning("a press of 'I am player N' while no pass screen waits for seat %s was ignored", current)
            return "ignored"
        self.waiting_for = None
        self.passes.append({"game": self.games, "turn": self.state.turn, "seat": current, "repeat": repeat,
                            "time": time.strftime("%H:%M:%S")})
        self.touched = True
        if repeat:
            return "repeat"
        self.viewer = current
        return "open"

    # ------------------------------------------------------------------ clicks
    def targets(self) -> tuple[list[dict], list[dict]]:
        """The viewer's selectable targets of the current step, and what is highlighted (picked so far)."""
        state = self.state
        highlight: list[dict] = []
        if self.pause is not None:
            return [{"kind": "button", "id": "go_on", "label": _("Next turn")
                     if self.pause == "bot_failed" else _("Got it: go on")}], highlight
        if state.current_player != self.viewer:
            return [], highlight
        if self.ability is not None:
            targets = selectable_from_legal(state, ability=self.ability)
            targets.append({"kind": "button", "id": "cancel", "label": _("Cancel {ability}").format(
                ability=self.ability)})
            return targets, [{"kind": k, "id": i} for k, i in self.spots]
        targets = selectable_from_legal(state)
        if state.phase == "identify":
            targets = self._identify_targets(targets)
            if self.pick.get("clue") is not None:
                highlight.append({"kind": "clue", "id": self.pick["clue"]})
            if self.pick.get("types") is not None:
                highlight.append({"kind": "button", "id": "type:" + "+".join(self.pick["types"])})
        return targets, highlight

    def _identify_targets(self, targets: list[dict]) -> list[dict]:
        clues = [t for t in targets if t["kind"] == "clue"]
        if len(clues) == 1:
            self.pick["clue"] = clues[0]["id"]
        elif self.pick.get("clue") not in {t["id"] for t in clues}:
            self.pick["clue"] = None
        types = [t["id"][5:] for t in targets if t["kind"] == "button" and t["id"].startswith("type:")]
        if len(types) == 1:
            self.pick["types"] = tuple(types[0].split("+"))
        return targets

    def click(self, target: dict, kris_element: str | None = None) -> Click:
        """What a click on ``target`` of the viewer's table does; only :meth:`act` changes the game."""
        kind, id_ = target["kind"], target["id"]
        if self.pause is not None:
            return Click("go_on" if kind == "button" and id_ == "go_on" else "ignore")
        if self.state.is_terminal() or self.state.current_player != self.viewer:
            return Click("ignore")
        if self.ability is not None:
            return self._ability_click(target, kris_element)
        action = action_of(target)  # a target that is one whole action carries it (action.to_dict())
        if action is not None:
            return Click("act", action)
        if kind == "button":
            if id_.startswith("type:"):
                self.pick["types"] = tuple(id_[5:].split("+"))
                hint = self.hint()
                return Click("render", message=(_("Clue type {types} picked.").format(
                    types=types_label(self.pick['types'])) + f" {hint or ''}").strip())
            if id_.startswith("use:"):  # an ability with targets: pick them next
                self.ability, self.spots = id_[4:], []
                return Click("render")
            return Click("ignore")
        if self.state.phase == "identify":
            if kind == "clue":
                self.pick["clue"] = id_
                return Click("render")
            if kind == "place":
                if self.pick.get("clue") is None:
                    return Click("render", message=_("Pick a clue card first."))
                if self.pick.get("types") is None:
                    return Click("render", message=_("Pick a clue type first (the Clue type buttons on the table)."))
                return Click("act", A.Declare(self.pick["clue"], tuple(self.pick["types"]), int(id_)))
        return Click("ignore")

    def _ability_click(self, target: dict, kris_element: str | None) -> Click:
        kind, id_ = target["kind"], target["id"]
        name = self.ability
        if kind == "button" and id_ == "cancel":
            self.ability, self.spots = None, []
            return Click("render", message=_("Cancelled: pick another ability or End turn."))
        action = action_of(target)
        if action is not None:  # TOM's place, KIM's card: one click is the whole action
            return Click("act", action)
        if name == "KRIS" and kind == "place":
            return Click("act", A.UseKris(kris_element, int(id_)))
        if name in ("SAM", "TAM") and kind in _SPOT_KINDS:
            if (kind, id_) in self.spots:
                self.spots.remove((kind, id_))  # a second click on a picked spot un-picks it
                return Click("render")
            self.spots.append((kind, id_))
            if len(self.spots) < 2:
                return Click("render")
            (_kind_a, a), (_kind_b, b) = self.spots
            if name == "SAM":
                options = [A.UseSam(int(a), int(b)), A.UseSam(int(b), int(a))]
            else:
                sa = f"U{a}" if self.spots[0][0] == "place" else a
                sb = f"U{b}" if self.spots[1][0] == "place" else b
                options = [A.UseTam(sa, sb), A.UseTam(sb, sa)]
            legal = [o for o in options if self.state.is_legal(o)]
            return Click("act", legal[0] if legal else options[0])
        return Click("ignore")

    def act(self, action) -> Act:
        """Apply a learner's action, or say why it is not legal (the game is left exactly as it was)."""
        state = self.state
        if not state.is_legal(action):
            if self.ability in ("SAM", "TAM"):
                self.spots = []
            return Act(refused=learner_sentence(state.why_illegal(action)))
        player = state.current_player
        n_log = len(state.log)
        state.apply(action)
        events = tuple(state.log[n_log:])
        self.touched = True
        self.clear_pick()
        if state.is_terminal() or state.current_player != player:
            k = len(state.log)  # events after the turn ended (next turn's face-down, clue) are news for later
            while k > 0 and state.log[k - 1][0].get("player") != player:
                k -= 1
            self.seen[player] = k
            if type(action) is A.UseTom and not state.is_terminal():
                # W10 TOM: the looker sees the card at once, before the turn passes on
                self.pause = "tom"
                return Act(player=player, events=events,
                           tom=_("TOM: only you see this. {words} Press 'Got it: go on'.").format(
                               words=self.tom_words(action.place)))
        return Act(player=player, events=events)

    # ------------------------------------------------------------------ words
    def face(self, card_id: str) -> str:
        return card_label(self.game, card_id)

    def reveal_words(self, events, player: int) -> str | None:
        """The sentence said after a declaration or a Challenge reveal of ``player`` (its card is face up now)."""
        for event, *_rest in reversed(list(events)):
            if event.get("player") != player:
                continue
            if event.get("kind") == "identify":
                return identify_sentence(self.game, event, self.state, player)
            if event.get("kind") == "challenge_reveal":
                return challenge_sentence(self.game, event, self.state, player, safe_so_far=self.state.safe
                                          if self.state.phase == "challenge" else None)
        return None

    def tom_words(self, place: int) -> str:
        looks = [e for e in self.state.observation(self.viewer).log
                 if e.get("kind") == "tom" and "card" in e and e.get("place") == place]
        return _("Place {place} holds {card}.").format(place=place, card=self.face(looks[-1]['card'])) if looks else ""

    def hint(self) -> str | None:
        """The table's line for the viewer's current step."""
        state = self.state
        if state.current_player != self.viewer:
            return _("Player {player} is playing.").format(player=state.current_player)
        if self.ability == "KRIS":
            return _("KRIS: pick an element in the dropdown below the table, then a face-down place.")
        if self.ability in ("SAM", "TAM"):
            left = 2 - len(self.spots)
            return (_("SAM: pick {n} more of the face-down places.") if self.ability == "SAM" else
                    _("TAM: pick {n} more of the spots (places or archive cards).")).format(n=left)
        if self.ability == "TOM":
            return _("TOM: pick a face-down place to look at (only you will see it).")
        if self.ability == "KIM":
            return _("KIM: pick an archived card to send back face down.")
        if state.phase == "face_up":
            why = why_failed(state.observation(self.viewer).log, self.game, self.viewer)
            return (_("Your turn failed.") + (f" {why}" if why else "") + " "
                    + _("Everyone sees the face-up cards now. Remember them, then press Next turn."))
        if state.phase == "identify":
            if self.pick.get("clue") is None:
                return _("Pick a clue card first, then a clue type and a face-down place.")
            if self.pick.get("types") is None:
                return _("Now pick a clue type, then a face-down place.")
            return _("Now pick the face-down place to reveal.")
        return None

    def phase_line(self) -> str:
        state = self.state
        if state.current_player != self.viewer:
            return ""
        words = WITNESS_PHASE_WORDS.get(state.phase, (state.phase,))[0]
        return _("Your turn.") + " " + words[:1].upper() + words[1:] + "."
