"""Full game lab: a whole Safari Witness game, against bots or hot-seat for several learners.

Every legal action is reachable by clicking the card table:

* **choose**: Identify / Reveal another / Challenge buttons;
* **identify**: a clue card (picked for you when only one is left), a clue-type
  button, then a face-down place: the lab assembles the ``Declare``;
* **challenge**: places to reveal, Stop and archive;
* **archive**: the card that goes on top;
* **abilities** (Advanced Mode): ``use:<NAME>`` buttons, then the targets of
  that ability (:func:`~safari_kit.presentation.views.selectable_from_legal` with
  ``ability=NAME``): TOM one place, SAM two places, TAM two spots (places or
  archive cards), KIM an archived card, KRIS an element from the dropdown and a
  place; ALAN takes archived cards, then "ALAN: identify now"; End turn.

A wrong click is answered with the engine's own ``why_illegal`` sentence.

**Hot-seat** (``humans=(0, 1, 2)``): between two different human players a
"pass the device" screen hides the table. The table widget is *closed* (so its
model, holding the last player's view, leaves the page) and the next table is
built only after the next player presses "I am player N". Each table shows one
seat's observation, and the lab's own panels (what happened since your last
turn, your TOM looks) are built from that seat's observation only.

Bots (registry specs such as ``"greedy"``, ``"random"``, ``"memory:0.5"``)
play the other seats at once, each seeing only its own observation.

**Records** are saved to and loaded from the records folder only
(:mod:`safari_kit.core.record_files`: a bare name such as ``my-game.json``;
anything else is refused and no other file is read or written). A record holds
the seed and every action, so a record of an unfinished game shows every
hidden card. In **fair mode** (the classroom app): Save works once the game is
over; Load is refused while a game is in progress (from the learners' first
move or device pass until the end) and loads finished games only; a saved
name gets a server-chosen ending (``my-game-k3f9x.json``: nobody can take a
name before another learner needs it) and counts against the records quota;
a record that does not replay is refused without quoting it; and every
press of "I am player N" is written in the *Device passes* line that the
whole table sees, which neither New game nor Load clears (repeat presses fold
into one line with a count, so the first opening is never pushed out). The
press counts only for a learner's seat while the pass screen waits for it: a
crafted click on the hidden button at any other moment (a bot's failed turn)
changes nothing.

>>> lab = FullGameLab(seed=3, players=2, humans=(0,), bots="greedy")  # the bots play to the learner's turn
>>> lab.state.current_player in (0, None) or lab.state.is_terminal()
True
"""
from __future__ import annotations

import html
import logging
from pathlib import Path
from typing import Sequence

import ipywidgets as W

from safari_kit.core.chance import Chance
from safari_kit.widgets.labs.base import Lab, guarded
from safari_kit.widgets.labs.fullgame_spoken import SpokenTurns
from safari_kit.widgets.labs.limits import bounded_int, limit_text, pin_range
from safari_kit.presentation.narration import card_label, describe_event, types_label
from safari_kit.presentation.views import action_of, learner_sentence
from safari_kit.simulation.registry import BotSpecError, learner_name

__all__ = ["FullGameLab"]
log = logging.getLogger("safari_kit.widgets")

_SPOT_KINDS = ("place", "archive")
_MAX_BOT_ACTIONS = 5000  # a safety net: a bot loop never runs away
RECORD_TEXT_LIMIT = 1_000_000  # characters in the record box: a record file's size cap
PLAYERS = (2, 7)  # seats at the table: the slider's range, kept on the server




#: the bots a teacher can pick for the other seats (spec, words): the words are the learner's names of the
#: registry (issue 27: no code names such as ``memory:0.5`` on a learner's screen)
BOT_CHOICES = (
    ("greedy", learner_name("witness", "greedy")),
    ("memory:0.5", learner_name("witness", "memory:0.5")),
    ("lastk:3", learner_name("witness", "lastk:3")),
    ("random", learner_name("witness", "random")),
    ("greedy,random", "Seat by seat, a best-chance bot then a random bot"),
)


def _bot_words(spec: str) -> str:
    """A bot seat's name for the page (the registry's learner name; a spec it does not know stays as it is)."""
    try:
        return learner_name("witness", spec)
    except BotSpecError:
        return spec


_PASS_LINES = 12  # lines of the Device passes list on the page


def _fold_passes(passes: list[dict]) -> list[str]:
    """The Device passes story in lines: an opening, then its repeat presses folded into one line with a count.

    Repeats never push an opening out: 13 repeat presses are one line ("pressed again 13 times").

    >>> for line in _fold_passes([{"time": "10:00:00", "game": 1, "turn": 2, "seat": 0, "repeat": False}]
    ...                          + [{"time": "10:00:05", "game": 1, "turn": 2, "seat": 0, "repeat": True}] * 13):
    ...     print(line)
    10:00:00, game 1, turn 2: Player 0: the table was opened
    10:00:05, game 1, turn 2: Player 0: pressed again 13 times (the table was already open; last at 10:00:05)
    """
    lines: list[str] = []
    run: dict | None = None
    count = 0

    def flush():
        if run is not None:
            times = "once" if count == 1 else f"{count} times"
            lines.append(f"{run['first']}, game {run['game']}, turn {run['turn']}: Player {run['seat']}: pressed "
                         f"again {times} (the table was already open; last at {run['last']})")

    for p in passes:
        key = (p["game"], p["turn"], p["seat"])
        if p["repeat"] and run is not None and run["key"] == key:
            count += 1
            run["last"] = p["time"]
            continue
        flush()
        run, count = None, 0
        if p["repeat"]:
            run, count = {"key": key, "first": p["time"], "last": p["time"], "game": p["game"], "turn": p["turn"],
                          "seat": p["seat"]}, 1
        else:
            lines.append(f"{p['time']}, game {p['game']}, turn {p['turn']}: Player {p['seat']}: the table was opened")
    flush()
    return lines


def _record_words(exc: Exception) -> str:
    """A refused record's message for the page: at most a few hundred characters (it never quotes a file)."""
    text = str(exc)
    return text if len(text) <= 300 else text[:297] + "..."


class FullGameLab(SpokenTurns, Lab):
    """A whole Witness game with any options; ``humans`` are the seats played by learners.

    ``bots``: one registry spec for every bot seat, or a sequence with one spec
    per bot seat (in seat order). ``lab.state`` is the engine state,
    ``lab.viewer`` the seat whose view is on screen (None on the pass screen),
    ``lab.table`` the card table (None on the pass screen).
    Methods a test or a teacher may call: :meth:`click`, :meth:`press`,
    :meth:`confirm_player`, :meth:`save_record`, :meth:`load_record`.
    ``lab.passes`` lists every "I am player N" press (game, turn, seat, time).
    """

    title = "Full game: Safari Witness"

    def __init__(self, seed: int | None = 1, players: int = 3, case_module: bool = False, advanced: bool = False,
                 humans: Sequence[int] = (0,), bots="greedy", first_player: int | None = None,
                 *, fair: bool = False):
        super().__init__(seed, fair=fair)
        from safari_kit.witness.state import KRIS_ELEMENTS

        self.players_box = W.IntSlider(value=players, min=PLAYERS[0], max=PLAYERS[1], description="Players",
                                       continuous_update=False, style={"description_width": "initial"},
                                       layout=W.Layout(width="260px", min_width="220px"))
        self.case_box = W.Checkbox(value=bool(case_module), description="Case Module", indent=False,
                                   tooltip="Each player gets a secret Case Card that scores extra points.",
                                   layout=W.Layout(width="130px"))
        self.advanced_box = W.Checkbox(value=bool(advanced), description="Advanced Mode", indent=False,
                                       tooltip="Name abilities on: after a win, a card's name (TOM, SAM, KIM, "
                                               "...) gives you a special move.",
                                       layout=W.Layout(width="140px"))
        # Learners: one toggle per seat (pressed = a learner plays it; the others are bots). Bots: a picker of
        # the registered bots; a spec given in Python (e.g. "greedy,random") is added as an option.
        self.learner_picker = W.HBox()
        self.learner_picker.add_class("safari-learners")
        self._learner_seats = tuple(humans)
        bot_text = bots if isinstance(bots, str) else ",".join(bots)
        choices = [(words, spec) for spec, words in BOT_CHOICES]
        if bot_text not in [spec for _, spec in choices]:
            choices.append((_bot_words(bot_text), bot_text))
        self.bots_box = W.Dropdown(options=choices, value=bot_text, description="Bots",
                                   style={"description_width": "40px"}, layout=W.Layout(width="380px"))
        self.bots_box.add_class("safari-bots")
        self.layout.add_class("safari-fullgame-lab")
        self.new_button = W.Button(description="New game", tooltip="Start a new game with these options",
                                   layout=W.Layout(width="110px"))
        self.new_button.on_click(lambda _b: self.reset(self.seed_box.value))
        pin_range(self.players_box, *PLAYERS)  # issue 19: a page's {"max": 1000000} is put back
        self.players_box.observe(lambda _c: self._on_players(), names="value")
        self._draw_learner_picker()
        options = W.VBox([W.HBox([self.players_box, self.case_box, self.advanced_box]),
                          W.HBox([W.HTML("<b style='margin:0 6px 0 4px'>Learners:</b>"), self.learner_picker]),
                          W.HBox([self.bots_box, self.new_button])])
        self.kris_box = W.Dropdown(options=list(KRIS_ELEMENTS), description="KRIS element",
                                   style={"description_width": "90px"}, layout=W.Layout(width="260px"))
        self.picked = W.HTML()
        self.events = W.HTML()
        self.private = W.HTML()
        self.pass_label = W.HTML()
        self.confirm_button = W.Button(description="I am player 0", button_style="warning")
        self.confirm_button.on_click(lambda _b: self.confirm_player())
        self.pass_screen = W.VBox([self.pass_label, self.confirm_button],
                                  layout=W.Layout(padding="24px", border="2px dashed #c90"))
        self.over = W.HTML()
        self.save_button = W.Button(description="Save game record")
        self.save_button.add_class("safari-save")
        self.save_button.on_click(lambda _b: self._save_clicked())
        self.load_button = W.Button(description="Load game record")
        self.load_button.add_class("safari-load")
        self.load_button.on_click(lambda _b: self._load_clicked())
        self.path_box = W.Text(placeholder="record name (optional), e.g. my-game", description="File",
                               tooltip="A bare name: letters, digits, - and _ (.json is added). "
                                       "Records are kept in the records folder.",
                               layout=W.Layout(width="330px"))
        self.path_box.add_class("safari-record-name")
        limit_text(self.path_box, 80)  # a record name is at most 64 letters and .json
        self.record_note = W.HTML()
        self.record_note.add_class("safari-record-note")
        self.passes: list[dict] = []  # every "I am player N" press, for the whole table to see
        self.pass_log = W.HTML()
        self.pass_log.add_class("safari-passes")
        self._games = 0
        self._touched = False  # a learner has moved (or a device pass happened) in this game
        self.record_box = W.Textarea(placeholder="A saved record appears here; paste one to load it.",
                                     layout=W.Layout(width="95%", height="70px", display="none"))
        limit_text(self.record_box, RECORD_TEXT_LIMIT)
        self.records = W.VBox([W.HBox([self.save_button, self.load_button, self.path_box]), self.record_note,
                               self.record_box])
        self.game_area = W.VBox()
        self.path_box.layout.width = "250px"
        self.players_box.layout.width = "230px"
        self.arrange(main=[self.game_area], side=[options, self.records, self.pass_log])

        self.table = None
        self.viewer: int | None = None
        self.state = None
        self.game = None
        self.humans: tuple[int, ...] = ()
        self.bot_specs: dict[int, str] = {}
        self.bots: dict[int, object] = {}
        self.bot_log: list[str] = []
        self._pick: dict = {}
        self._ability: str | None = None
        self._spots: list = []
        self._seen: dict[int, int] = {}  # human seat -> log length when it last finished acting
        self._pause: str | None = None  # "bot_failed" or "tom": the table waits for "go on"
        self._waiting_for: int | None = None  # the learner seat the pass screen waits for, while it shows
        self.go_on_button = W.Button(description="Next turn", button_style="warning")
        self.go_on_button.on_click(lambda _b: self._go_on_clicked())
        self._first_player = first_player
        self.reset(self.seed)

    # ------------------------------------------------------------------ set-up
    @guarded
    def _reset(self) -> None:
        from safari_kit.witness import WitnessGame

        humans = self._parse_humans(self.learner_seats, self._players())
        game = WitnessGame(players=self._players(), case_module=self.case_box.value,
                           advanced=self.advanced_box.value, first_player=self._first_player)
        self._start(game, game.new_initial_state(seed=self.seed), humans)

    # ------------------------------------------------------------------ the learners' seats
    def _players(self) -> int:
        """The Players slider's value within the server's range (never trusting a synced min/max)."""
        return bounded_int(self.players_box.value, *PLAYERS, 3)

    @property
    def learner_seats(self) -> tuple[int, ...]:
        """The seats learners play (the pressed toggles); every other seat is a bot."""
        return tuple(sorted(self._learner_seats))

    @learner_seats.setter
    def learner_seats(self, seats) -> None:
        seats = tuple(sorted({int(x) for x in (str(seats).replace(" ", "").split(",") if isinstance(seats, str)
                                                  else seats) if str(x) != ""}))
        self._learner_seats = seats
        self._draw_learner_picker()

    def _draw_learner_picker(self) -> None:
        players = self._players()
        toggles = []
        for seat in range(players):
            t = W.ToggleButton(value=seat in self._learner_seats, description=f"Player {seat}",
                               tooltip=f"Pressed: a learner plays seat {seat}; not pressed: a bot does",
                               layout=W.Layout(width="86px"))
            t.add_class("safari-learner-seat")
            t.observe(lambda c, seat=seat: self._on_learner_toggle(seat, c["new"]), names="value")
            toggles.append(t)
        self.learner_picker.children = toggles

    def _on_players(self) -> None:
        players = self._players()
        self._learner_seats = tuple(x for x in self._learner_seats if x < players)
        self._draw_learner_picker()

    def _on_learner_toggle(self, seat: int, on: bool) -> None:
        seats = set(self._learner_seats)
        (seats.add if on else seats.discard)(seat)
        self._learner_seats = tuple(sorted(seats))

    @staticmethod
    def _parse_humans(text, players: int) -> tuple[int, ...]:
        if isinstance(text, (list, tuple)):
            seats = [int(x) for x in text]
        else:
            seats = [int(x) for x in str(text).replace(" ", "").split(",") if x != ""]
        bad = [s for s in seats if not 0 <= s < players]
        if bad:
            raise ValueError(f"learner seats must be between 0 and {players - 1}, got {bad}")
        return tuple(sorted(set(seats)))

    def _start(self, game, state, humans) -> None:
        from safari_kit.simulation.registry import make_bot, parse_bots

        self.game, self.state, self.humans = game, state, tuple(humans)
        bot_seats = [s for s in range(game.players) if s not in self.humans]
        specs = parse_bots(self.bots_box.value) if bot_seats else []
        self.bot_specs = {s: specs[k % len(specs)] for k, s in enumerate(bot_seats)}
        chance = Chance(state.seed)
        self.bots = {}
        for s, spec in self.bot_specs.items():
            bot = make_bot("witness", spec)
            bot.start(game, s, chance.generator("bot", s))
            self.bots[s] = bot
        self.bot_log = []
        self._seen = {h: 0 for h in self.humans}
        self._games += 1
        self._touched = False
        self._clear_pick()
        self._close_table()
        self.viewer = None
        self._waiting_for = None
        self.record_box.layout.display = "none"
        self.record_box.value = ""
        with self._one_sentence(since=len(state.log)):  # said: the bots' turns before the learner's first
            self._lead = (f"New game: {game.players} players.", "start")
            self._advance(opening=True)
        self._update_pass_log()

    # ------------------------------------------------------------------ the flow
    def _advance(self, opening: bool = False) -> None:
        """Let bots play until a learner must act or the game ends; then show the right screen.

        Bots pause after a failed turn (phase ``face_up``, W4/W5): the cards lie
        face up on the learner's table until a learner presses "Next turn". Not at the ``opening`` of a game:
        a game opens on a learner's own turn (issue 27: opening on "Player 2 failed" made learners think they
        had done something wrong); what the bots did first is listed under "Since your last turn".
        """
        steps = 0
        self._pause = None
        while not self.state.is_terminal() and self.state.current_player not in self.humans:
            seat = self.state.current_player
            if self.state.phase == "face_up" and self.humans and not opening:
                self._pause = "bot_failed"
                break
            bot = self.bots[seat]
            obs = self.state.observation(seat) if bot.needs_observation else None
            action = bot.choose(obs, self.state.legal_sequence())
            self.state.apply(action)
            self.bot_log.append(f"Player {seat} ({self.bot_specs[seat]}): {action}")
            steps += 1
            if steps > _MAX_BOT_ACTIONS:
                raise RuntimeError("the bots took too many actions in a row")
        if self._pause == "bot_failed":
            self._show_bot_failure()
            self._update_record_controls()
            return
        if self.state.is_terminal():
            self._show_over()
            self._update_record_controls()
            return
        seat = self.state.current_player
        if self.viewer == seat:
            self._render(self._opening_words(seat) if opening else None)
        elif len(self.humans) > 1:
            self._show_pass(seat)
        else:
            self.viewer = seat
            self._render(self._opening_words(seat) if opening else None)
        self._update_record_controls()

    def _opening_words(self, seat: int) -> str | None:
        """The table's line on a game's first screen, when other players went first: whose turn, and why."""
        if not any(e.get("player") not in (None, seat) for e in self.state.observation(seat).log):
            return None
        return "Your turn. The other players went first: what they did is listed below the table."

    def _show_bot_failure(self) -> None:
        """A bot's failed turn: its cards lie face up; the learner looks, then presses go on."""
        from safari_kit.presentation.narration import why_failed

        seat = self.state.current_player
        # the failed declaration or reveal in words, from a public part of the log (both cards lie face up)
        looker = self.viewer if self.viewer is not None else (self.humans[0] if self.humans else seat)
        why = why_failed(self.state.observation(looker).log, self.game, looker)
        text = (f"Player {seat} failed." + (f" {why}" if why else "") + " The cards they revealed lie face up for "
                "everyone. Remember them, then press Next turn.")
        if self.viewer is None and len(self.humans) == 1:
            self.viewer = self.humans[0]
        if self.viewer is None:  # several learners and nobody at the screen yet: show only the public cards
            shown = [(p, cid) for p, cid in self.state.observation(seat).unidentified if cid is not None]
            items = "".join(f"<li>Place {p}: {html.escape(self._face(cid))}</li>" for p, cid in shown)
            self.pass_label.value = f"<h3>{html.escape(text)}</h3><ul>{items}</ul>"
            self.game_area.children = [self.pass_label, self.go_on_button]
        else:
            self._render(text)
        self.show_status(text)

    def _go_on_clicked(self) -> None:
        with self._one_sentence():
            self._go_on_guarded()

    @guarded
    def _go_on_guarded(self) -> None:
        if self._pause is not None:
            self._go_on()

    def go_on(self) -> None:
        """Press "go on" after a pause (a bot's failed turn on the table, or your TOM look)."""
        if self.table is not None:
            self.press("go_on")
        else:
            self._go_on_clicked()

    def _go_on(self) -> None:
        """After a pause (a bot's failure, a TOM look): turn the cards down if needed and play on."""
        from safari_kit.witness import actions as A

        pause, self._pause = self._pause, None
        if pause == "bot_failed" and self.state.phase == "face_up" and self.state.current_player not in self.humans:
            self.state.apply(A.TurnFaceDown())
            self._lead = ("The face-up cards turn face down.", "end")
        self._advance()

    def _show_pass(self, seat: int) -> None:
        self._close_table()
        self.viewer = None
        self.events.value = ""
        self.private.value = ""
        self.picked.value = ""
        self.pass_label.value = (
            f"<h3>Pass the device to Player {seat}</h3>"
            f"<p>Player {seat}: when nobody else is looking, press the button. "
            "The table stays hidden until then, so nobody sees your Case Card or what your TOM showed you.</p>"
            + ("<p style='color:#555'>Every press is written in the <b>Device passes</b> line below, for "
               "everyone to see: if the table is already open when you get the device, someone looked.</p>"))
        self.confirm_button.description = f"I am player {seat}"
        self._waiting_for = seat
        self.game_area.children = [self.pass_screen]
        self.show_status(f"Waiting for Player {seat}.")

    def confirm_player(self, seat: int | None = None) -> None:
        """The next learner says "I am player N": only now is their table built (and said: what the other
        players did since this seat's last turn, then the turn's start)."""
        current = self.state.current_player if self.state is not None else None
        opening = current in self.humans and self._waiting_for == current and self.viewer != current
        since = self._seen.get(current, 0) if opening else None
        with self._one_sentence(since=since, looker=current if since is not None else None):
            self._confirm_player(seat)

    @guarded
    def _confirm_player(self, seat: int | None = None) -> None:
        if self.state is None or self.state.is_terminal():
            return
        current = self.state.current_player
        if seat is not None and seat != current:
            self.show_status(f"It is Player {current}'s turn, not Player {seat}'s.", kind="bad")
            return
        import time

        repeat = self.viewer == current
        # only a learner's seat, and only while the pass screen waits for it (or its table is already open: a
        # repeat press, written down): a click sent to the hidden button at any other moment (a bot's failed
        # turn, the game's end) would open a seat nobody may see, a bot's Case Card included
        if current not in self.humans or not (repeat or self._waiting_for == current):
            log.warning("a press of 'I am player N' while no pass screen waits for seat %s was ignored", current)
            return
        self._waiting_for = None
        self.passes.append({"game": self._games, "turn": self.state.turn, "seat": current, "repeat": repeat,
                            "time": time.strftime("%H:%M:%S")})
        self._touched = True
        self._update_pass_log()
        self._update_record_controls()
        if repeat:
            return  # a repeated press: recorded, nothing else
        self.viewer = current
        self._render()

    def _update_pass_log(self) -> None:
        """The Device passes line: every "I am player N" press, seen by the whole table (fair mode)."""
        if len(self.humans) < 2 and not self.passes:
            self.pass_log.value = ""
            return
        if not self.passes:
            self.pass_log.value = ("<div style='color:#555;padding:2px 0'><b>Device passes</b> "
                                   "(everyone sees this): none yet.</div>")
            return
        lines = _fold_passes(self.passes)
        shown = lines if len(lines) <= _PASS_LINES else lines[:1] + lines[-(_PASS_LINES - 1):]
        items = [f"<li>{html.escape(x)}</li>" for x in shown]
        if len(shown) < len(lines):  # the first opening always stays; the lines between are counted, not dropped
            items.insert(1, f"<li>… {len(lines) - len(shown)} more lines (see lab.passes) …</li>")
        more = f" ({len(self.passes)} presses)" if len(self.passes) > len(shown) else ""
        self.pass_log.value = ("<details open style='color:#444'><summary><b>Device passes</b> (everyone sees this)"
                               f"{more}</summary><ul style='margin:2px 0'>{''.join(items)}</ul></details>")

    def _close_table(self) -> None:
        if self.table is not None:
            self.table.on_click(self._on_table_click, remove=True)
            self.table.close()
            self.table = None

    def _new_table(self, viewer: int):
        from safari_kit.widgets import CardTable

        table = CardTable.for_witness(self.state, viewer=viewer, selectable=[])
        table.live_message = False  # the lab says one sentence per action itself (self.live, issue 20)
        table.on_click(self._on_table_click)
        return table

    def _render(self, message: str | None = None) -> None:
        """Draw the table for ``self.viewer`` with the targets of the current step."""
        from safari_kit.presentation.views import selectable_from_legal

        if self.table is None or self.table.viewer != self.viewer:
            self._close_table()
            self.table = self._new_table(self.viewer)
        state = self.state
        my_turn = state.current_player == self.viewer
        highlight = []
        if self._pause is not None:
            targets = [{"kind": "button", "id": "go_on", "label": "Next turn"
                        if self._pause == "bot_failed" else "Got it: go on"}]
        elif not my_turn:
            targets = []
        elif self._ability is not None:
            targets = selectable_from_legal(state, ability=self._ability)
            targets.append({"kind": "button", "id": "cancel", "label": "Cancel " + self._ability})
            highlight = [{"kind": k, "id": i} for k, i in self._spots]
        else:
            targets = selectable_from_legal(state)
            if state.phase == "identify":
                targets = self._identify_targets(targets)
                if self._pick.get("clue") is not None:
                    highlight.append({"kind": "clue", "id": self._pick["clue"]})
                if self._pick.get("types") is not None:
                    highlight.append({"kind": "button", "id": "type:" + "+".join(self._pick["types"])})
        if message is None:
            message = self._hint(targets)
        self.table.show(state, self.viewer, selectable=targets, message=message, highlight=highlight)
        self.picked.value = self._picked_html()
        self._update_panels()
        children = [self.table, self.picked]
        if self._ability == "KRIS":
            children.append(self.kris_box)
        children += [self.events, self.private]
        self.game_area.children = children
        # said: what the table's message line says now (the step's hint, or why a click was refused)
        self.show_status(f"Player {self.viewer} at the screen. {self._phase_line()}", spoken=message or None)

    def _identify_targets(self, targets: list[dict]) -> list[dict]:
        clues = [t for t in targets if t["kind"] == "clue"]
        if len(clues) == 1:
            self._pick["clue"] = clues[0]["id"]
        elif self._pick.get("clue") not in {t["id"] for t in clues}:
            self._pick["clue"] = None
        types = [t["id"][5:] for t in targets if t["kind"] == "button" and t["id"].startswith("type:")]
        if len(types) == 1:
            self._pick["types"] = tuple(types[0].split("+"))
        return targets

    def _hint(self, targets) -> str:
        state = self.state
        if state.current_player != self.viewer:
            return f"Player {state.current_player} is playing."
        if self._ability == "KRIS":
            return "KRIS: pick an element in the dropdown below the table, then a face-down place."
        if self._ability in ("SAM", "TAM"):
            left = 2 - len(self._spots)
            what = "face-down places" if self._ability == "SAM" else "spots (places or archive cards)"
            return f"{self._ability}: pick {left} more of the {what}."
        if self._ability == "TOM":
            return "TOM: pick a face-down place to look at (only you will see it)."
        if self._ability == "KIM":
            return "KIM: pick an archived card to send back face down."
        if state.phase == "face_up":
            from safari_kit.presentation.narration import why_failed

            why = why_failed(state.observation(self.viewer).log, self.game, self.viewer)
            return ("Your turn failed." + (f" {why}" if why else "") + " Everyone sees the face-up cards now. "
                    "Remember them, then press Next turn.")
        if state.phase == "identify":
            if self._pick.get("clue") is None:
                return "Pick a clue card first, then a clue type and a face-down place."
            if self._pick.get("types") is None:
                return "Now pick a clue type, then a face-down place."
            return "Now pick the face-down place to reveal."
        return None

    def _phase_line(self) -> str:
        from safari_kit.presentation.views import WITNESS_PHASE_WORDS

        state = self.state
        if state.current_player != self.viewer:
            return ""
        words = WITNESS_PHASE_WORDS.get(state.phase, (state.phase,))[0]
        return "Your turn. " + words[:1].upper() + words[1:] + "."

    def _picked_html(self) -> str:
        if self.state.phase == "identify" and self.state.current_player == self.viewer and self._ability is None:
            from safari_kit.presentation.narration import card_label, types_label

            clue = self._pick.get("clue")
            clue_words = card_label(self.game, clue) if clue else "(click a clue card)"
            types = self._pick.get("types")
            type_words = types_label(tuple(types)) if types else "(pick a clue type)"
            return (f"<div style='color:#345'>Declaring: clue card <b>{html.escape(clue_words)}</b>, "
                    f"clue type <b>{html.escape(type_words)}</b>, then click a face-down place</div>")
        if self._ability is not None:
            spots = ", ".join(str(i) for _, i in self._spots) or "none yet"
            return f"<div style='color:#345'>{self._ability}: picked {html.escape(spots)}</div>"
        return ""

    def _update_panels(self) -> None:
        """What happened since this player's last turn, and their private looks: from their observation only."""
        obs = self.state.observation(self.viewer)
        start = self._seen.get(self.viewer, 0)
        lines = [self._describe(e) for e in obs.log[start:]]
        lines = [x for x in lines if x]
        self.events.value = ("<details open><summary>Since your last turn</summary><ul style='margin:2px 0'>"
                             + "".join(f"<li>{html.escape(x)}</li>" for x in lines[-30:]) + "</ul></details>"
                             if lines else "")
        looks = [e for e in obs.log if e.get("kind") == "tom" and "card" in e and e.get("player") == self.viewer]
        if looks:
            items = "".join(f"<li>turn {e['turn']}: place {e['place']} held {html.escape(self._face(e['card']))}</li>"
                            for e in looks)
            self.private.value = ("<div style='border-left:4px solid #c90;padding:2px 8px'><b>Only for Player "
                                  f"{self.viewer}: your TOM looks</b><ul style='margin:2px 0'>{items}</ul></div>")
        else:
            self.private.value = ""

    def _face(self, card_id: str) -> str:
        return card_label(self.game, card_id)

    def _describe(self, e: dict) -> str | None:
        return describe_event(e, self.game, self.viewer)

    def _show_over(self) -> None:
        from safari_kit.witness.cases import CASE_BY_KEY, case_points

        state = self.state
        self._clear_pick()
        if self.viewer is None:
            self.viewer = self.humans[0] if self.humans else 0
        if self.table is None or self.table.viewer != self.viewer:
            self._close_table()
            self.table = self._new_table(self.viewer)
        self.table.show(state, self.viewer, selectable=[])
        scores, cases, sizes, winners = state.scores(), state.case_scores(), state.archive_sizes(), state.winners()
        rows = []
        for p in range(state.players):
            bot = _bot_words(self.bot_specs.get(p, "bot")).lower()
            who = f"Player {p}" + (" (learner)" if p in self.humans else f" ({bot})")
            case = ""
            if state.case_cards is not None:
                key = state.case_cards[p]
                pts, why = case_points(key, [state.card(c) for c in state.archives[p]])
                case = f"{html.escape(CASE_BY_KEY[key].text)}<br><span style='color:#666'>{html.escape(why)}</span>"
            mark = " (winner)" if p in winners else ""
            rows.append(f"<tr><td>{who}{mark}</td><td>{sizes[p]}</td><td>{cases[p]}</td><td><b>{scores[p]}</b></td>"
                        f"<td>{case}</td></tr>")
        how = "an archive reached 10 Mugshots" if state.end_reason == "archive" else "the deck ran out"
        names = " and ".join(f"Player {w}" for w in winners)
        self.over.value = (
            f"<h3>Game over: {how}</h3><p>Winner{'s' if len(winners) > 1 else ''}: <b>{names}</b></p>"
            "<table style='border-collapse:collapse' border='1' cellpadding='4'>"
            "<tr><th>player</th><th>Mugshots</th><th>Case points</th><th>total</th><th>Case Card</th></tr>"
            + "".join(rows) + "</table>")
        self.events.value = ""
        self.private.value = ""
        self.picked.value = ""
        self.game_area.children = [self.over, self.table]
        self.show_status(f"Game over after {state.turn} turns. Winner(s): {names}.", kind="good")

    # ------------------------------------------------------------------ clicks
    def _clear_pick(self) -> None:
        self._pick = {"clue": None, "types": None}
        self._ability = None
        self._spots = []

    @guarded
    def click(self, kind: str, id_) -> None:
        """Click a target of the table as the page would (refused clicks are explained on the table)."""
        if self.table is None:
            self.show_status("The table is hidden: the next player must press the button first.", kind="bad")
            return
        seq = (self.table._last_seq or 0) + 1
        self.table.click = {"kind": kind, "id": id_, "seq": seq}

    def press(self, button_id: str) -> None:
        """Press a table button (``"identify"``, ``"type:animal"``, ``"use:TOM"``, ``"end_turn"``, …)."""
        self.click("button", button_id)

    def _on_table_click(self, target: dict) -> None:
        with self._one_sentence():
            self._table_click(target)

    @guarded
    def _table_click(self, target: dict) -> None:
        kind, id_ = target["kind"], target["id"]
        if self._pause is not None:
            if kind == "button" and id_ == "go_on":
                self._go_on()
            return
        if self.state.is_terminal() or self.state.current_player != self.viewer:
            return
        if self._ability is not None:
            self._ability_click(target)
            return
        phase = self.state.phase
        from safari_kit.witness import actions as A

        action = action_of(target)  # a target that is one whole action carries it (action.to_dict())
        if action is not None:
            self._act(action)
            return
        if kind == "button":
            if id_.startswith("type:"):
                self._pick["types"] = tuple(id_[5:].split("+"))
                hint = self._hint([])
                self._render(f"Clue type {types_label(self._pick['types'])} picked. {hint or ''}".strip())
                return
            if id_.startswith("use:"):  # an ability with targets: pick them next
                self._ability, self._spots = id_[4:], []
                self._render()
            return
        if phase == "identify":
            if kind == "clue":
                self._pick["clue"] = id_
                self._render()
                return
            if kind == "place":
                if self._pick.get("clue") is None:
                    self._render("Pick a clue card first.")
                    return
                if self._pick.get("types") is None:
                    self._render("Pick a clue type first (the Clue type buttons on the table).")
                    return
                self._act(A.Declare(self._pick["clue"], tuple(self._pick["types"]), int(id_)))
            return

    def _ability_click(self, target: dict) -> None:
        from safari_kit.witness import actions as A

        kind, id_ = target["kind"], target["id"]
        name = self._ability
        if kind == "button" and id_ == "cancel":
            self._ability, self._spots = None, []
            self._render("Cancelled: pick another ability or End turn.")
            return
        action = action_of(target)
        if action is not None:  # TOM's place, KIM's card: one click is the whole action
            self._act(action)
        elif name == "KRIS" and kind == "place":
            self._act(A.UseKris(self.kris_box.value, int(id_)))
        elif name in ("SAM", "TAM") and kind in _SPOT_KINDS:
            if (kind, id_) in self._spots:
                self._spots.remove((kind, id_))  # a second click on a picked spot un-picks it
                self._render()
                return
            self._spots.append((kind, id_))
            if len(self._spots) < 2:
                self._render()
                return
            (_, a), (_, b) = self._spots
            if name == "SAM":
                options = [A.UseSam(int(a), int(b)), A.UseSam(int(b), int(a))]
            else:
                sa = f"U{a}" if self._spots[0][0] == "place" else a
                sb = f"U{b}" if self._spots[1][0] == "place" else b
                options = [A.UseTam(sa, sb), A.UseTam(sb, sa)]
            legal = [o for o in options if self.state.is_legal(o)]
            self._act(legal[0] if legal else options[0])

    def _act(self, action) -> None:
        """Apply a learner's action, or explain why it is not legal."""
        from safari_kit.witness import actions as A

        state = self.state
        if not state.is_legal(action):
            reason = learner_sentence(state.why_illegal(action))
            if self._ability in ("SAM", "TAM"):
                self._spots = []
            self._render(reason)
            self.show_status(reason, kind="bad")
            return
        player = state.current_player
        n_log = len(state.log)
        state.apply(action)
        self._lead = self._action_words(action, state.log[n_log:], player)  # said when the action is over
        self._touched = True
        self._clear_pick()
        if state.is_terminal() or state.current_player != player:
            k = len(state.log)  # events after the turn ended (next turn's face-down, clue) are news for later
            while k > 0 and state.log[k - 1][0].get("player") != player:
                k -= 1
            self._seen[player] = k
            if type(action) is A.UseTom and not state.is_terminal():
                # W10 TOM: the looker sees the card at once, before the turn passes on
                self._pause = "tom"
                self._render(f"TOM: only you see this. {self._tom_words(action.place)} Press 'Got it: go on'.")
                return
        self._advance()

    def _reveal_words(self, events, player: int) -> str | None:
        """The sentence said after a declaration or a Challenge reveal of ``player`` (its card is face up now)."""
        from safari_kit.presentation.spoken import challenge_sentence, identify_sentence

        for event, *_ in reversed(list(events)):
            if event.get("player") != player:
                continue
            if event.get("kind") == "identify":
                return identify_sentence(self.game, event, self.state, player)
            if event.get("kind") == "challenge_reveal":
                return challenge_sentence(self.game, event, self.state, player, safe_so_far=self.state.safe
                                          if self.state.phase == "challenge" else None)
        return None

    def _tom_words(self, place: int) -> str:
        looks = [e for e in self.state.observation(self.viewer).log
                 if e.get("kind") == "tom" and "card" in e and e.get("place") == place]
        return f"Place {place} holds {self._face(looks[-1]['card'])}." if looks else ""

    # ------------------------------------------------------------------ records
    @property
    def in_progress(self) -> bool:
        """A game is in progress from the learners' first move (or device pass) until it ends."""
        return self.state is not None and not self.state.is_terminal() and self._touched

    def _update_record_controls(self) -> None:
        """Fair mode: Save only a finished game, Load only between games; say why on the page."""
        if not self.fair:
            self.save_button.disabled = False
            self.save_button.tooltip = "Show the record; with a name, also save it in the records folder"
            self.record_note.value = ""
            return
        over = self.state is not None and self.state.is_terminal()
        self.save_button.disabled = not over
        self.save_button.tooltip = ("Show the record; with a name, also save it in the records folder" if over
                                    else "A game can be saved once it is over (a record shows every hidden card)")
        self.load_button.tooltip = ("Load a finished game's record to look at it" if not self.in_progress
                                    else "Load is refused while a game is in progress")
        note = ("Records: you can save a game once it is over. A record holds every move, so a record of an "
                "unfinished game would show every face-down card. Load is for finished games, between games.")
        self.record_note.value = f"<div style='color:#555;font-size:90%'>{html.escape(note)}</div>"

    @guarded
    def save_record(self, name: str | None = None) -> str | None:
        """The game record as JSON text, shown in the record box; saved as ``name`` in the records folder when given.

        ``name`` is a record name (``my-game`` or ``my-game.json``, see
        :mod:`safari_kit.core.record_files`); any other name is refused and
        nothing is written. In fair mode only a finished game is saved.
        """
        return self._save(name)

    @guarded
    def _save_clicked(self) -> None:
        from safari_kit.core.errors import SafariKitError

        try:  # a refused name or file is the learner's to fix: said plainly, not as a crash
            self._save(self.path_box.value.strip() or None)
        except SafariKitError as exc:
            self.show_status(f"Not saved: {exc}", kind="bad")

    def _save(self, name: str | None) -> str | None:
        from safari_kit.core.record_files import learner_record_name, record_name, write_record_file

        if self.fair and not self.state.is_terminal():
            self.show_status("You can save once the game is over. A record holds every move, so a record of an "
                             "unfinished game would show every face-down card.", kind="bad")
            return None
        fname = record_name(name) if name is not None else None  # refuse a bad name before anything else
        if fname is not None and self.fair:  # a shared folder: the server picks the end of the name
            fname = learner_record_name(fname)
        text = self.state.save()
        self.record_box.value = text  # shown first: a refused save (the quota) leaves it to copy
        self.record_box.layout.display = ""
        where = ""
        if fname is not None:
            write_record_file(fname, text, learner=self.fair)
            where = f" as {fname} in the records folder"
            if self.fair:
                self.path_box.value = fname[:-5]
        self.show_status(f"Record saved{where}. It holds the seed: whoever loads it can replay everything.",
                         kind="good")
        return text

    @guarded
    def _load_clicked(self) -> None:
        source = self.path_box.value.strip() or self.record_box.value.strip()
        if not source:
            self.record_box.layout.display = ""
            self.show_status("Paste a record into the box (or give a record name), then press Load again.")
            return
        from safari_kit.core.errors import SafariKitError

        try:
            self._load(source)
        except SafariKitError as exc:
            self.show_status(f"Not loaded: {_record_words(exc)}", kind="bad")

    @guarded
    def load_record(self, record) -> None:
        """Continue a saved game: a dict, JSON record text, or a record name in the records folder.

        (A :class:`pathlib.Path` is read as it is, in notebook mode only: the
        page's File box always means a record name.) In fair mode Load is
        refused while a game is in progress, and only finished games load.
        """
        self._load(record)

    def _load(self, record) -> None:
        from safari_kit.core.record_files import RecordFileError, load_record_file, parse_record_text
        from safari_kit.witness import WitnessGame

        if self.fair and self.in_progress:
            self.show_status("Load is refused while a game is in progress: finish this game first.", kind="bad")
            return
        if isinstance(record, Path):
            if self.fair:
                raise ValueError("in the classroom app records are loaded by name from the records folder")
        elif isinstance(record, str):
            record = (parse_record_text(record) if record.lstrip().startswith("{")
                      else load_record_file(record))
        try:
            state = WitnessGame.replay(record)
        except Exception as exc:  # noqa: BLE001 - any record that does not replay is refused the same way
            if not self.fair:
                raise
            log.info("a record did not replay: %s: %s", type(exc).__name__, exc)
            raise RecordFileError("this is not a Safari Witness game record that replays here (a move, an "
                                  "option or the seed in it is not what a saved game holds)") from None
        if self.fair and not state.is_terminal():
            self.show_status("This record is of an unfinished game: the classroom app loads finished games only, "
                             "because such a record shows every hidden card.", kind="bad")
            return
        game = state.game
        if not self.fair:
            self.seed_box.value = state.seed
        o = game.options
        self.players_box.value, self.case_box.value, self.advanced_box.value = o.players, o.case_module, o.advanced
        humans = tuple(h for h in self.humans if h < o.players) or (0,)
        self.learner_seats = humans
        self._start(game, state, humans)
        self.show_status(f"Loaded a game at turn {state.turn} ({len(state.history)} actions).", kind="good")
